import Columns
import LayerModel

/// A layer's identity across frames: its index in the model tree's preorder (sublayers in
/// array order). Stable while the topology is unchanged, whatever the animations do.
public struct LayerID: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var rawValue: Int32

  @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }

  public static func < (a: LayerID, b: LayerID) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "#\(rawValue)" }
}

/// An axis-aligned box by its extremes (empty when min > max). 32 bytes.
public struct Box: Sendable, Hashable {
  public var minX: Double, minY: Double, maxX: Double, maxY: Double

  @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  @inlinable public static var everything: Box {
    Box(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
  }
  @inlinable public static var nothing: Box {
    Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
  }

  @inlinable public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }

  /// Whether `p` lies inside, edges included (for world boxes, which are conservative).
  @inlinable public func holds(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

  /// The smallest box holding both (an empty box adds nothing).
  @inlinable public func union(_ o: Box) -> Box {
    if isEmpty { return o }
    if o.isEmpty { return self }
    return Box(
      minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY), maxX: Swift.max(maxX, o.maxX),
      maxY: Swift.max(maxY, o.maxY))
  }

  /// Whether every edge is a finite number and the box is not empty.
  @inlinable public var isFiniteAndNonEmpty: Bool {
    !isEmpty && minX.isFinite && minY.isFinite && maxX.isFinite && maxY.isFinite
  }

  @inlinable public func intersection(_ o: Box) -> Box {
    Box(
      minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY), maxX: Swift.min(maxX, o.maxX),
      maxY: Swift.min(maxY, o.maxY))
  }
}

/// The whole presentation tree at one time, flat: one row per layer in hit-test priority order
/// (preorder with siblings sorted by the semantics' order key, then array index), so a larger row
/// wins. Struct-of-arrays columns behind buffers that the builder overwrites in place: rebuilding
/// at a new time allocates nothing, and a strategy may keep the frame (one reference) without
/// triggering copy-on-write. The columns are read-only outside this module.
///
/// Maps: a row whose map is 2D affine (almost all) keeps it as an `AffineMap` (48 bytes, no
/// divide to apply); a projective row (a perspective or 3D transform on the path) keeps 3x3
/// homographies in side tables, valid only for such rows. About 260 bytes per row.
/// See docs/architecture.md.
public final class PresentationFrame {
  /// Row flags.
  public struct Flags: OptionSet, Sendable {
    public let rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The layer and every ancestor are admitted by the semantics and every map on the path is
    /// invertible: the subtree can be hit at all.
    @inlinable public static var reachable: Flags { Flags(rawValue: 1) }
    /// Reachable, and the layer's own bounds are not empty: it can itself be the answer.
    @inlinable public static var hittable: Flags { Flags(rawValue: 2) }
    /// The point must be inside this layer's bounds for any descendant to be hit
    /// (`masksToBounds`, or every layer under the UIView semantics).
    @inlinable public static var clips: Flags { Flags(rawValue: 4) }
    /// The layer's own map into its parent has a projective part (w is not 1 everywhere).
    @inlinable public static var projective: Flags { Flags(rawValue: 8) }
    /// Hidden in the presentation tree.
    @inlinable public static var hidden: Flags { Flags(rawValue: 16) }
    /// UIView semantics only: skipped for user interaction or alpha.
    @inlinable public static var notInteractive: Flags { Flags(rawValue: 32) }
    /// The layer's own map into its parent is not invertible (singular or not finite).
    @inlinable public static var singular: Flags { Flags(rawValue: 64) }
    /// The layer's composite 2D map to the world distorts beyond `GeometryLimits.distortion`:
    /// degenerate like a singular map (not reachable, nor is its subtree; docs/semantics.md).
    @inlinable public static var degenerate: Flags { Flags(rawValue: 128) }
    /// The map between the layer and the world is projective: it lives in the side tables.
    @inlinable public static var worldProjective: Flags { Flags(rawValue: 256) }
    /// What stops a walk from entering a layer (its subtree is skipped): hidden, not
    /// interactive, a singular or degenerate map.
    @inlinable public static var closesSubtree: Flags {
      Flags(rawValue: hidden.rawValue | notInteractive.rawValue | singular.rawValue | degenerate.rawValue)
    }
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
  /// Which columns the last build filled.
  public internal(set) var columns: FrameColumns = .all
  /// Whether the last build recomputed every row; when not, `changedRuns()` lists those it did.
  public internal(set) var recomputedEveryRow = true
  /// The runs the last build recomputed (`changedRuns()`), `_changedRunCount` of them in use.
  var _changedRuns = ColumnBuffer<RowRun>()
  var _changedRunCount = 0

  /// The model layer of each row.
  @inlinable public var layer: Span<LayerID> {
    @_lifetime(borrow self) get { _span(_layer) }
  }
  /// The parent row, -1 for the root.
  @inlinable public var parent: Span<Int32> {
    @_lifetime(borrow self) get { _span(_parent) }
  }
  /// One past the last row of the subtree (rows `r..<subtreeEnd[r]` are the subtree).
  @inlinable public var subtreeEnd: Span<Int32> {
    @_lifetime(borrow self) get { _span(_subtreeEnd) }
  }
  /// The nearest strict ancestor that clips or is projective (-1 when none): the chain a
  /// candidate's point must also satisfy. (`FrameColumns.world`)
  @inlinable public var guardRow: Span<Int32> {
    @_lifetime(borrow self) get { _span(_guardRow) }
  }
  @inlinable public var flags: Span<Flags> {
    @_lifetime(borrow self) get { _span(_flags) }
  }
  /// Local bounds, standardised (min/max in the layer's own space; a null rect is empty).
  @inlinable public var bounds: Span<Box> {
    @_lifetime(borrow self) get { _span(_bounds) }
  }
  /// Parent space to the layer's space (the inverse of its own level map), for affine levels.
  @inlinable public var fromParent: Span<AffineMap> {
    @_lifetime(borrow self) get { _span(_fromParent) }
  }
  /// The layer's space to the world (the root's superlayer space), and back, for rows whose
  /// map to the world is affine. (`fromWorld`: `FrameColumns.world`)
  @inlinable public var toWorld: Span<AffineMap> {
    @_lifetime(borrow self) get { _span(_toWorld) }
  }
  @inlinable public var fromWorld: Span<AffineMap> {
    @_lifetime(borrow self) get { _span(_fromWorld) }
  }
  /// A world-space box holding every point at which the row can be a candidate, already
  /// clipped by its clipping ancestors; empty when the row cannot be hit. (`FrameColumns.world`)
  @inlinable public var worldBox: Span<Box> {
    @_lifetime(borrow self) get { _span(_worldBox) }
  }

  /// A column as a span that cannot outlive this frame's borrow: a strategy reads it inside a
  /// query and cannot keep it past the call (the builder reuses the storage in place).
  @inlinable @_lifetime(borrow self)
  func _span<T>(_ column: UnsafeMutableBufferPointer<T>) -> Span<T> {
    _overrideLifetime(Span(_unsafeElements: UnsafeBufferPointer(column)), borrowing: self)
  }

  // The columns' storage, written by the builder (in this module only). The side tables hold
  // the homographies of projective levels (`projectiveFromParent`) and of rows whose world map
  // is projective (`projectiveToWorld`, `projectiveFromWorld`); other rows' entries are not
  // initialised.
  @usableFromInline var _layer: UnsafeMutableBufferPointer<LayerID> = .init(start: nil, count: 0)
  @usableFromInline var _parent: UnsafeMutableBufferPointer<Int32> = .init(start: nil, count: 0)
  @usableFromInline var _subtreeEnd: UnsafeMutableBufferPointer<Int32> = .init(start: nil, count: 0)
  @usableFromInline var _guardRow: UnsafeMutableBufferPointer<Int32> = .init(start: nil, count: 0)
  @usableFromInline var _flags: UnsafeMutableBufferPointer<Flags> = .init(start: nil, count: 0)
  @usableFromInline var _bounds: UnsafeMutableBufferPointer<Box> = .init(start: nil, count: 0)
  @usableFromInline var _fromParent: UnsafeMutableBufferPointer<AffineMap> = .init(start: nil, count: 0)
  @usableFromInline var _toWorld: UnsafeMutableBufferPointer<AffineMap> = .init(start: nil, count: 0)
  @usableFromInline var _fromWorld: UnsafeMutableBufferPointer<AffineMap> = .init(start: nil, count: 0)
  @usableFromInline var _worldBox: UnsafeMutableBufferPointer<Box> = .init(start: nil, count: 0)
  @usableFromInline var _projectiveFromParent: UnsafeMutableBufferPointer<Homography> = .init(start: nil, count: 0)
  @usableFromInline var _projectiveToWorld: UnsafeMutableBufferPointer<Homography> = .init(start: nil, count: 0)
  @usableFromInline var _projectiveFromWorld: UnsafeMutableBufferPointer<Homography> = .init(start: nil, count: 0)

  private(set) var capacity: Int = 0

  /// An empty frame (no rows); builders fill their own.
  public init(semantics: HitTestSemantics) {
    self.semantics = semantics
  }

  /// Makes room for `n` rows, reallocating only when the capacity is too small. Without
  /// `initializingGeometry` the columns a row's composition writes (bounds, every map, guard
  /// rows, world boxes) are left uninitialised, their pages untouched until written: for a
  /// frame that composes a row before reading it (a lazy presentation's, whose lean candidates
  /// keep theirs in `LeanRow`, so on a field of particles most rows are never written, and
  /// whose `.structure` form never writes the world columns at all). With
  /// `HITBENCH_INTERNAL_CHECKS` they are filled with NaN (guard rows with an impossible row)
  /// instead, so that a read before a write shows.
  func _reserve(_ n: Int, initializingGeometry: Bool = true) {
    count = n
    guard n > capacity else { return }
    _deallocate()
    capacity = n
    func make<T>(_ v: T, orPoison poison: T? = nil) -> UnsafeMutableBufferPointer<T> {
      let b = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
      if let poison {
        #if HITBENCH_INTERNAL_CHECKS
          b.initialize(repeating: poison)
        #endif
      } else {
        b.initialize(repeating: v)
      }
      return b
    }
    let nanMap = AffineMap(a: .nan, b: .nan, c: .nan, d: .nan, tx: .nan, ty: .nan)
    let nanBox = Box(minX: .nan, minY: .nan, maxX: .nan, maxY: .nan)
    _layer = make(LayerID(0))
    _parent = make(-1)
    _subtreeEnd = make(0)
    _guardRow = make(-1, orPoison: initializingGeometry ? nil : Int32.min)
    _flags = make([])
    _bounds = make(.nothing, orPoison: initializingGeometry ? nil : nanBox)
    _fromParent = make(.identity, orPoison: initializingGeometry ? nil : nanMap)
    _toWorld = make(.identity, orPoison: initializingGeometry ? nil : nanMap)
    _fromWorld = make(.identity, orPoison: initializingGeometry ? nil : nanMap)
    _worldBox = make(.nothing, orPoison: initializingGeometry ? nil : nanBox)
    // Written only for projective rows; never read for others (trivial type, left uninitialised
    // so the pages of a scene without perspective are never touched).
    _projectiveFromParent = .allocate(capacity: n)
    _projectiveToWorld = .allocate(capacity: n)
    _projectiveFromWorld = .allocate(capacity: n)
  }

  private func _deallocate() {
    _layer.deallocate()
    _parent.deallocate()
    _subtreeEnd.deallocate()
    _guardRow.deallocate()
    _flags.deallocate()
    _bounds.deallocate()
    _fromParent.deallocate()
    _toWorld.deallocate()
    _fromWorld.deallocate()
    _worldBox.deallocate()
    _projectiveFromParent.deallocate()
    _projectiveToWorld.deallocate()
    _projectiveFromWorld.deallocate()
  }

  /// Frees the rows (the builder's `releaseColumns()`): no rows until the next build.
  func _release() {
    _deallocate()
    _layer = .init(start: nil, count: 0)
    _parent = .init(start: nil, count: 0)
    _subtreeEnd = .init(start: nil, count: 0)
    _guardRow = .init(start: nil, count: 0)
    _flags = .init(start: nil, count: 0)
    _bounds = .init(start: nil, count: 0)
    _fromParent = .init(start: nil, count: 0)
    _toWorld = .init(start: nil, count: 0)
    _fromWorld = .init(start: nil, count: 0)
    _worldBox = .init(start: nil, count: 0)
    _projectiveFromParent = .init(start: nil, count: 0)
    _projectiveToWorld = .init(start: nil, count: 0)
    _projectiveFromWorld = .init(start: nil, count: 0)
    capacity = 0
    count = 0
    _changedRuns.release()
    _changedRunCount = 0
  }

  deinit { _deallocate() }

  /// Bytes held by the columns (side tables included).
  public var memoryFootprint: Int {
    capacity * (4 * 4 + 2 + 2 * 32 + 3 * 48 + 3 * 72)
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

  /// Row r's world box when the row can be a candidate at all (hittable, box not empty), else
  /// nil: what a spatial index files the row under.
  @inlinable public func candidateBox(_ r: Int) -> Box? {
    guard flags[r].contains(.hittable) else { return nil }
    let b = worldBox[r]
    return b.isEmpty ? nil : b
  }

  // MARK: Maps as homographies (tools, tests and the verifier; not for hot paths)

  /// Row r's level map inverse (parent space to the layer), whatever its kind.
  public func fromParentMap(_ r: Int) -> Homography {
    flags[r].contains(.projective) ? _projectiveFromParent[r] : fromParent[r].homography
  }

  /// Row r's map to the world, whatever its kind.
  public func toWorldMap(_ r: Int) -> Homography {
    flags[r].contains(.worldProjective) ? _projectiveToWorld[r] : toWorld[r].homography
  }

  /// Row r's map from the world (needs `FrameColumns.world`), whatever its kind.
  public func fromWorldMap(_ r: Int) -> Homography {
    flags[r].contains(.worldProjective) ? _projectiveFromWorld[r] : fromWorld[r].homography
  }
}

/// Which columns a build fills: every strategy needs the structure (rows, flags, local bounds,
/// level and world maps for the degenerate check); the index strategies also need the maps
/// from the world, world boxes and guard rows. Tree-walk needs only the structure.
public struct FrameColumns: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
  @inlinable public static var structure: FrameColumns { FrameColumns(rawValue: 1) }
  @inlinable public static var world: FrameColumns { FrameColumns(rawValue: 2) }
  @inlinable public static var all: FrameColumns { FrameColumns(rawValue: structure.rawValue | world.rawValue) }
}

extension PresentationFrame {
  /// World point p in row r's space, or nil behind the viewer (needs `FrameColumns.world`).
  @inlinable @inline(__always)
  public func _fromWorld(_ r: Int, _ p: Point) -> Point? {
    if _flags[r].contains(.worldProjective) { return _projectiveFromWorld[r].apply(p) }
    return _fromWorld[r].apply(p)
  }

  /// World point p in row r's space, or nil behind the viewer, with the most the conversion's
  /// rounding can have moved it along each axis (`ConservativeBox.conversionError`).
  @inlinable @inline(__always)
  public func _fromWorldWithError(_ r: Int, _ p: Point) -> (point: Point, error: (x: Double, y: Double))? {
    if _flags[r].contains(.worldProjective) {
      let m = _projectiveFromWorld[r]
      guard let q = m.apply(p) else { return nil }
      return (q, ConservativeBox.conversionError(m, p, q))
    }
    let m = _fromWorld[r]
    return (m.apply(p), ConservativeBox.conversionError(m, p))
  }

  /// A point in row r's parent space converted into row r's space (tree-walk's step).
  @inlinable @inline(__always)
  public func _fromParent(_ r: Int, _ q: Point) -> Point? {
    if _flags[r].contains(.projective) { return _projectiveFromParent[r].apply(q) }
    return _fromParent[r].apply(q)
  }

  /// Whether local point q is inside row r's bounds (CGRect: min inclusive, max exclusive).
  @inlinable @inline(__always)
  public func _contains(_ r: Int, _ q: Point) -> Bool {
    let b = _bounds[r]
    return q.x >= b.minX && q.x < b.maxX && q.y >= b.minY && q.y < b.maxY
  }

  /// Whether `p` (world space) is inside row `r`'s own bounds, the point mapping to the layer
  /// in front of the viewer.
  @inlinable @inline(__always)
  public func _insideOwnBounds(_ r: Int, _ p: Point) -> Bool {
    guard let q = _fromWorld(r, p) else { return false }
    return _contains(r, q)
  }

  /// The flat form's exact test (docs/semantics.md, "The flat form"): row `r` is a candidate
  /// for world point `p` when it is hittable, its bounds contain p, and every guard ancestor
  /// (clipping or projective) maps p in front of the viewer and, if it clips, inside its bounds.
  /// O(guard chain length). Needs `FrameColumns.world`.
  @inlinable
  public func isCandidate(_ r: Int, _ p: Point) -> Bool {
    guard _flags[r].contains(.hittable), _insideOwnBounds(r, p) else { return false }
    return _guardsAdmit(r, p)
  }

  /// The guard-chain half of `isCandidate`, for callers that already tested the row's own bounds.
  @inlinable
  public func _guardsAdmit(_ r: Int, _ p: Point) -> Bool { _guardChainAdmits(Int(_guardRow[r]), p) }

  /// Whether the guard chain starting at row `first` (-1: none) admits world point p.
  @inlinable
  public func _guardChainAdmits(_ first: Int, _ p: Point) -> Bool {
    var g = first
    while g >= 0 {
      if _flags[g].contains(.clips) {
        if !_insideOwnBounds(g, p) { return false }
      } else if _fromWorld(g, p) == nil {
        return false
      }
      g = Int(_guardRow[g])
    }
    return true
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
