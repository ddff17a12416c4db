import Presentation

extension WindowedStrategy: IndexInspection {
  /// Every moving group's bound at the current time of the front window (its window box, or its
  /// linear bound interpolated), with the number of layers the group holds (its root and
  /// members). Unbounded groups keep their infinite edges.
  public func inspectedBoxes() -> [InspectedBox] {
    guard let s = state, s.isCurrent else { return [] }
    let groups = s.groups
    var boxes: [InspectedBox] = []
    let bounds = s.windows.front.groupBounds(groups: groups.count)
    for g in 1..<Swift.max(groups.count, 1) {
      let l = bounds[g]
      if l.start.isEmpty && l.end.isEmpty { continue }
      boxes.append(InspectedBox(.motionBound, l.at(s.windows.fraction), value: groups.layerCount(of: g)))
    }
    return boxes
  }
}
