import Columns
import LayerModel
import Presentation

/// `linear-bvh`: linear bounds as Embree's motion-blur BVHs store them (a box at the window's
/// start and its change to the end, so the box interpolated at any time of the window holds the
/// group: about twice the cost of a static box test, for boxes that follow the motion instead
/// of covering it) in a BVH built for each window on the builder's thread (`_WindowsAhead`), over
/// `window-grid`'s bounds (`WindowBounds`): exact lines where a group's root moves piecewise
/// linearly under no clipping ancestor (particles, wiggles), its window box at both ends
/// elsewhere.
public typealias LinearBoundsBVH = WindowedStrategy<LinearBVHIndex>

/// A binary BVH over linear bounds (median splits on the axis where the boxes' centres at
/// mid-window spread most, leaves of up to 4), each node holding the union of its children's
/// start and end boxes; a query interpolates each node's box at the window fraction. Where the
/// boxes pile up (`_LinearTree._bandEntries`), the top levels split by entry instead, and a
/// query skips the bands below the layer it has found. Boxes are
/// single precision rounded outward (32 bytes a box: about 60 bytes an entry with its nodes);
/// candidates are exact-tested, so the rounding adds candidates, never misses one. No
/// allocation once its buffers have reached the group count.
public struct LinearBVHIndex: MotionIndex {
  public static let name = "linear-bvh"
  public static let summary =
    "time-aware: Embree-style linear bounds (a box at the window start plus its change) in a BVH built for the next window while this one answers"

  let tree = _LinearTree()

  public init() {}

  public var memoryFootprint: Int { tree.memoryFootprint }

  public mutating func reserve(_ entries: Int) { tree.reserve(entries) }

  public mutating func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    tree.rebuild(bounds)
  }

  @_specialize(where Visitor == _HeldCount<_OneWindow>)
  public func visit<Visitor: MotionIndexVisitor>(_ p: Point, at s: Double, _ visitor: inout Visitor) -> Int {
    tree.visit(p, at: s, &visitor)
  }

  public func visit(_ p: Point, at s: Double, search: inout WindowSearch) -> Int { tree.visit(p, at: s, &search) }
}
