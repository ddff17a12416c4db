import LayerModel
import Presentation

extension TreeWalk {
  /// Checks the child links against the frame (with `HITBENCH_INTERNAL_CHECKS`): each row's
  /// top-most child is its last child row, and sibling links descend through its children.
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let f = binding.frame
      binding.frame._checkInvariants()
      precondition(lastChild.count >= f.count && prevSibling.count >= f.count, "links shorter than the frame")
      precondition(stack.capacity >= f.count + 1, "stack smaller than the deepest walk")
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
