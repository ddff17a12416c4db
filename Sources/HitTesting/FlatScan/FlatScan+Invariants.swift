import LayerModel
import Presentation

extension FlatScan {
  /// Checks the scan list (with `HITBENCH_INTERNAL_CHECKS`): every hittable row with a box and
  /// only hittable rows (one whose box became empty since the list was made keeps an empty
  /// lane), in descending order, padded with -1 to whole blocks, each Float box holding its
  /// row's Double box, and (when filled) `slot` each row's place in it.
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard let f = binding._frameUnderCheck() else { return }
      precondition(rows.count == blockCount * 8 && minX.count >= blockCount, "blocks and rows disagree")
      for r in 0..<f.count where slotsCurrent {
        precondition(slot.count == f.count, "slots for \(slot.count) of \(f.count) rows")
        let s = Int(slot[r])
        precondition(s >= 0 || !Self._scans(f, r), "row \(r): hittable with a box but not scanned")
        precondition(s < 0 || (s < rows.count && rows[s] == Int32(r)), "row \(r): slot \(s) holds another row")
      }
      var previous = Int32.max
      for (k, r) in rows.enumerated() {
        if r < 0 { continue }
        precondition(r < previous && Int(r) < f.count, "scan order broken at \(k)")
        previous = r
        precondition(f.flags[Int(r)].contains(.hittable), "row \(r) is not hittable")
        let b = k / 8
        let i = k % 8
        let box = f.worldBox[Int(r)]
        if !(box.minX <= box.maxX && box.minY <= box.maxY) {
          precondition(minX[b][i] > maxX[b][i] || minY[b][i] > maxY[b][i], "row \(r): a lane for an empty box")
          continue
        }
        precondition(
          Double(minX[b][i]) <= f.worldBox[Int(r)].minX && Double(maxX[b][i]) >= f.worldBox[Int(r)].maxX
            && Double(minY[b][i]) <= f.worldBox[Int(r)].minY && Double(maxY[b][i]) >= f.worldBox[Int(r)].maxY,
          "row \(r): Float box does not hold the world box")
      }
    #endif
  }
}
