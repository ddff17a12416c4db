import LayerModel

/// A layer's identity across frames: its index in the model tree's preorder (sublayers in
/// array order). Stable while the topology is unchanged, whatever the animations do.
public struct LayerID: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var rawValue: Int32

  @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }

  public static func < (a: LayerID, b: LayerID) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "#\(rawValue)" }
}

/// The whole presentation tree at one time, flat: one row per layer in hit-test priority order
/// (preorder with siblings sorted by the semantics' order key, then array index), so a larger row
/// wins. Struct-of-arrays columns behind unsafe buffers that the builder overwrites in place:
/// rebuilding at a new time allocates nothing, and a strategy may keep the frame (one reference)
/// without triggering copy-on-write. About 360 bytes per layer. See docs/architecture.md.
public final class PresentationFrame {
  /// Row flags.
  public struct Flags: OptionSet, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The layer and every ancestor are admitted by the semantics and every map on the path is
    /// invertible: the subtree can be hit at all.
    public static let reachable = Flags(rawValue: 1)
    /// Reachable, and the layer's own bounds are not empty: it can itself be the answer.
    public static let hittable = Flags(rawValue: 2)
    /// The point must be inside this layer's bounds for any descendant to be hit
    /// (`masksToBounds`, or every layer under the UIView semantics).
    public static let clips = Flags(rawValue: 4)
    /// The layer's own map into its parent has a projective part (w is not 1 everywhere).
    public static let projective = Flags(rawValue: 8)
    /// Hidden in the presentation tree.
    public static let hidden = Flags(rawValue: 16)
    /// UIView semantics only: skipped for user interaction or alpha.
    public static let notInteractive = Flags(rawValue: 32)
    /// The layer's own map into its parent is not invertible (singular or not finite).
    public static let singular = Flags(rawValue: 64)
    /// The layer's composite 2D map to the world distorts beyond `GeometryLimits.distortion`:
    /// degenerate like a singular map (not reachable, nor is its subtree; docs/semantics.md).
    public static let degenerate = Flags(rawValue: 128)
  }

  /// The semantics the rows were ordered and flagged for.
  public internal(set) var semantics: HitTestSemantics
  /// The clock time this frame shows.
  public internal(set) var time: Double = 0
  /// Number of rows (layers).
  public internal(set) var count: Int = 0
  /// Bumps whenever the row order or the topology changes, so an index can tell a refit from a
  /// rebuild.
  public internal(set) var orderGeneration: Int = 0
  /// Bumps on every build: a strategy answers only for the build it was updated with
  /// (`FrameBinding`), since a rebuild can change what every row means.
  public internal(set) var generation: UInt64 = 0

  /// The model layer of each row.
  @inlinable public var layer: UnsafeBufferPointer<LayerID> { UnsafeBufferPointer(_layer) }
  /// The parent row, -1 for the root.
  @inlinable public var parent: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(_parent) }
  /// One past the last row of the subtree (rows `r..<subtreeEnd[r]` are the subtree).
  @inlinable public var subtreeEnd: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(_subtreeEnd) }
  /// The nearest strict ancestor that clips or is projective (-1 when none): the chain a
  /// candidate's point must also satisfy.
  @inlinable public var guardRow: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(_guardRow) }
  /// Row flags.
  @inlinable public var flags: UnsafeBufferPointer<Flags> { UnsafeBufferPointer(_flags) }
  /// Local bounds, standardised (min/max in the layer's own space).
  @inlinable public var boundsMinX: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_boundsMinX) }
  @inlinable public var boundsMinY: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_boundsMinY) }
  @inlinable public var boundsMaxX: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_boundsMaxX) }
  @inlinable public var boundsMaxY: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_boundsMaxY) }
  /// Parent space to the layer's space (the inverse of its own level map).
  @inlinable public var fromParent: UnsafeBufferPointer<Homography> { UnsafeBufferPointer(_fromParent) }
  /// The layer's space to the world (the root's superlayer space), and back.
  @inlinable public var toWorld: UnsafeBufferPointer<Homography> { UnsafeBufferPointer(_toWorld) }
  @inlinable public var fromWorld: UnsafeBufferPointer<Homography> { UnsafeBufferPointer(_fromWorld) }
  /// A world-space box holding every point at which the row can be a candidate, already
  /// clipped by its clipping ancestors; empty (min > max) when the row cannot be hit.
  @inlinable public var worldMinX: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_worldMinX) }
  @inlinable public var worldMinY: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_worldMinY) }
  @inlinable public var worldMaxX: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_worldMaxX) }
  @inlinable public var worldMaxY: UnsafeBufferPointer<Double> { UnsafeBufferPointer(_worldMaxY) }

  // The columns' storage: written by the builder, in this module only.
  @usableFromInline var _layer: UnsafeMutableBufferPointer<LayerID>
  @usableFromInline var _parent: UnsafeMutableBufferPointer<Int32>
  @usableFromInline var _subtreeEnd: UnsafeMutableBufferPointer<Int32>
  @usableFromInline var _guardRow: UnsafeMutableBufferPointer<Int32>
  @usableFromInline var _flags: UnsafeMutableBufferPointer<Flags>
  @usableFromInline var _boundsMinX: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _boundsMinY: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _boundsMaxX: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _boundsMaxY: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _fromParent: UnsafeMutableBufferPointer<Homography>
  @usableFromInline var _toWorld: UnsafeMutableBufferPointer<Homography>
  @usableFromInline var _fromWorld: UnsafeMutableBufferPointer<Homography>
  @usableFromInline var _worldMinX: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _worldMinY: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _worldMaxX: UnsafeMutableBufferPointer<Double>
  @usableFromInline var _worldMaxY: UnsafeMutableBufferPointer<Double>

  private(set) var capacity: Int = 0

  /// An empty frame (no rows); builders fill their own.
  public init(semantics: HitTestSemantics) {
    self.semantics = semantics
    _layer = .init(start: nil, count: 0)
    _parent = .init(start: nil, count: 0)
    _subtreeEnd = .init(start: nil, count: 0)
    _guardRow = .init(start: nil, count: 0)
    _flags = .init(start: nil, count: 0)
    _boundsMinX = .init(start: nil, count: 0)
    _boundsMinY = .init(start: nil, count: 0)
    _boundsMaxX = .init(start: nil, count: 0)
    _boundsMaxY = .init(start: nil, count: 0)
    _fromParent = .init(start: nil, count: 0)
    _toWorld = .init(start: nil, count: 0)
    _fromWorld = .init(start: nil, count: 0)
    _worldMinX = .init(start: nil, count: 0)
    _worldMinY = .init(start: nil, count: 0)
    _worldMaxX = .init(start: nil, count: 0)
    _worldMaxY = .init(start: nil, count: 0)
  }

  /// Makes room for `n` rows, reallocating only when the capacity is too small.
  func _reserve(_ n: Int) {
    count = n
    guard n > capacity else { return }
    _deallocate()
    capacity = n
    func make<T>(_ v: T) -> UnsafeMutableBufferPointer<T> {
      let b = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
      b.initialize(repeating: v)
      return b
    }
    _layer = make(LayerID(0))
    _parent = make(-1)
    _subtreeEnd = make(0)
    _guardRow = make(-1)
    _flags = make([])
    _boundsMinX = make(0)
    _boundsMinY = make(0)
    _boundsMaxX = make(0)
    _boundsMaxY = make(0)
    _fromParent = make(.identity)
    _toWorld = make(.identity)
    _fromWorld = make(.identity)
    _worldMinX = make(0)
    _worldMinY = make(0)
    _worldMaxX = make(0)
    _worldMaxY = make(0)
  }

  private func _deallocate() {
    _layer.deallocate()
    _parent.deallocate()
    _subtreeEnd.deallocate()
    _guardRow.deallocate()
    _flags.deallocate()
    _boundsMinX.deallocate()
    _boundsMinY.deallocate()
    _boundsMaxX.deallocate()
    _boundsMaxY.deallocate()
    _fromParent.deallocate()
    _toWorld.deallocate()
    _fromWorld.deallocate()
    _worldMinX.deallocate()
    _worldMinY.deallocate()
    _worldMaxX.deallocate()
    _worldMaxY.deallocate()
  }

  deinit { _deallocate() }

  /// Bytes held by the columns.
  public var memoryFootprint: Int {
    capacity
      * (MemoryLayout<LayerID>.stride + 3 * 4 + 1 + 8 * 8 + 3 * MemoryLayout<Homography>.stride)
  }

  /// The row of a layer: O(1) when rows are in model order (no zPosition reordering), else a
  /// linear search (tools and floors only, never a timed path).
  public func row(ofFast id: LayerID) -> Int32? {
    let i = Int(id.rawValue)
    if i < count && layer[i] == id { return Int32(i) }
    return row(of: id).map { Int32($0) }
  }

  /// The row of a layer, by linear search (tests and tools only).
  public func row(of id: LayerID) -> Int? {
    (0..<count).first { layer[$0] == id }
  }
}

extension PresentationFrame {
  /// Whether `p` (world space) is inside row `r`'s own bounds, the point mapping to the layer
  /// with w > 0.
  @inlinable @inline(__always)
  public func _insideOwnBounds(_ r: Int, _ p: Point) -> Bool {
    guard let q = fromWorld[r].apply(p) else { return false }
    return q.x >= boundsMinX[r] && q.x < boundsMaxX[r] && q.y >= boundsMinY[r] && q.y < boundsMaxY[r]
  }

  /// The flat form's exact test (docs/semantics.md, "The flat form"): row `r` is a candidate
  /// for world point `p` when it is hittable, its bounds contain p, and every guard ancestor
  /// (clipping or projective) maps p in front of the viewer and, if it clips, inside its bounds.
  /// O(guard chain length).
  @inlinable
  public func isCandidate(_ r: Int, _ p: Point) -> Bool {
    guard flags[r].contains(.hittable), _insideOwnBounds(r, p) else { return false }
    return _guardsAdmit(r, p)
  }

  /// The guard-chain half of `isCandidate`, for callers that already tested the row's own bounds.
  @inlinable
  public func _guardsAdmit(_ r: Int, _ p: Point) -> Bool {
    var g = Int(guardRow[r])
    while g >= 0 {
      if flags[g].contains(.clips) {
        if !_insideOwnBounds(g, p) { return false }
      } else if fromWorld[g].apply(p) == nil {
        return false
      }
      g = Int(guardRow[g])
    }
    return true
  }

  /// Fault injection for testing verifiers: shrinks every row's hit region by `d` on each side
  /// (its bounds inset, world boxes unchanged), so a strategy answering on this frame is wrong
  /// within `d` of every edge. Bumps the generation, like a rebuild.
  @_spi(FaultInjection)
  public func _shrinkHitRegions(by d: Double) {
    guard d > 0 else { return }
    for r in 0..<count {
      _boundsMinX[r] += d
      _boundsMinY[r] += d
      _boundsMaxX[r] -= d
      _boundsMaxY[r] -= d
    }
    generation &+= 1
  }

  /// The answer by definition: the candidate with the largest row, by scanning every row.
  /// O(rows); the slow oracle the tests compare against.
  public func topCandidateByScan(_ p: Point) -> LayerID? {
    var r = count - 1
    while r >= 0 {
      if isCandidate(r, p) { return layer[r] }
      r -= 1
    }
    return nil
  }
}
