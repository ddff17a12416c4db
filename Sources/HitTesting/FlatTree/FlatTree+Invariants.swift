import LayerModel
import Presentation

extension FlatTree {
  /// Checks the subtree boxes (with `HITBENCH_INTERNAL_CHECKS`): each holds its row's own box
  /// (when hittable) and every child's subtree box; and the frame and the child links.
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard let f = binding._frameUnderCheck() else { return }
      links._checkInvariants(f)
      precondition(subtreeBox.count >= f.count && stack.capacity >= f.count + 1, "buffers smaller than the frame")
      func holds(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
        b.x > b.z || b.y > b.w || (a.x <= b.x && a.y <= b.y && a.z >= b.z && a.w >= b.w)
      }
      for r in 0..<f.count {
        if f.flags[r].contains(.hittable) && f.worldBox[r].minX <= f.worldBox[r].maxX
          && f.worldBox[r].minY <= f.worldBox[r].maxY
        {
          let b = subtreeBox[r]
          precondition(
            Double(b.x) <= f.worldBox[r].minX && Double(b.y) <= f.worldBox[r].minY && Double(b.z) >= f.worldBox[r].maxX
              && Double(b.w) >= f.worldBox[r].maxY, "row \(r): subtree box misses its own box")
        }
        if r > 0 { precondition(holds(subtreeBox[Int(f.parent[r])], subtreeBox[r]), "row \(r): parent box misses it") }
      }
    #endif
  }
}
