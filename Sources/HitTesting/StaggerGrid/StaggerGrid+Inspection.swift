import Presentation

extension StaggerGrid: IndexInspection {
  /// Every moving group's box over its own window (each group's window ends at a time of its
  /// own), with the number of layers the group holds (its root and members).
  public func inspectedBoxes() -> [InspectedBox] {
    guard let s = state, s.isCurrent else { return [] }
    let groups = s.groups
    var boxes: [InspectedBox] = []
    for g in 1..<Swift.max(groups.count, 1) where g < s.windows.box.count {
      let b = s.windows.box[g]
      guard !b.isEmpty else { continue }
      boxes.append(InspectedBox(.motionBound, b, value: groups.layerCount(of: g)))
    }
    return boxes
  }
}
