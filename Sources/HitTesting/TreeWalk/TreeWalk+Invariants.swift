import LayerModel
import Presentation

extension TreeWalk {
  /// Checks the frame, the child links against it and the stack's size (with
  /// `HITBENCH_INTERNAL_CHECKS`).
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard let f = binding._frameUnderCheck() else { return }
      links._checkInvariants(f)
      precondition(stack.capacity >= f.count + 1, "stack smaller than the deepest walk")
    #endif
  }
}
