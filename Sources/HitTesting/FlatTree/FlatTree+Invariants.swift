import LayerModel
import Presentation

extension FlatTree {
  /// Checks the subtree boxes (with `HITBENCH_INTERNAL_CHECKS`): each holds its row's own box
  /// (when hittable) and every child's subtree box.
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let f = binding.frame
      f._checkInvariants()
      precondition(subtreeBox.count >= f.count && stack.capacity >= f.count + 1, "buffers smaller than the frame")
      func holds(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
        b.x > b.z || b.y > b.w || (a.x <= b.x && a.y <= b.y && a.z >= b.z && a.w >= b.w)
      }
      for r in 0..<f.count {
        if f.flags[r].contains(.hittable) && f.worldMinX[r] <= f.worldMaxX[r] && f.worldMinY[r] <= f.worldMaxY[r] {
          let b = subtreeBox[r]
          precondition(
            Double(b.x) <= f.worldMinX[r] && Double(b.y) <= f.worldMinY[r] && Double(b.z) >= f.worldMaxX[r]
              && Double(b.w) >= f.worldMaxY[r], "row \(r): subtree box misses its own box")
        }
        if r > 0 { precondition(holds(subtreeBox[Int(f.parent[r])], subtreeBox[r]), "row \(r): parent box misses it") }
      }
    #endif
  }
}
