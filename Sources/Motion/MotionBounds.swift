import Columns
import LayerModel
@_spi(FaultInjection) import Presentation

/// Conservative world boxes over a time window: for each layer and window [t0, t1], a box
/// holding every point where the layer can be a candidate at any time in the window. Derived
/// from the animations' structure, never by sampling (docs/time-aware.md):
/// - local time intervals through the layer timings;
/// - each animation's reachable values for those times (`FrozenAnimationProgram.widen`: the
///   progress sub-interval when the window stays inside one iteration; key hulls of the
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

  /// Per layer: the layer or an ancestor has animations (its box can change with time).
  var moves = ColumnBuffer<Bool>()
  /// Boxes of the layers that never move (computed once per scene change).
  var fixedBox = ColumnBuffer<Box>()
  /// Per layer, for the last window computed: local times, world map (interval entries) and
  /// its kind, box.
  var localTimes = ColumnBuffer<Interval>()
  var map = ColumnBuffer<IntervalAffine>()
  var kind = ColumnBuffer<MapKind>()
  var clipBox = ColumnBuffer<Box>()
  package private(set) var boxes = ColumnBuffer<Box>()
  var chain = ColumnBuffer<Int32>()
  /// Per layer: its own motion is piecewise linear in clock time, under a fixed parent with an
  /// affine world map (`linearBounds`).
  var piecewiseLinear = ColumnBuffer<Bool>()
  var breakTimes = ColumnBuffer<Double>()
  var breakProgress = ColumnBuffer<Double>()
  static let maximumBreakpoints = 64
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
    kind.reserve(n, filling: .exact)
    clipBox.reserve(n, filling: .everything)
    boxes.reserve(n, filling: .nothing)
    chain.reserve(n + 1, filling: 0)
    computed.reserve(n, filling: 0)
    _windowStamp = 0
    _lastWindow = Interval(.nan)
    let f = lazy.frame
    for m in 0..<n {
      let p = Int(scene.parent[m])
      moves[m] = scene.bits[m].contains(.animated) || (p >= 0 && moves[p])
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
    piecewiseLinear.reserve(n, filling: false)
    breakTimes.reserve(Self.maximumBreakpoints, filling: 0)
    breakProgress.reserve(Self.maximumBreakpoints, filling: 0)
    for m in 1..<Swift.max(n, 1) where scene.bits[m].contains(.animated) {
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
    }
    _version = scene.changeVersion
    _checkInvariants()
  }

  /// Exact linear bounds over [t0, t1] for a layer whose motion is piecewise linear in time
  /// (one lean basic animation or linear keyframe track without timing functions, under a fixed
  /// parent): the boxes at t0 and t1 of its bounds and of `region` (a box in its own space that
  /// moves with it, such as its sublayers' hull), moved out by the most the box at any
  /// breakpoint inside (a key time or an iteration end, where the motion bends or jumps) sticks
  /// out of the straight interpolation. Between breakpoints the boxes move linearly, so the
  /// interpolated box, so widened, holds them at every time of the segment. nil when the layer
  /// does not qualify or the animation is not inside its active period for the whole segment.
  /// Not clipped by clipping ancestors. About one layer evaluation per breakpoint.
  public func linearBounds(of m: Int, region: Box? = nil, from t0: Double, to t1: Double) -> (start: Box, end: Box)? {
    guard animated, piecewiseLinear[m], t1 > t0 else { return nil }
    let program = scene.animations
    let k = Int(scene.animationStart[m])
    // Where Double resolves the local time too coarsely for the segment (huge offsets or clock
    // times), the evaluated motion is a staircase the lines cannot be trusted to hold.
    let dt = program.clockTimeError(k, from: t0, to: t1)
    guard dt * 0x1p20 <= t1 - t0,
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
    // The interpolation's rounding, relative to the coordinates, and the local time's.
    let late = 2 * slope * dt
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
          maxY: b1.maxY + out.maxY + padY))
    )
  }

  /// Whether neither layer m nor any ancestor clips what is under it (masks, or semantics that
  /// test a point inside a layer before its sublayers): then `linearBounds`, which are not
  /// clipped, are never wider than the clipped window box. O(depth).
  public func isUnclipped(_ m: Int) -> Bool {
    var a = m
    while a >= 0 {
      if _clips(a) { return false }
      a = Int(scene.parentColumn[a])
    }
    return true
  }

  /// Whether layer m clips its sublayers' boxes: it masks, or the semantics test a point inside
  /// a layer before descending into it.
  @inline(__always) func _clips(_ m: Int) -> Bool {
    scene.bits[m].contains(.masks) || semantics.requiresPointInsideBeforeDescending
  }

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

  /// The world box of a piecewise-linear layer's bounds and `region` (their union), its
  /// animation at progress f: the lean closed-form level map under the parent's exact world
  /// map, the corners' box, padded (nil when singular or not finite).
  func _linearBox(_ m: Int, _ k: Int, _ f: Double, _ parent: AffineMap, _ region: Box?) -> Box? {
    var v = scene.lean[m]
    scene.animations.leanValue(k, progress: f, &v)
    let t = scene.affineTransform(m)
    let ax = v.v[2] + v.v[6] * v.v[4]
    let ay = v.v[3] + v.v[7] * v.v[5]
    let level = AffineMap(
      a: t.a, b: t.b, c: t.c, d: t.d, tx: -ax * t.a - ay * t.c + t.tx + v.v[0], ty: -ax * t.b - ay * t.d + t.ty + v.v[1]
    )
    let w = AffineMap.concat(level, parent)
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
    // One map, not a set: the frame's own padding (`ConservativeBox.affine`, the corners'
    // rounding and the exact test's) holds what the test accepts, at about half the interval
    // arithmetic's cost (docs/optimisation-log.md, entry 37).
    guard let inverse = w.inverted else { return nil }
    let b = ConservativeBox.affine(w, inverse: inverse, local)
    guard b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { return nil }
    return b
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
    for m in 0..<scene.count {
      _computeLayer(m, window)
      computed[m] = _windowStamp
    }
    _checkInvariants()
    return unbounded
  }

  /// Layer m's box for the window [t0, t1], computing its ancestors for that window on the way
  /// (O(depth) the first time in a window: ancestors computed for the same window are reused);
  /// other layers' results for earlier windows may be overwritten.
  public func box(of m: Int, from t0: Double, to t1: Double) -> Box {
    _synchronize()
    let window = Interval(Swift.min(t0, t1), Swift.max(t0, t1))
    if window != _lastWindow {
      _lastWindow = window
      _windowStamp &+= 1
      if _windowStamp == 0 {
        for i in 0..<scene.count { computed[i] = 0 }
        _windowStamp = 1
      }
    }
    // Every ancestor not yet computed for this window, top down: a fixed one's box is known,
    // but its local times (layer timings) reach the moving layers below it.
    var n = 0
    var a = m
    while a >= 0 && computed[a] != _windowStamp {
      chain[n] = Int32(a)
      n += 1
      a = Int(scene.parent[a])
    }
    while n > 0 {
      n -= 1
      let c = Int(chain[n])
      _computeLayer(c, window)
      computed[c] = _windowStamp
    }
    return boxes[m]
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
    case .projected:
      let p = Int(scene.parent[m])
      lazy.ensure(p)
      return _projected(p, map[m].box(of: local)).intersection(clip)
    case .unbounded: return clip
    }
  }

  /// Whether layer m's box for the last window is the whole plane before clipping.
  public func isUnbounded(_ m: Int) -> Bool { kind[m] == .unbounded }

  /// One layer, its parent already computed for the same window.
  func _computeLayer(_ m: Int, _ window: Interval) {
    let p = Int(scene.parent[m])
    let f = lazy.frame
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
      return
    }
    var s = IntervalState(scene.modelState(m))
    if animated && scene.bits[m].contains(.animated) {
      scene.animations.widen(scene.animationStart[m]..<scene.animationEnd[m], &s, localTimes: times)
    }
    // The level map (the lean closed form: a 2D transform, no sublayerTransform above).
    var level: IntervalAffine?
    let parentContext =
      p >= 0 && (scene.bits[p].contains(.hasSublayerTransform) || scene.bits[p].contains(.generalAnimations))
    if s.bounded && times.isBounded && !parentContext, let e = s.affineEntries {
      let ax = s.lean[2] + s.lean[6] * s.lean[4]
      let ay = s.lean[3] + s.lean[7] * s.lean[5]
      level = IntervalAffine(
        a: e[0], b: e[1], c: e[2], d: e[3], tx: -ax * e[0] - ay * e[2] + e[4] + s.lean[0],
        ty: -ax * e[1] - ay * e[3] + e[5] + s.lean[1])
    }
    // Local bounds: standardised (min and max of origin and origin + size).
    let x0 = s.lean[2]
    let x1 = s.lean[2] + s.lean[4]
    let y0 = s.lean[3]
    let y1 = s.lean[3] + s.lean[5]
    let local = Box(
      minX: Swift.min(x0.lo, x1.lo), minY: Swift.min(y0.lo, y1.lo), maxX: Swift.max(x0.hi, x1.hi),
      maxY: Swift.max(y0.hi, y1.hi))
    var box = Box.everything
    var k = MapKind.unbounded
    let parentKind = p < 0 ? MapKind.interval : kind[p]
    if parentKind == .never {
      box = .nothing
      k = .never
    } else if let level, local.minX.isFinite, local.minY.isFinite, local.maxX.isFinite, local.maxY.isFinite {
      if p < 0 {
        map[m] = level
        k = .interval
      } else if parentKind == .interval {
        map[m] = IntervalAffine.concat(level, map[p])
        k = .interval
      } else if parentKind == .exact {
        lazy.ensure(p)
        if !f.flags[p].contains(.reachable) {
          // Under a fixed layer that can never be hit into: never a candidate.
          box = .nothing
          k = .never
        } else if !f.flags[p].contains(.worldProjective) {
          map[m] = IntervalAffine.concat(level, IntervalAffine(f.toWorld[p]))
          k = .interval
        } else {
          // A moving layer under a fixed projective parent: its box in the parent's space,
          // through the parent's exact homography (its sublayers are not bounded).
          map[m] = level
          k = .projected
          box = _projected(p, level.box(of: local))
        }
      }
      if k == .interval { box = map[m].box(of: local) }
    }
    if box.minX == -.infinity && box.maxX == .infinity { unbounded += 1 }
    kind[m] = k
    let clipped = _faulty(box.intersection(parentClip))
    boxes[m] = clipped
    clipBox[m] = clips ? clipped : parentClip
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
