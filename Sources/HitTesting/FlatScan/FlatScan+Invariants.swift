import LayerModel
import Presentation

extension FlatScan {
  /// Checks the scan list (with `HITBENCH_INTERNAL_CHECKS`): hittable rows in descending
  /// order, padded with -1 to whole blocks, each Float box holding its row's Double box.
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard let f = binding._frameUnderCheck() else { return }
      precondition(rows.count == blockCount * 8 && minX.count >= blockCount, "blocks and rows disagree")
      var previous = Int32.max
      for (k, r) in rows.enumerated() {
        if r < 0 { continue }
        precondition(r < previous && Int(r) < f.count, "scan order broken at \(k)")
        previous = r
        precondition(f.flags[Int(r)].contains(.hittable), "row \(r) is not hittable")
        let b = k / 8
        let i = k % 8
        precondition(
          Double(minX[b][i]) <= f.worldBox[Int(r)].minX && Double(maxX[b][i]) >= f.worldBox[Int(r)].maxX
            && Double(minY[b][i]) <= f.worldBox[Int(r)].minY && Double(maxY[b][i]) >= f.worldBox[Int(r)].maxY,
          "row \(r): Float box does not hold the world box")
      }
    #endif
  }
}
