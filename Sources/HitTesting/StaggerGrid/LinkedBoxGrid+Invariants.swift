import LayerModel
import Presentation

extension LinkedBoxGrid {
  /// Checks the lists (with `HITBENCH_INTERNAL_CHECKS`): every list doubly linked and each node
  /// on the list of its own cell, every placed node reachable from its cell's head, the levels
  /// four times coarser each, and entry g in exactly the cells `boxes[g]` covers at the finest
  /// level where that is at most `slots` (or alone on the overflow list when none is or it is
  /// not finite; nowhere when empty). O(nodes + cells).
  func _checkInvariants(_ boxes: UnsafeBufferPointer<Box>) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      precondition(levels >= 1 && levelStart[0] == 0 && levelStart[levels] == cells, "stagger-grid: level table")
      for k in 1..<Swift.max(levels, 1) {
        precondition(
          levelStart[k] == levelStart[k - 1] + geometry[k - 1].cellCount, "stagger-grid: level \(k)'s first cell")
        // Scaling by a power of two is exact, so the coarser inverse side is exactly a quarter.
        precondition(
          geometry[k].inverseSideX * 4 == geometry[k - 1].inverseSideX && geometry[k].originX == geometry[0].originX,
          "stagger-grid: level \(k) is not four times level \(k - 1)")
      }
      var reached = 0
      for c in 0...cells {
        var node = Int(head[c])
        var previous = -1
        while node >= 0 {
          precondition(
            node < nodeCell.count && Int(nodeCell[node]) == c, "stagger-grid: node \(node) on cell \(c)'s list")
          precondition(Int(prev[node]) == previous, "stagger-grid: node \(node)'s back link")
          reached += 1
          precondition(reached <= nodeCell.count, "stagger-grid: cell \(c)'s list loops")
          previous = node
          node = Int(next[node])
        }
      }
      var placed = 0
      for i in 0..<nodeCell.count where nodeCell[i] >= 0 { placed += 1 }
      precondition(placed == reached, "stagger-grid: \(placed) nodes placed, \(reached) on lists")
      let entries = Swift.min(boxes.count, nodeCell.count / Self.slots)
      for g in 0..<entries {
        let base = g * Self.slots
        let b = boxes[g]
        var cellsOf: [Int] = []
        for s in 0..<Self.slots where nodeCell[base + s] >= 0 { cellsOf.append(Int(nodeCell[base + s])) }
        if b.isEmpty {
          precondition(cellsOf.isEmpty, "stagger-grid: entry \(g) with an empty box is listed")
          continue
        }
        guard let (level, span) = _level(of: b) else {
          precondition(cellsOf == [cells], "stagger-grid: entry \(g) belongs on the overflow list only")
          continue
        }
        // The finest level that holds it: no finer one does.
        for k in 0..<level {
          let finer = geometry[k].span(of: b)
          precondition(
            (finer.x1 - finer.x0 + 1) * (finer.y1 - finer.y0 + 1) > Self.slots,
            "stagger-grid: entry \(g) listed above the finest level that holds it")
        }
        let columns = geometry[level].columns
        var expected: [Int] = []
        for y in span.y0...span.y1 {
          for x in span.x0...span.x1 { expected.append(levelStart[level] + y * columns + x) }
        }
        precondition(cellsOf.sorted() == expected.sorted(), "stagger-grid: entry \(g) not in the cells of its box")
      }
    #endif
  }
}
