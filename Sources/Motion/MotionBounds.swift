import Columns
import LayerModel
@_spi(FaultInjection) import Presentation

/// Conservative world boxes over a time window: for each layer and window [t0, t1], a box
/// holding every point where the layer can be a candidate at any time in the window. Derived
/// from the animations' structure, never by sampling (docs/time-aware.md):
/// - local time intervals through the layer timings;
/// - each animation's reachable values for those times (`FrozenAnimationProgram.widen`: the
///   progress sub-interval when the window stays inside one iteration, and outside the active
///   period the one progress a fill holds there; key hulls of the
///   segments reached, whatever the timing function; control hulls of cubic and path
///   segments; a spring's envelope; any angle for a path's rotationMode; cycles for cumulative
///   animations);
/// - the level map in interval arithmetic, composed through the ancestors' interval maps; a
///   layer whose ancestors and itself never move keeps its exact box (computed once); a moving
///   layer under a fixed projective parent maps its parent-space box through the exact
///   homography;
/// - clipped by the clipping ancestors' boxes.
/// A layer whose motion cannot be bounded this way (an animated transform that is not 2D, a
/// moving sublayerTransform above it, a moving layer under a projective one) gets the whole
/// plane, clipped by its clipping ancestors: never wrong, only slower. `unbounded` counts them.
///
/// Cost: O(layers + animations) per window for `compute`, O(depth + the layer's animations)
/// for one layer's box (`box(of:from:to:)`); no allocation after the first window.
public final class MotionBounds {
  public let scene: CompiledScene
  public let semantics: HitTestSemantics
  let lazy: LazyPresentation

  /// Per layer: the layer or an ancestor has animations that can change an answer
  /// (`CompiledScene.animatesHitTesting`: not a fade under `calayer`), so its box can change.
  var moves = ColumnBuffer<Bool>()
  /// Boxes of the layers that never move (computed once per scene change).
  var fixedBox = ColumnBuffer<Box>()
  /// Per layer, for the last window computed: local times, world map (interval entries) and
  /// its kind, box (a group root's may be its region's, which holds it: `box(of:region:from:to:)`).
  var localTimes = ColumnBuffer<Interval>()
  var map = ColumnBuffer<IntervalAffine>()
  /// A `.translated` layer's world translation over the window (its map the identity moved by
  /// it; `map` is not written): a row, a section, a scroll view's content under its moving
  /// bounds, the maps of an interface, placed by two interval sums rather than a 96-byte map's
  /// products and copies.
  var shift = ColumnBuffer<_Shift>()
  /// Whether maps that only translate are kept as `shift` (off: every interval map through
  /// `map` and its products, for the test that holds the two ways equal).
  var _shifts = true {
    didSet { if _shifts != oldValue { _lastWindow = Interval(.nan) } }
  }
  var kind = ColumnBuffer<MapKind>()
  var clipBox = ColumnBuffer<Box>()
  package private(set) var boxes = ColumnBuffer<Box>()
  var chain = ColumnBuffer<Int32>()
  /// Per layer: its own motion is piecewise linear in clock time, under a fixed parent with an
  /// affine world map (`linearBounds`).
  var piecewiseLinear = ColumnBuffer<Bool>()
  /// Per layer: it moves, its model transform is 2D affine and its animations change only its
  /// lean numbers (`FrozenAnimationProgram.changesLeanOnly`): its window is bounded through a
  /// `LeanIntervalState` and the model transform's entries, not a whole `IntervalState` (the
  /// same intervals, at a fraction of the copies).
  var leanOnly = ColumnBuffer<Bool>()
  /// Whether `leanOnly` layers take the lean state (off: every moving layer through the whole
  /// `IntervalState`, for the test that holds the two ways equal).
  var _leanStates = true {
    didSet { if _leanStates != oldValue { _attach() } }
  }
  /// Per lean-only layer on the lean lane whose records all end (a row sliding in, a fade):
  /// its slot in `held`, else -1.
  var heldSlot = ColumnBuffer<Int32>()
  /// Per slot: the placement (level map and local box) of the state its layer held over the
  /// last window in which its records held one (`FrozenAnimationProgram.heldSides`), and on
  /// which sides of their active periods they were. A later window with the same sides reads
  /// it: its records are not analysed again (docs/optimisation-log.md entry 79).
  var held = ColumnBuffer<_HeldPlacement>()
  /// Whether held states are placed from their evaluation and kept (off: every moving layer's
  /// records through the interval analysis, for the tests that hold two ways equal).
  var _holdsStates = true {
    didSet { if _holdsStates != oldValue { _attach() } }
  }
  #if HITBENCH_INTERNAL_CHECKS
    /// Placements read from `held` as kept from an earlier window (tests show they ran).
    var _heldReads = 0
  #endif
  /// Per layer: piecewise linear, its animation moving only its position (`_translatedLines`).
  var translates = ColumnBuffer<Bool>()
  var breakTimes = ColumnBuffer<Double>()
  var breakProgress = ColumnBuffer<Double>()
  /// Positions at the knots of `_translatedLines` (their times in `breakTimes`).
  var knots = ColumnBuffer<SIMD2<Double>>()
  static let maximumBreakpoints = 64
  /// Per layer, with `reusesPieces`: the stretch of a translated layer's motion a window began
  /// (`_TranslatedPiece`), which answers the windows after it up to its last knot; its knots
  /// in `pieceKnots`, `knotsPerPiece` slots a layer.
  var pieces = ColumnBuffer<_TranslatedPiece>()
  var pieceKnots = ColumnBuffer<_PieceKnot>()
  #if HITBENCH_INTERNAL_CHECKS
    /// Per layer: the region its piece was made with (`_checkPieceRegion`).
    var _pieceRegions = ColumnBuffer<Box>()
  #endif
  /// Whether a translated layer's closed form is kept between windows as a piece
  /// (`_TranslatedPiece`: its knots over the next few breakpoints), so that a window inside a
  /// piece an earlier one began reads it instead of walking the motion again: about 8x fewer
  /// instructions for those windows, 208 bytes a layer. The caller passes each layer the same `region` in every `linearBounds`
  /// until the scene changes (a window's builder does: its groups' hulls), and which is
  /// checked with `HITBENCH_INTERNAL_CHECKS`. Off by default.
  public var reusesPieces = false {
    didSet { if reusesPieces != oldValue { _resetPieces() } }
  }
  /// Per layer: the window (stamp) its results are for, in `box(of:from:to:)`.
  var computed = ColumnBuffer<UInt32>()
  var _windowStamp: UInt32 = 0
  var _lastWindow = Interval(.nan)
  /// Layers whose box in the last `compute` was the whole plane (before clipping).
  public private(set) var unbounded = 0
  /// Whether boxes follow the animations (the presentation tree) or the model values alone
  /// (the model tree, which does not move: every window's box is the model box).
  public var animated = true {
    didSet { if animated != oldValue { _lastWindow = Interval(.nan) } }
  }
  var _version = -1

  enum MapKind: UInt8 {
    /// The world map is exactly the lazy frame's (the layer and its ancestors never move).
    case exact
    /// Interval entries of a 2D affine map.
    case interval
    /// An interval map that only translates (its linear part exactly the identity, its
    /// translation bounded), in `shift`: the layer and every ancestor only move.
    case translated
    /// A moving layer under a fixed projective parent: `map` holds its level (interval
    /// entries), the parent's exact homography maps that to the world.
    case projected
    /// Never a candidate (under a fixed layer that cannot be hit into), nor its sublayers.
    case never
    /// Not bounded: the layer (and so its sublayers) can be anywhere.
    case unbounded
  }

  public init(scene: CompiledScene, semantics: HitTestSemantics = .calayer) {
    self.scene = scene
    self.semantics = semantics
    clipsEveryLayer = semantics.requiresPointInsideBeforeDescending
    lazy = LazyPresentation(scene: scene, semantics: semantics, columns: .all)
    sharesLazy = false
    _attach()
  }

  /// Bounds that read the fixed layers (no animated ancestor-or-self) from `lazy`, which must
  /// hold them pinned (`LazyPresentation.pin`, as a time-aware strategy's motion groups do): the
  /// strategy then keeps one lazy presentation, not two (about 1.2 KB a layer). This instance
  /// never prepares or evaluates `lazy`, only reads pinned rows, which nothing rewrites until the
  /// scene changes: another thread may query with `lazy` while this one computes. After a scene
  /// change, re-pin before `resynchronize()`.
  public init(sharing lazy: LazyPresentation) {
    scene = lazy.scene
    semantics = lazy.semantics
    clipsEveryLayer = semantics.requiresPointInsideBeforeDescending
    self.lazy = lazy
    sharesLazy = true
    _attach()
  }

  /// Whether `lazy` is another owner's, whose fixed rows are pinned (`init(sharing:)`).
  let sharesLazy: Bool

  public var count: Int { scene.count }

  /// Classifies the layers and computes the fixed ones' boxes (from the model at time 0: they
  /// do not change with time).
  func _attach() {
    if !sharesLazy { lazy.prepare(at: 0, animated: true) }
    let n = scene.count
    moves.reserve(n, filling: false)
    fixedBox.reserve(n, filling: .nothing)
    localTimes.reserve(n, filling: Interval(0))
    map.reserve(n, filling: IntervalAffine(.identity))
    shift.reserve(n, filling: _Shift(x: Interval(0), y: Interval(0)))
    kind.reserve(n, filling: .exact)
    clipBox.reserve(n, filling: .everything)
    boxes.reserve(n, filling: .nothing)
    chain.reserve(n + 1, filling: 0)
    computed.reserve(n, filling: 0)
    _windowStamp = 0
    _lastWindow = Interval(.nan)
    _lastParent = -1
    let f = lazy.frame
    unclipped.reserve(n, filling: true)
    for m in 0..<n {
      let p = Int(scene.parent[m])
      unclipped[m] = !_clips(m) && (p < 0 || unclipped[p])
      moves[m] = scene.animatesHitTesting(m, under: semantics) || (p >= 0 && moves[p])
      if !moves[m] {
        if sharesLazy {
          precondition(
            lazy.isPinned(m), "motion bounds: fixed layer \(m) is not pinned in the shared lazy presentation")
        } else {
          lazy.ensure(m)
        }
        fixedBox[m] = f.worldBox[m]
      }
    }
    leanOnly.reserve(n, filling: false)
    for m in 0..<n where _leanStates && moves[m] && scene.bits[m].contains(.affineTransform) {
      leanOnly[m] =
        !scene.bits[m].contains(.animated)
        || scene.animations.changesLeanOnly(scene.animationStart[m]..<scene.animationEnd[m])
    }
    heldSlot.reserve(n, filling: -1)
    var slots = 0
    for m in 0..<n
    where _holdsStates && leanOnly[m] && scene.bits[m].contains(.animated) && scene.bits[m].contains(.leanAnimations) {
      if scene.animations.allEnd(scene.animationStart[m]..<scene.animationEnd[m]) {
        heldSlot[m] = Int32(slots)
        slots += 1
      }
    }
    held.reserve(slots, filling: _HeldPlacement())
    piecewiseLinear.reserve(n, filling: false)
    translates.reserve(n, filling: false)
    breakTimes.reserve(Self.maximumBreakpoints, filling: 0)
    breakProgress.reserve(Self.maximumBreakpoints, filling: 0)
    knots.reserve(Self.maximumBreakpoints, filling: .zero)
    for m in 1..<Swift.max(n, 1) where scene.animatesHitTesting(m, under: semantics) {
      let p = Int(scene.parent[m])
      let b = scene.bits[m]
      let pb = scene.bits[p]
      guard !moves[p], scene.timingNode[m] < 0, b.contains(.leanAnimations), b.contains(.affineTransform),
        !pb.contains(.hasSublayerTransform), !pb.contains(.generalAnimations),
        scene.animationEnd[m] - scene.animationStart[m] == 1,
        scene.animations.isPiecewiseLinear(Int(scene.animationStart[m]))
      else { continue }
      lazy.ensure(p)
      let flags = f.flags[p]
      piecewiseLinear[m] = flags.contains(.reachable) && !flags.contains(.worldProjective)
      translates[m] = piecewiseLinear[m] && scene.animations.changesPositionOnly(Int(scene.animationStart[m]))
    }
    _resetPieces()
    _version = scene.changeVersion
    _checkInvariants()
  }

  /// Forgets every kept piece (the scene changed), sized for the scene when kept at all.
  func _resetPieces() {
    guard reusesPieces else { return }
    pieces.reserve(scene.count, filling: .nothing)
    pieceKnots.reserve(scene.count * Self.knotsPerPiece, filling: _PieceKnot(time: 0, w: .zero))
    #if HITBENCH_INTERNAL_CHECKS
      _pieceRegions.reserve(scene.count, filling: .nothing)
    #endif
  }

  /// Exact linear bounds over [t0, t1] for a layer whose motion is piecewise linear in time
  /// (one lean basic animation or linear keyframe track without timing functions, under a fixed
  /// parent): the boxes at t0 and t1 of its bounds and of `region` (a box in its own space that
  /// moves with it, such as its sublayers' hull), moved out by the most the box at any
  /// breakpoint inside (a key time or an iteration end, where the motion bends or jumps) sticks
  /// out of the straight interpolation. Between breakpoints the boxes move linearly, so the
  /// interpolated box, so widened, holds them at every time of the segment. nil when the layer
  /// does not qualify or the animation is not inside its active period for the whole segment.
  /// Not clipped by clipping ancestors. A layer whose animation moves only its position takes
  /// the closed form (`_translatedLines`: about 30 instructions a breakpoint, lines across
  /// iteration boundaries too); others about one layer evaluation per breakpoint, and none
  /// across a boundary.
  ///
  /// `exactWithin` is finite where the lines follow the layer's own box: it moves only by its
  /// position, `region` adds nothing to its bounds, and the lines are the chord's (not the
  /// knots' hull). Then at every time of the window the interpolated lines reach past the
  /// layer's world box by at least their rounding pads and at most twice `exactWithin` on each
  /// side (exactly the pads where no knot strays from the chord): a point inside them by more
  /// than twice `exactWithin` is inside the box by more than every rounding. Infinity otherwise.
  public func linearBounds(of m: Int, region: Box? = nil, from t0: Double, to t1: Double) -> (
    start: Box, end: Box, exactWithin: Double
  )? {
    linearBounds(of: m, region: region, from: t0, to: t1, scene.animations)
  }

  /// `linearBounds(of:region:from:to:)` with the scene's animations read by the caller, once
  /// for every group of a window: read from the scene's variable, a class reference, it is
  /// retained and released for each call (docs/optimisation-log.md entry 96).
  package func linearBounds(
    of m: Int, region: Box?, from t0: Double, to t1: Double, _ program: FrozenAnimationProgram
  ) -> (start: Box, end: Box, exactWithin: Double)? {
    guard animated, piecewiseLinear[m], t1 > t0 else { return nil }
    let reuse = reusesPieces && translates[m]
    if reuse, let lines = _pieceLines(m, region, from: t0, to: t1) { return lines }
    let k = Int(scene.animationStart[m])
    // Where Double resolves the local time too coarsely for the segment (huge offsets or clock
    // times), the evaluated motion is a staircase the lines cannot be trusted to hold.
    let dt = program.clockTimeError(k, from: t0, to: t1)
    guard dt * 0x1p20 <= t1 - t0 else { return nil }
    if reuse && _startsPiece(k, program, from: t0, to: t1) {
      // A new piece from this window's start: when it holds the window (fewer breakpoints
      // inside than it keeps), it answers this window too.
      _newPiece(m, k, program, region, from: t0, horizon: Self.pieceHorizon * (t1 - t0))
      if let lines = _pieceLines(m, region, from: t0, to: t1) { return lines }
    }
    if translates[m] { return _translatedLines(m, k, program, region, from: t0, to: t1, dt: dt) }
    guard
      let count = program.breakpoints(
        k, from: t0, to: t1, times: breakTimes._unsafeStorage, progress: breakProgress._unsafeStorage,
        capacity: Self.maximumBreakpoints),
      let f0 = program.progress(k, atLocalTime: t0), let f1 = program.progress(k, atLocalTime: t1)
    else { return nil }
    let p = Int(scene.parent[m])
    lazy.ensure(p)
    let parent = lazy.frame.toWorld[p]
    guard let b0 = _linearBox(m, k, f0, parent, region), let b1 = _linearBox(m, k, f1, parent, region) else {
      return nil
    }
    _sortBreakpoints(count)
    var out = (minX: 0.0, minY: 0.0, maxX: 0.0, maxY: 0.0)
    // The steepest edge between consecutive breakpoints: a local time off by dt moves the
    // evaluated box by at most slope x dt.
    var slope = 0.0
    var previous = b0
    var previousTime = t0
    for i in 0...count {
      let time = i < count ? breakTimes[i] : t1
      guard let b = i < count ? _linearBox(m, k, breakProgress[i], parent, region) : b1 else { return nil }
      guard time - previousTime >= 16 * dt else { return nil }
      slope = Swift.max(slope, Self._largestChange(previous, b) / (time - previousTime))
      previous = b
      previousTime = time
      guard i < count else { break }
      let u = (time - t0) / (t1 - t0)
      out.minX = Swift.max(out.minX, b0.minX + (b1.minX - b0.minX) * u - b.minX)
      out.minY = Swift.max(out.minY, b0.minY + (b1.minY - b0.minY) * u - b.minY)
      out.maxX = Swift.max(out.maxX, b.maxX - (b0.maxX + (b1.maxX - b0.maxX) * u))
      out.maxY = Swift.max(out.maxY, b.maxY - (b0.maxY + (b1.maxY - b0.maxY) * u))
    }
    return _lines(b0, b1, out, late: 2 * slope * dt).map { ($0.start, $0.end, .infinity) }
  }

  /// The lines from b0 to b1 moved out by `out` (the most a breakpoint's box sticks out of the
  /// straight interpolation, per edge) and padded for the interpolation's rounding, relative to
  /// the coordinates, and by `late` for the local time's (nil when not finite); and the most an
  /// edge was moved out by.
  func _lines(_ b0: Box, _ b1: Box, _ out: (minX: Double, minY: Double, maxX: Double, maxY: Double), late: Double)
    -> (start: Box, end: Box, movedOut: Double)?
  {
    let pad = (Swift.abs(b0.minX) + Swift.abs(b0.maxX) + Swift.abs(b1.minX) + Swift.abs(b1.maxX)) * 1e-12 + late
    let padY = (Swift.abs(b0.minY) + Swift.abs(b0.maxY) + Swift.abs(b1.minY) + Swift.abs(b1.maxY)) * 1e-12 + late
    guard pad.isFinite, padY.isFinite else { return nil }
    return (
      _faulty(
        Box(
          minX: b0.minX - out.minX - pad, minY: b0.minY - out.minY - padY, maxX: b0.maxX + out.maxX + pad,
          maxY: b0.maxY + out.maxY + padY)),
      _faulty(
        Box(
          minX: b1.minX - out.minX - pad, minY: b1.minY - out.minY - padY, maxX: b1.maxX + out.maxX + pad,
          maxY: b1.maxY + out.maxY + padY)),
      Swift.max(Swift.max(out.minX, out.maxX) + pad, Swift.max(out.minY, out.maxY) + padY)
    )
  }

  /// Whether neither layer m nor any ancestor clips what is under it (masks, or semantics that
  /// test a point inside a layer before its sublayers): then `linearBounds`, which are not
  /// clipped, are never wider than the clipped window box. O(1).
  public func isUnclipped(_ m: Int) -> Bool { unclipped[m] }

  /// Whether layer m's parent moves (its box over a window is then its ancestors' too).
  public func movesWithParent(_ m: Int) -> Bool {
    let p = Int(scene.parent[m])
    return p >= 0 && moves[p]
  }

  /// Per layer: `isUnclipped` (computed with the classification, top down).
  var unclipped = ColumnBuffer<Bool>()

  /// Whether layer m clips its sublayers' boxes: it masks, or the semantics test a point inside
  /// a layer before descending into it.
  @inline(__always) func _clips(_ m: Int) -> Bool {
    scene.bits[m].contains(.masks) || clipsEveryLayer
  }

  /// `semantics.requiresPointInsideBeforeDescending`, read once (a copy of the semantics,
  /// which hold a String, costs a retain where this is read per layer).
  let clipsEveryLayer: Bool

  /// The breakpoints of the last `breakpoints` call in ascending time (an insertion sort: a few
  /// dozen at most; an autoreversed iteration lists its key times backwards).
  func _sortBreakpoints(_ count: Int) {
    precondition(count <= breakTimes.capacity && count <= breakProgress.capacity, "more breakpoints than columns")
    _insertionSort(breakTimes._unsafeStorage, breakProgress._unsafeStorage, 0..<count, by: <)
  }

  /// The largest change of any edge between two boxes.
  static func _largestChange(_ a: Box, _ b: Box) -> Double {
    Swift.max(
      Swift.max(Swift.abs(a.minX - b.minX), Swift.abs(a.maxX - b.maxX)),
      Swift.max(Swift.abs(a.minY - b.minY), Swift.abs(a.maxY - b.maxY)))
  }

  /// Fault injection (`InjectedFaults.shrinkMotionBounds`): a box shrunk on each side.
  @inline(__always) func _faulty(_ b: Box) -> Box {
    let d = scene._faults.shrinkMotionBounds
    guard d > 0, !b.isEmpty else { return b }
    return Box(minX: b.minX + d, minY: b.minY + d, maxX: b.maxX - d, maxY: b.maxY - d)
  }

  /// Exact lines for a layer whose animation moves only its position (`linearBounds`' closed
  /// form): its positions at the window's ends and breakpoints (`positionKnots`: key values
  /// read, no evaluation between them), each moving one shape (`_TranslatedShape`) by its world
  /// translation. Lines through the ends' translations, moved out by the most a knot strays
  /// from them per axis, hold every knot, and so the motion between (straight between knots);
  /// where an iteration boundary falls inside, both values at it are knots at one time, and
  /// the lines hold the jump. Padded as the largest box of any knot would be (`_TranslatedShape.pad`),
  /// for the positions' rounding, and for the local time's error by the steepest of the
  /// segments and the lines themselves. About 30 instructions a knot, no division but one.
  /// `program` is the scene's, passed in (read from the scene's variable again, it is retained
  /// and released once more a group).
  func _translatedLines(
    _ m: Int, _ k: Int, _ program: FrozenAnimationProgram, _ region: Box?, from t0: Double, to t1: Double, dt: Double
  ) -> (
    start: Box, end: Box, exactWithin: Double
  )? {
    let scene = self.scene
    let times = breakTimes._unsafeStorage
    let positions = knots._unsafeStorage
    let lean = scene.lean._unsafeStorage + m
    guard
      let count = program.positionKnots(
        k, from: t0, to: t1, under: SIMD2(lean.pointee.v[0], lean.pointee.v[1]), times: times, positions: positions,
        capacity: Swift.min(breakTimes.capacity, knots.capacity)),
      count >= 2
    else { return nil }
    let shape = _TranslatedShape(scene.affineTransform(m), lean, _fixedParentMap(m), region)
    guard shape.invertible else { return nil }
    let w0 = shape.translation(positions[0])
    let w1 = shape.translation(positions[count - 1])
    // Per axis: the most a knot is below (low) or above (high) the chord, the largest
    // translation and position magnitudes, the steepest change per second.
    var reach = Self._max(Self._abs(w0), Self._abs(w1))
    var size = Self._max(Self._abs(positions[0]), Self._abs(positions[count - 1]))
    var slope = Self._abs(w1 - w0).max() / (t1 - t0)
    var previous = w0
    var previousTime = t0
    var stray = _ChordStray(w0, w1, from: t0, to: t1)
    for i in 1..<(count - 1) {
      let time = times[i]
      let w = shape.translation(positions[i])
      stray.add(w, at: time)
      let span = time - previousTime
      // A jump (two knots at one time) has no slope; a short segment cannot be trusted to the
      // local time's error.
      if span != 0 {
        guard span >= 16 * dt else { return nil }
        slope = Swift.max(slope, Self._abs(w - previous).max() / span)
      }
      previous = w
      previousTime = time
      reach = Self._max(reach, Self._abs(w))
      size = Self._max(size, Self._abs(positions[i]))
    }
    let span = t1 - previousTime
    if span != 0 {
      guard span >= 16 * dt else { return nil }
      slope = Swift.max(slope, Self._abs(w1 - previous).max() / span)
    }
    guard let pad = shape.pad(reach: reach, positions: size.max()) else { return nil }
    return _chordLines(stray, shape.sums, pad: pad, late: 2 * slope * dt, exactWithin: shape.regionAdds ? .infinity : 0)
  }

  /// How far the knots inside a window stray from the chord between its ends' translations w0
  /// and w1, per axis: the most below (`low`) and above (`high`), and the hull of every knot
  /// with the ends (`lowest` to `highest`). `_translatedLines`' and a kept piece's
  /// (`_pieceLines`) one account of the knots, read by `_chordLines`.
  struct _ChordStray {
    let w0: SIMD2<Double>
    let w1: SIMD2<Double>
    let t0: Double
    let scale: Double
    var low = SIMD2<Double>.zero
    var high = SIMD2<Double>.zero
    var lowest: SIMD2<Double>
    var highest: SIMD2<Double>

    @inline(__always) init(_ w0: SIMD2<Double>, _ w1: SIMD2<Double>, from t0: Double, to t1: Double) {
      (self.w0, self.w1, self.t0, scale) = (w0, w1, t0, 1 / (t1 - t0))
      lowest = MotionBounds._min(w0, w1)
      highest = MotionBounds._max(w0, w1)
    }

    /// Takes in the knot at translation w and clock time `time`.
    @inline(__always) mutating func add(_ w: SIMD2<Double>, at time: Double) {
      lowest = MotionBounds._min(lowest, w)
      highest = MotionBounds._max(highest, w)
      let chord = w0 + (w1 - w0) * ((time - t0) * scale)
      low = MotionBounds._max(low, chord - w)
      high = MotionBounds._max(high, w - chord)
    }
  }

  /// The lines of a translated layer's box (its shape's corner sums `s` moved by a world
  /// translation) through the translations at a window's ends, moved out per axis by the most a
  /// knot inside strays below or above the chord (`stray`), padded by `pad` and `late`; or,
  /// where those lines bend far, the knots' hull at both ends. `_translatedLines`' and a kept
  /// piece's (`_pieceLines`) last step. `exactWithin` is how far `s` is already moved out from
  /// the layer's own box (infinity where it is not that box): where no knot strays, the lines
  /// are exact within it and what they add (`linearBounds`).
  @inline(__always) func _chordLines(
    _ stray: _ChordStray, _ s: Box, pad: SIMD2<Double>, late: Double, exactWithin: Double
  ) -> (
    start: Box, end: Box, exactWithin: Double
  )? {
    let (w0, w1, low, high, lowest, highest) = (
      stray.w0, stray.w1, stray.low, stray.high, stray.lowest, stray.highest
    )
    let b0 = Box(minX: s.minX + w0.x, minY: s.minY + w0.y, maxX: s.maxX + w0.x, maxY: s.maxY + w0.y)
    let b1 = Box(minX: s.minX + w1.x, minY: s.minY + w1.y, maxX: s.maxX + w1.x, maxY: s.maxY + w1.y)
    // Lines bent far from straight (a turn or a jump inside) reach out at both ends, and an index
    // lists the union of the two: where that is much larger than the motion's own hull, the
    // hull, held at every time, lists less (the knots' hull: exact, as the lines are).
    let outX = low.x + high.x
    let outY = low.y + high.y
    let spanX = Swift.max(b0.maxX, b1.maxX) - Swift.min(b0.minX, b1.minX) + outX
    let spanY = Swift.max(b0.maxY, b1.maxY) - Swift.min(b0.minY, b1.minY) + outY
    let hullX = highest.x - lowest.x + (s.maxX - s.minX)
    let hullY = highest.y - lowest.y + (s.maxY - s.minY)
    if spanX * spanY > Self.linesAtMost * hullX * hullY {
      let hull = Box(
        minX: s.minX + lowest.x, minY: s.minY + lowest.y, maxX: s.maxX + highest.x, maxY: s.maxY + highest.y)
      return _lines(hull, hull, (minX: pad.x, minY: pad.y, maxX: pad.x, maxY: pad.y), late: late).map {
        ($0.start, $0.end, .infinity)
      }
    }
    guard
      let lines = _lines(
        b0, b1, (minX: low.x + pad.x, minY: low.y + pad.y, maxX: high.x + pad.x, maxY: high.y + pad.y), late: late)
    else { return nil }
    // The box is the chord moved by at most the knots' stray, so the lines reach past it by
    // their pad at least and twice what they moved out at most: a point that far inside them
    // is inside the box by more than the pad.
    return (lines.start, lines.end, exactWithin + lines.movedOut)
  }

  /// How many windows' lengths a new piece may reach when its knots end it no sooner: each
  /// piece costs a walk, and a longer one is walked over more iterations only up to its last
  /// knot (`_newPiece`).
  static let pieceHorizon = 64.0

  /// How many knots a kept piece holds (its start and the breakpoints after it): a piece
  /// answers the windows over its first `knotsPerPiece - 1` segments, then the next window
  /// starts another with one walk. Each knot costs 24 bytes a layer. Chosen by instruction
  /// counts of a window's bounds on particles 20k over ten seconds (docs/optimisation-log.md,
  /// entry 53): 4, 6 and 8 count 330, 292 and 280 a particle at 100 ms windows, 692, 497 and 427
  /// at 440 ms; 6 for 48 bytes a layer less than 8.
  static let knotsPerPiece = 6

  /// How many windows must fit in a kept piece's mean length (`knotsPerPiece - 1` breakpoint
  /// spacings) for a window that its piece does not hold to start a new one. A new piece costs
  /// a walk of the motion, about as much as `_translatedLines`, and pays only over the windows
  /// it answers after. Chosen by instruction counts of a window's bounds on particles 20k
  /// (docs/optimisation-log.md, entry 51) for pieces of one segment: of 0.5, 1, 2, 4 and 8, 2
  /// counted fewest at 440 ms windows and as few as any at 100 ms (not counted again since).
  static let windowsPerSpacing = 2.0

  /// How much larger than the motion's hull the union of a translated layer's lines may be
  /// before the hull is used instead (`_translatedLines`). Chosen by instruction counts a query
  /// on particles 20k, Q = 100, 1 s windows (docs/optimisation-log.md, entry 47): 1.5 lists
  /// fewer than 1.25 or 2, and far fewer than lines always or the hull always.
  static let linesAtMost = 1.5

  /// The world map of layer m's parent, which never moves (pinned in the lazy frame, so it
  /// holds until the scene changes): kept for the next layer with the same parent, as
  /// siblings are computed one after another (a million particles share one parent).
  @inline(__always) func _fixedParentMap(_ m: Int) -> AffineMap {
    let p = Int(scene.parent[m])
    if p != _lastParent {
      lazy.ensure(p)
      _lastParentMap = lazy.frame.toWorld[p]
      _lastParent = p
    }
    return _lastParentMap
  }

  var _lastParent = -1
  var _lastParentMap = AffineMap.identity

  @inline(__always) static func _abs(_ v: SIMD2<Double>) -> SIMD2<Double> { SIMD2(Swift.abs(v.x), Swift.abs(v.y)) }

  /// `pointwiseMin` and `pointwiseMax` for two lanes, inlined (the generic ones are called).
  @inline(__always) static func _min(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
    SIMD2(Swift.min(a.x, b.x), Swift.min(a.y, b.y))
  }

  @inline(__always) static func _max(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
    SIMD2(Swift.max(a.x, b.x), Swift.max(a.y, b.y))
  }

  /// The world box of a piecewise-linear layer's bounds and `region` (their union), its
  /// animation at progress f: the lean closed-form level map under the parent's exact world
  /// map, the corners' box, padded (nil when singular or not finite).
  func _linearBox(_ m: Int, _ k: Int, _ f: Double, _ parent: AffineMap, _ region: Box?) -> Box? {
    var v = scene.lean[m]
    scene.animations.leanValue(k, progress: f, &v)
    let t = scene.affineTransform(m)
    let offset = Self._levelTranslation(t, v)
    let level = AffineMap(a: t.a, b: t.b, c: t.c, d: t.d, tx: offset.x + v.v[0], ty: offset.y + v.v[1])
    let w = AffineMap.concat(level, parent)
    // One map, not a set: the frame's own padding (`ConservativeBox.affine`, the corners'
    // rounding and the exact test's) holds what the test accepts, at about half the interval
    // arithmetic's cost (docs/optimisation-log.md, entry 37).
    guard let inverse = w.inverted else { return nil }
    let b = ConservativeBox.affine(w, inverse: inverse, Self._localBox(v, region))
    guard b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { return nil }
    return b
  }

  /// The lean level map's translation but for the position: the anchor's offset in the bounds
  /// through the transform, plus its translation (the position is added to this, last).
  @inline(__always) static func _levelTranslation(_ t: AffineMap, _ v: LeanValues) -> (x: Double, y: Double) {
    let ax = v.v[2] + v.v[6] * v.v[4]
    let ay = v.v[3] + v.v[7] * v.v[5]
    return (-ax * t.a - ay * t.c + t.tx, -ax * t.b - ay * t.d + t.ty)
  }

  /// A layer's bounds, standardised, joined with `region` when it is not empty.
  @inline(__always) static func _localBox(_ v: LeanValues, _ region: Box?) -> Box {
    let x0 = v.v[2]
    let x1 = v.v[2] + v.v[4]
    let y0 = v.v[3]
    let y1 = v.v[3] + v.v[5]
    var local = Box(minX: Swift.min(x0, x1), minY: Swift.min(y0, y1), maxX: Swift.max(x0, x1), maxY: Swift.max(y0, y1))
    if let region, !region.isEmpty {
      local = Box(
        minX: Swift.min(local.minX, region.minX), minY: Swift.min(local.minY, region.minY),
        maxX: Swift.max(local.maxX, region.maxX), maxY: Swift.max(local.maxY, region.maxY))
    }
    return local
  }

  /// What of a translated layer's world box does not depend on its position (its animation
  /// changes nothing else): the level map's translation without the position, the world map's
  /// linear part and its inverse, and the corners' sums (`ConservativeBox.cornerSums`). The
  /// box at a position is `sums` moved by `translation(_:)` (the world map's translation,
  /// `_linearBox`'s arithmetic), padded as `ConservativeBox.affine` pads it.
  struct _TranslatedShape {
    var levelX: Double
    var levelY: Double
    var parent: AffineMap
    var linear: AffineMap
    var inverse: AffineMap
    var sums: Box

    /// Whether the world map is invertible (`_linearBox` answers nil at every position if not).
    var invertible: Bool
    /// Whether the region widens the layer's own bounds (then the box is not the layer's).
    var regionAdds: Bool

    /// The shape of a layer with affine transform `t` and model values `v` under `parent`.
    @inline(__always) init(_ t: AffineMap, _ v: UnsafePointer<LeanValues>, _ parent: AffineMap, _ region: Box?) {
      (levelX, levelY) = MotionBounds._levelTranslation(t, v.pointee)
      self.parent = parent
      // concat's linear part reads no translation, nor does the inverse's.
      linear = AffineMap.concat(AffineMap(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0), parent)
      let inverse = linear.inverted
      invertible = inverse != nil
      self.inverse = inverse ?? .identity
      let local = MotionBounds._localBox(v.pointee, region)
      regionAdds = local != MotionBounds._localBox(v.pointee, nil)
      sums = ConservativeBox.cornerSums(linear, local)
    }

    /// The world map's translation with the layer at `position`.
    @inline(__always) func translation(_ position: SIMD2<Double>) -> SIMD2<Double> {
      let tx = levelX + position.x
      let ty = levelY + position.y
      return SIMD2(tx * parent.a + ty * parent.c + parent.tx, tx * parent.b + ty * parent.d + parent.ty)
    }

    /// A pad per axis at least `ConservativeBox.affine`'s for the box at any translation of
    /// magnitude up to `reach` (its relative 1e-9 and the exact test's slack both grow with the
    /// magnitudes: the box's coordinates, and the inverse's translation, linear in the
    /// translation), plus the world image of a position error of a few ulps of `positions`
    /// (the knots' values against the frame's interpolation). nil when not finite.
    @inline(__always) func pad(reach: SIMD2<Double>, positions: Double) -> SIMD2<Double>? {
      let bx = Swift.max(abs(sums.minX), abs(sums.maxX)) + reach.x
      let by = Swift.max(abs(sums.minY), abs(sums.maxY)) + reach.y
      var bound = inverse
      bound.tx = (abs(inverse.a) * reach.x + abs(inverse.c) * reach.y) * (1 + 0x1p-40)
      bound.ty = (abs(inverse.b) * reach.x + abs(inverse.d) * reach.y) * (1 + 0x1p-40)
      let slack = ConservativeBox.affineSlack(linear, inverse: bound, reachX: bx, reachY: by)
      let moved = 1e-12 * positions
      let x = 2 * bx * 1e-9 + slack.x + 1e-300 + (abs(linear.a) + abs(linear.c)) * moved
      let y = 2 * by * 1e-9 + slack.y + 1e-300 + (abs(linear.b) + abs(linear.d)) * moved
      guard x.isFinite, y.isFinite else { return nil }
      return SIMD2(x, y)
    }
  }

  /// Whether each computation first takes in the scene's changes (`CompiledScene.synchronize`).
  /// False for an instance that computes on another thread than the one that changes the
  /// scene: its owner calls `resynchronize()` while it is idle instead.
  public var synchronizesWithScene = true

  /// Brings the classification up to date with the scene (after model changes).
  func _synchronize() {
    if synchronizesWithScene { scene.synchronize() }
    if _version != scene.changeVersion { _attach() }
  }

  /// Takes in the scene's changes now (from the thread that owns the scene).
  public func resynchronize() {
    scene.synchronize()
    if _version != scene.changeVersion { _attach() }
  }

  /// Every layer's box for the window [t0, t1] into `boxes`; answers the unbounded layers.
  @discardableResult
  public func compute(from t0: Double, to t1: Double) -> Int {
    _synchronize()
    unbounded = 0
    let window = Interval(Swift.min(t0, t1), Swift.max(t0, t1))
    _windowStamp &+= 1
    _lastWindow = window
    let program = scene.animations
    for m in 0..<scene.count {
      _computeLayer(m, window, program)
      computed[m] = _windowStamp
    }
    _checkInvariants()
    return unbounded
  }

  /// Layer m's box for the window [t0, t1], computing its ancestors for that window on the way
  /// (O(depth) the first time in a window: ancestors computed for the same window are reused);
  /// other layers' results for earlier windows may be overwritten.
  public func box(of m: Int, from t0: Double, to t1: Double) -> Box {
    box(of: m, region: .nothing, from: t0, to: t1).box
  }

  /// The same, and `region(of: m, local: region)` for that window: a group's root and its
  /// members' region, both boxes through the root's map at once. Where the region holds the
  /// layer's own bounds and the layer does not clip, its box is the region's (which holds it):
  /// one image, for callers that take their union (a group's bound).
  public func box(of m: Int, region: Box, from t0: Double, to t1: Double) -> (box: Box, region: Box) {
    // (Synchronized first: a scene change may compile its animations anew.)
    _synchronize()
    return _box(of: m, region: region, from: t0, to: t1, scene.animations)
  }

  /// The same with the scene's animations read by the caller (as `linearBounds`' variant), after
  /// the scene's changes were taken in.
  package func box(
    of m: Int, region: Box, from t0: Double, to t1: Double, _ program: FrozenAnimationProgram
  ) -> (box: Box, region: Box) {
    _synchronize()
    #if HITBENCH_INTERNAL_CHECKS
      precondition(program === scene.animations, "motion bounds: the animations read before a scene change")
    #endif
    return _box(of: m, region: region, from: t0, to: t1, program)
  }

  /// Both `box(of:region:from:to:)`s once the scene's changes are taken in.
  @inline(__always) func _box(
    of m: Int, region: Box, from t0: Double, to t1: Double, _ program: FrozenAnimationProgram
  ) -> (box: Box, region: Box) {
    let window = Interval(Swift.min(t0, t1), Swift.max(t0, t1))
    if window != _lastWindow {
      _lastWindow = window
      _windowStamp &+= 1
      if _windowStamp == 0 {
        for i in 0..<scene.count { computed[i] = 0 }
        _windowStamp = 1
      }
    }
    if computed[m] == _windowStamp { return (boxes[m], self.region(of: m, local: region)) }
    // Every ancestor not yet computed for this window, top down: a fixed one's box is known,
    // but its local times (layer timings) reach the moving layers below it.
    var n = 0
    var a = Int(scene.parent[m])
    while a >= 0 && computed[a] != _windowStamp {
      chain[n] = Int32(a)
      n += 1
      a = Int(scene.parent[a])
    }
    while n > 0 {
      n -= 1
      let c = Int(chain[n])
      _computeLayer(c, window, program)
      computed[c] = _windowStamp
    }
    let r = _computeLayer(m, window, region: region, program)
    computed[m] = _windowStamp
    return (boxes[m], r)
  }

  /// Layer m's box from the last `compute` (or `box(of:from:to:)`).
  public func box(_ m: Int) -> Box { boxes[m] }

  /// Where a box in layer m's own space (the space of its bounds and sublayers) can be in the
  /// world over the window last computed for m, clipped like m's sublayers: what a region
  /// that moves with m (its sublayers, fixed relative to it) can cover.
  public func region(of m: Int, local: Box) -> Box {
    guard !local.isEmpty else { return .nothing }
    let clip = clipBox[m]
    switch kind[m] {
    case .never: return .nothing
    case .exact:
      lazy.ensure(m)
      return _projected(m, local).intersection(clip)
    case .interval: return map[m].box(of: local).intersection(clip)
    case .translated: return shift[m].box(of: local).intersection(clip)
    case .projected:
      let p = Int(scene.parent[m])
      lazy.ensure(p)
      return _projected(p, map[m].box(of: local)).intersection(clip)
    case .unbounded: return clip
    }
  }

  /// Whether layer m's box for the last window is the whole plane before clipping.
  public func isUnbounded(_ m: Int) -> Bool { kind[m] == .unbounded }

  /// One layer, its parent already computed for the same window. `program` is the scene's
  /// animations, read once by the caller: read from the scene's variable here, it was retained
  /// and released for each layer (docs/optimisation-log.md entry 96).
  func _computeLayer(_ m: Int, _ window: Interval, _ program: FrozenAnimationProgram) {
    _ = _computeLayer(m, window, region: .nothing, program)
  }

  /// The same, answering `region(of: m, local: region)` for the window (`.nothing` for an
  /// empty region): where the layer's map is an interval map, both boxes through it at once.
  func _computeLayer(_ m: Int, _ window: Interval, region: Box, _ program: FrozenAnimationProgram) -> Box {
    let p = Int(scene.parent[m])
    let clips = _clips(m)
    // Local time: the parent's, through the layer's own timing.
    var times = p < 0 ? window : localTimes[p]
    if scene.bits[m].contains(.hasTiming) { times = Self._layerTimes(scene.timings[Int(scene.timingSlot[m])], times) }
    localTimes[m] = times
    let parentClip = p < 0 ? Box.everything : clipBox[p]
    if !moves[m] {
      kind[m] = .exact
      boxes[m] = _faulty(fixedBox[m])
      clipBox[m] = clips ? fixedBox[m].intersection(parentClip) : parentClip
      return self.region(of: m, local: region)
    }
    let widens = animated && scene.bits[m].contains(.animated)
    let range = scene.animationStart[m]..<scene.animationEnd[m]
    // The level map (the lean closed form: a 2D transform, no sublayerTransform above).
    let parentContext =
      p >= 0 && (scene.bits[p].contains(.hasSublayerTransform) || scene.bits[p].contains(.generalAnimations))
    let levels = times.isBounded && !parentContext
    if widens && levels && heldSlot[m] >= 0,
      let sides = program.heldSides(range, localTimes: times), let h = _heldPlacement(m, range, times, sides, program)
    {
      // A held level that only translates, under a translating parent (a settled row): the
      // sums alone, as `_place` takes them, without passing the level's map.
      if held[h].translates && p >= 0 && kind[p] == .translated && _shifts {
        let local = held[h].local
        if local.minX.isFinite, local.minY.isFinite, local.maxX.isFinite, local.maxY.isFinite {
          shift[m] = _Shift(x: held[h].level.tx + shift[p].x, y: held[h].level.ty + shift[p].y)
          return _finishTranslated(m, clips, parentClip, local, region)
        }
      }
      return _place(m, p, clips, parentClip, held[h].level, held[h].local, region)
    } else if leanOnly[m] {
      var s = LeanIntervalState(scene.lean[m])
      if widens { program.widen(range, &s, localTimes: times) }
      let entries = s.bounded && levels ? Self._entries(scene.affineTransform(m)) : nil
      return _place(m, p, clips, parentClip, s.lean, entries, region)
    } else {
      var s = IntervalState(lean: scene.lean[m], transform: scene.modelTransform(m))
      if widens { program.widen(range, &s, localTimes: times) }
      return _place(m, p, clips, parentClip, s.lean, s.bounded && levels ? s.affineEntries : nil, region)
    }
  }

  /// A 2D affine map's entries (a, b, c, d, tx, ty) as points: `IntervalState.affineEntries` of
  /// a transform no animation changes.
  @inline(__always) static func _entries(_ t: AffineMap) -> InlineArray<6, Interval> {
    [Interval(t.a), Interval(t.b), Interval(t.c), Interval(t.d), Interval(t.tx), Interval(t.ty)]
  }

  /// Layer m's slot in `held`, holding its placement while its records hold one state, by the
  /// sides they are on: kept from an earlier window with the same sides, else that state
  /// evaluated once (at the window's first time: the numbers a query evaluates at any of its
  /// times) and placed. Nil where a number of the state is not finite (the interval analysis
  /// then decides).
  @inline(__always) func _heldPlacement(
    _ m: Int, _ range: Range<Int32>, _ times: Interval, _ sides: UInt64, _ program: FrozenAnimationProgram
  ) -> Int? {
    let slot = Int(heldSlot[m])
    if held[slot].valid && held[slot].sides == sides {
      #if HITBENCH_INTERNAL_CHECKS
        _heldReads += 1
      #endif
      return slot
    }
    var v = scene.lean[m]
    program.applyLean(range, to: &v, atParentTime: times.lo)
    for i in 0..<11 where !v.v[i].isFinite { return nil }
    let s = LeanIntervalState(v)
    let level = Self._level(s.lean, Self._entries(scene.affineTransform(m)))
    held[slot] = _HeldPlacement(
      valid: true, sides: sides, level: level, local: Self._bounds(s.lean),
      translates: level.onlyTranslates)
    return slot
  }

  /// A moving layer's map, kind and boxes from its lean numbers over the window and its
  /// transform's entries (nil: no level map, the layer unbounded), its parent computed.
  @inline(__always) func _place(
    _ m: Int, _ p: Int, _ clips: Bool, _ parentClip: Box, _ lean: borrowing InlineArray<11, Interval>,
    _ entries: InlineArray<6, Interval>?, _ region: Box
  ) -> Box {
    var level: IntervalAffine?
    if let e = entries { level = Self._level(lean, e) }
    return _place(m, p, clips, parentClip, level, Self._bounds(lean), region)
  }

  /// The level map of lean numbers over a window and a transform's entries. The anchor and
  /// size are points but where animated, the entries where the transform is not: `times` takes
  /// two products for a point.
  @inline(__always) static func _level(_ lean: borrowing InlineArray<11, Interval>, _ e: InlineArray<6, Interval>)
    -> IntervalAffine
  {
    let ax = lean[2] + lean[6].times(lean[4])
    let ay = lean[3] + lean[7].times(lean[5])
    return IntervalAffine(
      a: e[0], b: e[1], c: e[2], d: e[3], tx: (-ax).times(e[0]) - ay.times(e[2]) + e[4] + lean[0],
      ty: (-ax).times(e[1]) - ay.times(e[3]) + e[5] + lean[1])
  }

  /// The local bounds of lean numbers over a window: standardised (min and max of origin and
  /// origin + size).
  @inline(__always) static func _bounds(_ lean: borrowing InlineArray<11, Interval>) -> Box {
    let x0 = lean[2]
    let x1 = lean[2] + lean[4]
    let y0 = lean[3]
    let y1 = lean[3] + lean[5]
    return Box(
      minX: Swift.min(x0.lo, x1.lo), minY: Swift.min(y0.lo, y1.lo), maxX: Swift.max(x0.hi, x1.hi),
      maxY: Swift.max(y0.hi, y1.hi))
  }

  /// A moving layer's map, kind and boxes from its level map over the window (nil: none, the
  /// layer unbounded) and local bounds, its parent computed; answers `region(of: m, local:
  /// region)`.
  @inline(__always) func _place(
    _ m: Int, _ p: Int, _ clips: Bool, _ parentClip: Box, _ level: IntervalAffine?, _ local: Box, _ region: Box
  ) -> Box {
    var regionImage = Box.nothing
    var box = Box.everything
    var k = MapKind.unbounded
    let parentKind = p < 0 ? MapKind.interval : kind[p]
    if parentKind == .never {
      box = .nothing
      k = .never
    } else if let level, local.minX.isFinite, local.minY.isFinite, local.maxX.isFinite, local.maxY.isFinite {
      // A level that only translates, under a parent that only does (or none): the layer only
      // translates, by the sums of the two (`concat`'s intervals, bit for bit: a point 1 times
      // an interval is the interval, a point 0 times a bounded one is zero).
      let translates = _shifts && level.onlyTranslates
      if p < 0 {
        if translates {
          shift[m] = _Shift(x: level.tx, y: level.ty)
          k = .translated
        } else {
          map[m] = level
          k = .interval
        }
      } else if parentKind == .interval {
        map[m] = IntervalAffine.concat(level, map[p])
        k = .interval
      } else if parentKind == .translated {
        if translates {
          shift[m] = _Shift(x: level.tx + shift[p].x, y: level.ty + shift[p].y)
          k = .translated
        } else {
          map[m] = IntervalAffine.concat(level, shift[p].map)
          k = .interval
        }
      } else if parentKind == .exact {
        lazy.ensure(p)
        // (Read here: the frame is a class reference two objects deep, retained where read.)
        let f = lazy.frame
        if !f.flags[p].contains(.reachable) {
          // Under a fixed layer that can never be hit into: never a candidate.
          box = .nothing
          k = .never
        } else if !f.flags[p].contains(.worldProjective) {
          let w = f.toWorld[p]
          if translates && w.a == 1 && w.b == 0 && w.c == 0 && w.d == 1 {
            shift[m] = _Shift(x: level.tx + Interval(w.tx), y: level.ty + Interval(w.ty))
            k = .translated
          } else {
            map[m] = IntervalAffine.concat(level, IntervalAffine(w))
            k = .interval
          }
        } else {
          // A moving layer under a fixed projective parent: its box in the parent's space,
          // through the parent's exact homography (its sublayers are not bounded).
          map[m] = level
          k = .projected
          box = _projected(p, level.box(of: local))
        }
      }
      if k == .translated { return _finishTranslated(m, clips, parentClip, local, region) }
      if k == .interval {
        if Self._regionStandsFor(local, region, clips) {
          regionImage = map[m].box(of: region)
          box = regionImage
        } else {
          (box, regionImage) = map[m].boxes(of: local, region)
        }
      }
    }
    return _finish(m, k, box, regionImage, clips, parentClip, region)
  }

  /// Whether a layer's box may be its region's image: a region holding the layer's own bounds
  /// (a group's hull holds its root's) has an image holding the layer's, and a layer that does
  /// not clip passes only its parent's clip down (a group's bound is their union).
  @inline(__always) static func _regionStandsFor(_ local: Box, _ region: Box, _ clips: Bool) -> Bool {
    !clips && region.minX <= local.minX && region.minY <= local.minY && region.maxX >= local.maxX
      && region.maxY >= local.maxY
  }

  /// Every placement's end: layer m's kind, box (clipped by its parent's) and clip; answers
  /// `region(of: m, local: region)`, `regionImage` clipped where the map is an interval one.
  @inline(__always) func _finish(
    _ m: Int, _ k: MapKind, _ box: Box, _ regionImage: Box, _ clips: Bool, _ parentClip: Box, _ region: Box
  ) -> Box {
    if box.minX == -.infinity && box.maxX == .infinity { unbounded += 1 }
    kind[m] = k
    let clipped = _faulty(box.intersection(parentClip))
    boxes[m] = clipped
    // (The clip from the value, not read back: a store of four doubles read as two pairs
    // stalls the load.)
    let clip = clips ? clipped : parentClip
    clipBox[m] = clip
    if region.isEmpty { return .nothing }
    return k == .interval || k == .translated ? regionImage.intersection(clip) : self.region(of: m, local: region)
  }

  /// `_place`'s end for a layer whose translation is in `shift[m]`: its kind, boxes and clip;
  /// answers `region(of: m, local: region)`.
  @inline(__always) func _finishTranslated(_ m: Int, _ clips: Bool, _ parentClip: Box, _ local: Box, _ region: Box)
    -> Box
  {
    let moved = shift[m]
    if Self._regionStandsFor(local, region, clips) {
      let image = moved.box(of: region)
      return _finish(m, .translated, image, image, clips, parentClip, region)
    }
    let image = region.isEmpty ? Box.nothing : moved.box(of: region)
    return _finish(m, .translated, moved.box(of: local), image, clips, parentClip, region)
  }

  /// A box in layer m's own space, in the world: through m's exact maps in the lazy frame
  /// (`ConservativeBox`: the whole plane unless every corner is in front of the viewer).
  func _projected(_ m: Int, _ b: Box) -> Box {
    guard b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { return .everything }
    let f = lazy.frame
    return ConservativeBox.projective(f.toWorldMap(m), inverse: f.fromWorldMap(m), b)
  }

  /// A layer timing's local times for parent times in `t` (`layerLocalTime`): the linear map
  /// of the ends, or with a finite duration anywhere in one iteration.
  static func _layerTimes(_ timing: MediaTiming, _ t: Interval) -> Interval {
    guard t.isBounded else { return .everything }
    if timing.duration.isFinite && timing.duration > 0 {
      return Interval(0, timing.duration)
    }
    let a = timing.localTime(fromParent: t.lo)
    let b = timing.localTime(fromParent: t.hi)
    let r = Interval(Swift.min(a, b), Swift.max(a, b))
    return r.isBounded ? r.padded : .everything
  }
}

/// A translation by intervals (`MotionBounds.shift`): every map moving the plane by an x in
/// `x` and a y in `y`.
struct _Shift {
  var x: Interval
  var y: Interval

  /// The map as an interval map (the identity's entries and this translation).
  var map: IntervalAffine {
    IntervalAffine(a: Interval(1), b: Interval(0), c: Interval(0), d: Interval(1), tx: x, ty: y)
  }

  /// `map.box(of:)`: the same box.
  @inline(__always) func box(of l: Box) -> Box {
    IntervalAffine.translatedBox(of: l, x, y) ?? map.box(of: l)
  }
}

/// A held layer's placement (`MotionBounds.held`): its level map and local bounds, for the
/// sides its records were on.
struct _HeldPlacement {
  var valid = false
  var sides: UInt64 = 0
  var level = IntervalAffine(.identity)
  var local = Box.nothing
  /// `level` only translates, by a bounded translation (`MotionBounds.shift`).
  var translates = false
}
