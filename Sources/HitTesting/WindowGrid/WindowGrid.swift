import Columns
import LayerModel
import Presentation

/// `window-grid`: the moving groups' window boxes (where each group can be at any time of the
/// window, from the animations' structure) in a uniform grid, rebuilt for each window on the
/// builder's thread (`_WindowsAhead`). Where a group moves piecewise linearly under no clipping
/// ancestor its bounds are exact lines (`WindowBounds`): the grid lists their hull and a query
/// searches the group only when the lines interpolated at the frame hold the point.
public typealias WindowGrid = WindowedStrategy<WindowGridIndex>

/// A uniform grid over window boxes, rebuilt per window (counting sort into cell lists): about
/// one cell per box (128 to 2048 a side) over the boxes' extent, no smaller than the mean box;
/// a box spanning more than `maxCellsPerBox` cells goes to one overflow list instead, as do the
/// largest boxes of a window whose cells would add up to more than `entriesPerBox` a box, so
/// memory stays within that many entries per box. Cell and overflow lists are in descending entry
/// order, and a query merges the point's cell list with the overflow list into one descending
/// list, so a search stops at the first group nothing after it can beat. No allocation once
/// its buffers have reached the group count's bound.
public struct WindowGridIndex: MotionIndex {
  public static let name = "window-grid"
  public static let summary =
    "time-aware: the moving groups' bounds over a time window in a grid, rebuilt for the next window while this one answers"
  public static let isOrdered = true
  static let maxCellsPerBox = 256

  let storage = _GridStorage()

  public init() {}

  public var memoryFootprint: Int { storage.memoryFootprint }

  public mutating func reserve(_ entries: Int) { storage.reserve(entries) }

  public mutating func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    storage.rebuild(bounds)
    storage._checkInvariants(bounds)
  }

  @_specialize(where Visitor == _HeldCount<_OneWindow>)
  public func visit<Visitor: MotionIndexVisitor>(_ p: Point, at s: Double, _ visitor: inout Visitor) -> Int {
    storage._visit(p, &visitor)
  }

  public func visit(_ p: Point, at s: Double, search: inout WindowSearch) -> Int { storage._visit(p, &search) }
}
