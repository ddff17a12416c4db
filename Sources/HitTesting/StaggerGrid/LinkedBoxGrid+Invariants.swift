import LayerModel
import Presentation

extension LinkedBoxGrid {
  /// Checks the lists (with `HITBENCH_INTERNAL_CHECKS`): every list doubly linked and each node
  /// on the list of its own cell, every placed node reachable from its cell's head, and entry g
  /// in exactly the cells `boxes[g]` covers (or alone on the overflow list when it covers too
  /// many or is not finite; nowhere when empty). O(nodes + cells).
  func _checkInvariants(_ boxes: UnsafeBufferPointer<Box>) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
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
        let span = geometry.span(of: b)
        let covered = (span.x1 - span.x0 + 1) * (span.y1 - span.y0 + 1)
        if !b.isFiniteAndNonEmpty || covered > Self.slots {
          precondition(cellsOf == [cells], "stagger-grid: entry \(g) belongs on the overflow list only")
        } else {
          var expected: [Int] = []
          for y in span.y0...span.y1 { for x in span.x0...span.x1 { expected.append(y * geometry.columns + x) } }
          precondition(cellsOf.sorted() == expected.sorted(), "stagger-grid: entry \(g) not in the cells of its box")
        }
      }
    #endif
  }
}
