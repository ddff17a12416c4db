import LayerModel
import Presentation

/// An index over the moving groups' bounds for one time window, the part in which the windowed
/// strategies differ: a grid (`window-grid`), a BVH (`linear-bvh`), or another library's (the
/// peers' Embree motion-blur BVH), each over the same linear bounds (`WindowBounds`: a box at
/// the window's start and one at its end, interpolated at the fraction of the window). Built
/// for each window off the thread that answers (`_WindowsAhead`), then only read.
public protocol MotionIndex {
  static var name: String { get }
  static var summary: String { get }
  static var family: StrategyFamily { get }
  /// Whether `visit` offers entries in descending order (then a query can stop early).
  static var isOrdered: Bool { get }
  /// Box edges beyond this magnitude stay outside the index, tested on every query instead
  /// (a single-precision library squares coordinates: 1e15 keeps them finite). 1e30 by default.
  static var magnitudeLimit: Double { get }

  init()
  /// Makes room for up to `entries` entries (called before each rebuild with the group count,
  /// which does not change between windows: an index sized by it allocates nothing after the
  /// first). Nothing by default.
  mutating func reserve(_ entries: Int)
  /// Indexes entries 0 ..< bounds.count: entry i's box is `bounds[i].start` at the window's
  /// start and `bounds[i].end` at its end (equal for window boxes), all edges finite. The
  /// buffer is the window's own (borrowed for the call): the index keeps what it needs of it.
  mutating func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>)
  /// The one query: offers `visitor` the entries whose box at fraction `s` of the window may
  /// hold `p` (a superset; in descending order where `isOrdered`), until it answers false.
  /// Answers how many entries the index looked at (its work, for the window length's cost
  /// model). A query, a counted query and the cost model's share of the index are visitors.
  func visit<Visitor: MotionIndexVisitor>(_ p: Point, at s: Double, _ visitor: inout Visitor) -> Int
  /// `visit` with a batch's own search, as every strategy's batch loop queries: implemented
  /// as that call, where `visit` specialises for `WindowSearch` (the index's module). The loop
  /// is compiled where the index is concrete, often another module, and from there a call to
  /// the generic `visit` reaches its unspecialised body (a witness call for every entry
  /// offered, type metadata looked up every query: docs/optimisation-log.md entry 95); an
  /// exported specialisation is not what such a caller links to.
  func visit(_ p: Point, at s: Double, search: inout WindowSearch) -> Int
  var memoryFootprint: Int { get }
}

/// What a motion index offers its entries to, one by one (`MotionIndex.visit`).
public protocol MotionIndexVisitor {
  /// Takes entry e: whether the visit goes on.
  mutating func offer(_ e: Int32) -> Bool
  /// Whether no entry up to e can change the answer found so far: an index that does not offer
  /// in order can skip a part whose entries are all at most e (entries are in ascending group
  /// order, and with a static order the highest rank of the groups up to one only grows with
  /// it). False by default.
  func skips(upTo e: Int32) -> Bool
}

extension MotionIndexVisitor {
  @inline(__always) public func skips(upTo e: Int32) -> Bool { false }
}

extension MotionIndex {
  public mutating func reserve(_ entries: Int) {}
  public static var magnitudeLimit: Double { 1e30 }
  public static var isOrdered: Bool { false }
  public static var family: StrategyFamily { .timeAware }
}

/// A box at the window's start and at its end; at fraction s of the window, the box between.
public struct LinearBox: Sendable, Equatable, BitwiseCopyable {
  public var start: Box
  public var end: Box

  @inlinable public init(start: Box, end: Box) {
    (self.start, self.end) = (start, end)
  }

  public static let nothing = LinearBox(start: .nothing, end: .nothing)

  /// The box at fraction s. Infinite edges (unbounded groups) stay where they are (an infinite
  /// start and end would interpolate to NaN).
  @inlinable @inline(__always) public func at(_ s: Double) -> Box {
    @inline(__always) func lerp(_ a: Double, _ b: Double) -> Double { a == b ? a : a + (b - a) * s }
    return Box(
      minX: lerp(start.minX, end.minX), minY: lerp(start.minY, end.minY), maxX: lerp(start.maxX, end.maxX),
      maxY: lerp(start.maxY, end.maxY))
  }

  /// Where clock time t falls in the window [start, end] the bounds span, clamped into 0...1
  /// (0 for an empty or endless window): every time-aware strategy interpolates by this one
  /// rounding, which the lines' padding covers.
  @inline(__always) static func fraction(_ t: Double, from start: Double, to end: Double) -> Double {
    guard end > start, end.isFinite else { return 0 }
    return Swift.min(Swift.max((t - start) / (end - start), 0), 1)
  }

  /// Whether the box at fraction s holds p (edges included). Infinite edges (unbounded groups)
  /// hold everything on their side.
  @inlinable @inline(__always) public func holds(_ p: Point, at s: Double) -> Bool { Self.holds(at(s), p) }

  @inlinable @inline(__always) static func holds(_ b: Box, _ p: Point) -> Bool {
    p.x >= b.minX && p.x <= b.maxX && p.y >= b.minY && p.y <= b.maxY
  }

  /// Whether box b (lines at some fraction that follow a layer's box within `margin`:
  /// `WindowEntry.exactWithin`) holds p by more than twice `margin` on every side: then the
  /// layer's box holds p by more than the lines' rounding pads, each of which covers the exact
  /// test's rounding. (Once `margin` alone was not enough: a point on a flipped layer's excluded
  /// edge passed, `ExactLinesTests`.) An infinite margin: never.
  @inline(__always) static func surely(_ b: Box, holds p: Point, by margin: Float) -> Bool {
    let m = 2 * Double(margin)
    return p.x > b.minX + m && p.x < b.maxX - m && p.y > b.minY + m && p.y < b.maxY - m
  }

  /// Both boxes' union with another's (interpolation is monotone in each end, so the union of
  /// the ends bounds both at every s).
  @inlinable public func union(_ o: LinearBox) -> LinearBox {
    LinearBox(start: start.union(o.start), end: end.union(o.end))
  }
}
