import Presentation

extension UniformGrid: IndexInspection {
  /// Every non-empty cell with the number of rows it lists (the overflow list is not a cell).
  public func inspectedBoxes() -> [InspectedBox] {
    guard hasCells else { return [] }
    let side = 1 / geometry.inverseSideX
    let columns = geometry.columns
    var boxes: [InspectedBox] = []
    for y in 0..<geometry.rows {
      for x in 0..<columns {
        let c = y * columns + x
        let count = Int(cellStart[c + 1] - cellStart[c])
        guard count > 0 else { continue }
        let minX = geometry.originX + Double(x) * side
        let minY = geometry.originY + Double(y) * side
        boxes.append(
          InspectedBox(.cell, Box(minX: minX, minY: minY, maxX: minX + side, maxY: minY + side), value: count))
      }
    }
    return boxes
  }
}
