import LayerModel
import Presentation

extension UniformGrid {
  /// Checks the grid (with `HITBENCH_INTERNAL_CHECKS`): cell ranges ascending and within the
  /// references, each cell's rows in descending order, every in-grid row in every cell its box
  /// spans, the overflow list descending, and every hittable row with a box in one or the other.
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard let f = binding._frameUnderCheck() else { return }
      precondition(span.count >= f.count, "span smaller than the row count")
      var previous = Int32.max
      for r in overflow {
        precondition(r < previous && Int(r) < f.count, "overflow not descending")
        previous = r
      }
      guard hasCells else { return }
      precondition(
        geometry.columns <= Self.maxCellsPerSide && geometry.rows <= Self.maxCellsPerSide, "too many cells")
      let cells = geometry.cellCount
      precondition(cellStart.count > cells && cellStart[0] == 0, "cell table too short")
      var inCells = [Int](repeating: 0, count: f.count)
      for c in 0..<cells {
        let a = Int(cellStart[c])
        let b = Int(cellStart[c + 1])
        precondition(a <= b && b <= cellRows.count, "cell \(c): bad range")
        var last = Int32.max
        for k in a..<b {
          precondition(cellRows[k] < last, "cell \(c): rows not descending")
          last = cellRows[k]
          inCells[Int(cellRows[k])] += 1
        }
      }
      let inOverflow = Set(overflow)
      for r in 0..<f.count
      where f.flags[r].contains(.hittable) && f.worldBox[r].minX <= f.worldBox[r].maxX
        && f.worldBox[r].minY <= f.worldBox[r].maxY
      {
        if inOverflow.contains(Int32(r)) { continue }
        let spanned =
          (geometry.column(f.worldBox[r].maxX) - geometry.column(f.worldBox[r].minX) + 1)
          * (geometry.row(f.worldBox[r].maxY) - geometry.row(f.worldBox[r].minY) + 1)
        precondition(inCells[r] == spanned, "row \(r): in \(inCells[r]) cells, spans \(spanned)")
      }
    #endif
  }
}
