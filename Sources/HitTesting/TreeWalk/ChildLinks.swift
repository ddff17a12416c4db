import LayerModel
import Presentation

/// The links a top-down walk follows: each row's top-most sublayer and each row's next sibling
/// below it (-1: none), read off a frame's parent column. 8 bytes a row; `link` is O(n) and
/// allocates only when the row count changes. Shared by `tree-walk` and `flat-tree`.
@usableFromInline struct _ChildLinks {
  @usableFromInline var lastChild: [Int32] = []
  @usableFromInline var prevSibling: [Int32] = []

  init() {}

  var memoryFootprint: Int { (lastChild.capacity + prevSibling.capacity) * 4 }

  /// Children come in ascending priority, so the last one seen is a row's top-most.
  mutating func link(_ f: PresentationFrame) {
    let n = f.count
    if lastChild.count != n {
      lastChild = [Int32](repeating: -1, count: n)
      prevSibling = [Int32](repeating: -1, count: n)
    }
    lastChild.withUnsafeMutableBufferPointer { last in
      prevSibling.withUnsafeMutableBufferPointer { prev in
        for r in 0..<n { last[r] = -1 }
        for r in 1..<max(n, 1) {
          let p = Int(f.parent[r])
          prev[r] = last[p]
          last[p] = Int32(r)
        }
        if n > 0 { prev[0] = -1 }
      }
    }
  }

  /// Checks the links against `f` (with `HITBENCH_INTERNAL_CHECKS`): each row's top-most child
  /// is its last child row, and sibling links descend through its children, reaching every
  /// row but the root once.
  func _checkInvariants(_ f: borrowing PresentationFrame) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      precondition(lastChild.count >= f.count && prevSibling.count >= f.count, "links shorter than the frame")
      var children = 0
      for r in 0..<f.count {
        var c = Int(lastChild[r])
        var previous = Int.max
        while c >= 0 {
          precondition(c < previous && Int(f.parent[c]) == r, "row \(r): child link \(c) broken")
          previous = c
          children += 1
          c = Int(prevSibling[c])
        }
      }
      precondition(children == Swift.max(f.count - 1, 0), "links reach \(children) of \(f.count - 1) non-root rows")
    #endif
  }
}
