import LayerModel
import Presentation

extension BVHTree {
  /// Checks the tree (with `HITBENCH_INTERNAL_CHECKS`): children after their parent, every
  /// prim in exactly one leaf, leaf prims in descending row, each node's box holding its
  /// children's (and its prims'), and `maxPriority` the largest hittable row below.
  public func _checkInvariants(_ f: PresentationFrame) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      f._checkInvariants()
      precondition(primRow.count == primBox.count, "prim columns disagree")
      guard !nodes.isEmpty else { return }
      precondition(stack.capacity >= nodes.count, "stack smaller than the tree")
      func holds(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
        b.x > b.z || b.y > b.w || (a.x <= b.x && a.y <= b.y && a.z >= b.z && a.w >= b.w)
      }
      var covered = 0
      for i in 0..<nodes.count {
        let n = nodes[i]
        if n.isLeaf {
          var best: Int32 = -1
          for k in Int(n.first)..<Int(n.first + n.count) {
            precondition(k == Int(n.first) || primRow[k] < primRow[k - 1], "leaf \(i): prims not descending")
            precondition(holds(n.box, primBox[k]), "leaf \(i): box misses prim \(k)")
            if f.flags[Int(primRow[k])].contains(.hittable) { best = Swift.max(best, primRow[k]) }
          }
          precondition(n.maxPriority == best, "leaf \(i): priority \(n.maxPriority), expected \(best)")
          covered += Int(n.count)
        } else {
          let l = Int(n.first)
          let r = Int(n.second)
          precondition(l > i && r > i && l < nodes.count && r < nodes.count, "node \(i): children before it")
          precondition(holds(n.box, nodes[l].box) && holds(n.box, nodes[r].box), "node \(i): box misses a child")
          precondition(
            n.maxPriority == Swift.max(nodes[l].maxPriority, nodes[r].maxPriority), "node \(i): priority")
        }
      }
      precondition(covered == primRow.count, "leaves cover \(covered) of \(primRow.count) prims")
    #endif
  }
}
