import LayerModel
import Presentation

extension _GridStorage {
  /// Checks the grid against the boxes it was built from (with `HITBENCH_INTERNAL_CHECKS`):
  /// cell starts non-decreasing, each cell's list descending and holding only entries whose box
  /// covers the cell, every entry either in the overflow list (descending) or in every cell its
  /// box covers, every stored box the entry's box (the union of its start and end boxes)
  /// rounded outward, and every kept cell span the one that rounded box maps to (empty for an
  /// overflow entry). O(boxes + cell entries).
  func _checkInvariants(_ bounds: UnsafeBufferPointer<LinearBox>) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let boxes = bounds.map { $0.start.union($0.end) }
      // What the grid stores and lists each entry by: its box rounded outward.
      let outwardBoxes = boxes.map(OutwardBox.init)
      let cells = geometry.cellCount
      precondition(cellStart[0] == 0 && Int(cellStart[cells]) == entries.count, "window-grid: cell starts")
      var listed = [Int](repeating: 0, count: boxes.count)
      for c in 0..<cells {
        let a = Int(cellStart[c])
        let b = Int(cellStart[c + 1])
        precondition(a <= b, "window-grid: cell \(c) starts after the next")
        let x = c % geometry.columns
        let y = c / geometry.columns
        for k in a..<b {
          let i = Int(entries[k])
          precondition(i >= 0 && i < boxes.count, "window-grid: cell \(c) lists entry \(i) of \(boxes.count)")
          precondition(k == a || entries[k - 1] > entries[k], "window-grid: cell \(c) not in descending order")
          let s = geometry.span(of: outwardBoxes[i].box)
          precondition(s.x0 <= x && x <= s.x1 && s.y0 <= y && y <= s.y1, "window-grid: cell \(c) lists entry \(i)")
          precondition(entryBox[k] == outwardBoxes[i], "window-grid: entry \(i)'s box in cell \(c)")
          listed[i] += 1
        }
      }
      var overflowed = [Bool](repeating: false, count: boxes.count)
      for j in 0..<overflow.count {
        let i = Int(overflow[j])
        precondition(i >= 0 && i < boxes.count, "window-grid: overflow entry \(i) of \(boxes.count)")
        precondition(j == 0 || overflow[j - 1] > overflow[j], "window-grid: overflow not in descending order")
        precondition(overflowBox[j] == outwardBoxes[i], "window-grid: overflow entry \(i)'s box")
        overflowed[i] = true
      }
      precondition(geometry.columns <= 1 << 16 && geometry.rows <= 1 << 16, "window-grid: cell spans overflow 16 bits")
      for i in 0..<boxes.count {
        let s = geometry.span(of: outwardBoxes[i].box)
        let kept = span[i]
        let expected = overflowed[i] ? _CellSpan.empty : _CellSpan(s)
        precondition(
          (kept.x0, kept.y0, kept.x1, kept.y1) == (expected.x0, expected.y0, expected.x1, expected.y1),
          "window-grid: entry \(i)'s kept cell span")
        let covered = (s.x1 - s.x0 + 1) * (s.y1 - s.y0 + 1)
        precondition(
          overflowed[i] ? listed[i] == 0 : listed[i] == covered,
          "window-grid: entry \(i) in \(listed[i]) of the \(covered) cells its box covers")
      }
    #endif
  }
}
