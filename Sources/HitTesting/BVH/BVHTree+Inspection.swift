import Presentation

extension BVHTree {
  /// Every node's box with its depth (the root is 0), walked from the root.
  public func inspectedNodes() -> [InspectedBox] {
    guard !nodes.isEmpty else { return [] }
    var boxes: [InspectedBox] = []
    var stack: [(node: Int, depth: Int)] = [(0, 0)]
    while let (i, depth) = stack.popLast() {
      let n = nodes[i]
      guard n.box.x <= n.box.z, n.box.y <= n.box.w else { continue }
      boxes.append(
        InspectedBox(
          .node, Box(minX: Double(n.box.x), minY: Double(n.box.y), maxX: Double(n.box.z), maxY: Double(n.box.w)),
          value: depth))
      if !n.isLeaf {
        stack.append((Int(n.second), depth + 1))
        stack.append((Int(n.first), depth + 1))
      }
    }
    return boxes
  }
}
