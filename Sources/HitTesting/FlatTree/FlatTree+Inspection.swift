import Presentation

extension FlatTree: IndexInspection {
  /// Every row's subtree box (the box a query tests before descending) with the row's depth;
  /// rows whose subtree holds nothing hittable have none.
  public func inspectedBoxes() -> [InspectedBox] {
    let f = binding.frame
    guard isCurrent, f.count == subtreeBox.count else { return [] }
    var depth = [Int](repeating: 0, count: f.count)
    var boxes: [InspectedBox] = []
    for r in 0..<f.count {
      if r > 0 { depth[r] = depth[Int(f.parent[r])] + 1 }
      let b = subtreeBox[r]
      guard b.x <= b.z, b.y <= b.w else { continue }
      boxes.append(
        InspectedBox(
          .subtree, Box(minX: Double(b.x), minY: Double(b.y), maxX: Double(b.z), maxY: Double(b.w)), value: depth[r]))
    }
    return boxes
  }
}
