import LayerModel
import Presentation

/// An index over the moving groups' linear bounds for one time segment, supplied from outside
/// this module (the peers' Embree motion-blur BVH): `LinearBoundsStrategy` fits the bounds,
/// hands them over once per segment, and does the rest (fixed layers, groups' members, the
/// exact test) as `linear-bvh` does.
public protocol LinearBoundsIndex {
  static var name: String { get }
  static var summary: String { get }
  static var family: StrategyFamily { get }
  init()
  /// Makes room for up to `entries` entries (called before each rebuild with the group count,
  /// which does not change between windows: an index sized by it allocates nothing after the
  /// first). Nothing by default.
  mutating func reserve(_ entries: Int)
  /// Indexes entries 0 ..< start.count: entry i's box is `start[i]` at the segment's start and
  /// `end[i]` at its end, interpolated linearly between (all edges finite).
  mutating func rebuild(start: UnsafeBufferPointer<Box>, end: UnsafeBufferPointer<Box>)
  /// Box edges beyond this magnitude stay outside the index, tested on every query instead
  /// (a single-precision library squares coordinates: 1e15 keeps them finite). 1e30 by default.
  static var magnitudeLimit: Double { get }
  /// The entries whose box at fraction `s` of the segment may hold `p` (a superset), valid
  /// until the next call.
  func candidates(_ p: Point, at s: Double) -> UnsafeBufferPointer<Int32>
  var memoryFootprint: Int { get }
}

extension LinearBoundsIndex {
  public mutating func reserve(_ entries: Int) {}
  public static var magnitudeLimit: Double { 1e30 }
}

/// A time-aware strategy over someone else's linear-bounds index: `linear-bvh`'s segments and
/// bounds, with the moving groups' boxes indexed by `Index` instead of this module's BVH. Groups
/// with an infinite or huge edge (unbounded motion) stay outside the index, checked on every
/// query.
public struct LinearBoundsStrategy<Index: LinearBoundsIndex>: SceneStrategy {
  public static var name: String { Index.name }
  public static var summary: String { Index.summary }
  public static var family: StrategyFamily { Index.family }

  var state: _IndexedLinearState<Index>?

  public init() {}

  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics) {
    state = _IndexedLinearState(MotionGroups(scene: scene, semantics: semantics))
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let s = state else { preconditionFailure("\(Self.name): update before attach") }
    s.update(at: time, animated: animated)
  }

  public var isCurrent: Bool { state?.isCurrent ?? false }
  public var memoryFootprint: Int { state?.memoryFootprint ?? 0 }
  public var counters: StrategyCounters { state?.counters ?? StrategyCounters() }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let s = state else { return nil }
    return s.hitTest(p, counter: &counter)
  }
}

final class _IndexedLinearState<Index: LinearBoundsIndex> {
  let groups: MotionGroups
  let segment = _SegmentBounds()
  var index = Index()
  /// Entry i of the index is group `entryGroup[i]`; `outside` lists the groups kept out of it.
  let entryGroup = ScratchBuffer<Int32>()
  let outside = ScratchBuffer<Int32>()
  var outsideCount = 0
  let start = ScratchBuffer<Box>()
  let end = ScratchBuffer<Box>()
  var segmentStart = Double.nan
  var segmentEnd = Double.nan
  var fraction = 0.0
  var length = WindowLength()
  var updated = false
  var animated = true
  var counters = StrategyCounters()
  var version = -1

  /// Edges beyond this magnitude stay outside the index (single-precision libraries).
  static var limit: Double { Index.magnitudeLimit }

  init(_ groups: MotionGroups) { self.groups = groups }

  /// Every edge within the limit (a static function: a nested one capturing locals would
  /// allocate its context at every re-index).
  @inline(__always) static func _inRange(_ b: Box) -> Bool {
    Swift.abs(b.minX) <= limit && Swift.abs(b.minY) <= limit && Swift.abs(b.maxX) <= limit
      && Swift.abs(b.maxY) <= limit
  }

  var memoryFootprint: Int { segment.memoryFootprint + index.memoryFootprint + start.capacity * 64 }

  var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  func update(at t: Double, animated: Bool) {
    let changed = groups.refresh()
    groups.lazy.prepare(at: t, animated: animated)
    groups.motion.animated = animated
    counters = StrategyCounters()
    if changed || !(t >= segmentStart && t < segmentEnd) || animated != self.animated {
      length.windowEnded()
      let t0 = monotonicNanoseconds()
      _rebuild(from: t, animated: animated)
      length.reindexNs = monotonicNanoseconds() &- t0
    }
    fraction =
      segmentEnd > segmentStart ? Swift.min(Swift.max((t - segmentStart) / (segmentEnd - segmentStart), 0), 1) : 0
    length.frames += 1
    counters.windowSeconds = length.seconds
    self.animated = animated
    updated = true
    version = groups.scene.changeVersion
  }

  func _rebuild(from t: Double, animated: Bool) {
    let g = groups
    let count = g.root.count
    let stop = animated ? t + length.seconds : t
    let unbounded = segment.fit(g, from: t, to: stop)
    entryGroup.reserve(count)
    outside.reserve(count)
    start.reserve(count)
    end.reserve(count)
    var n = 0
    outsideCount = 0
    for k in 1..<Swift.max(count, 1) {
      let l = segment.leaf.base[k]
      if l.start.isEmpty && l.end.isEmpty { continue }
      if Self._inRange(l.start) && Self._inRange(l.end) && !l.start.isEmpty && !l.end.isEmpty {
        entryGroup.base[n] = Int32(k)
        start.base[n] = l.start
        end.base[n] = l.end
        n += 1
      } else {
        outside.base[outsideCount] = Int32(k)
        outsideCount += 1
      }
    }
    index.reserve(count)
    index.rebuild(
      start: UnsafeBufferPointer(start: start.base, count: n), end: UnsafeBufferPointer(start: end.base, count: n))
    segmentStart = t
    segmentEnd = animated ? stop : .infinity
    counters.reindexed = g.movingCount
    counters.unbounded = unbounded
  }

  @inline(__always)
  func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    let g = groups
    var best = MotionGroups.Best()
    var candidates = 0
    g.query(group: 0, p, &best, candidates: &candidates, counter: &counter)
    let s = fraction
    let leaf = segment.leaf.base
    let found = index.candidates(p, at: s)
    length.scanned &+= found.count &+ outsideCount
    for i in found {
      let k = Int(entryGroup.base[Int(i)])
      counter.tested(1)
      if leaf[k].holds(p, at: s) { g.query(group: k, p, &best, candidates: &candidates, counter: &counter) }
    }
    for j in 0..<outsideCount {
      let k = Int(outside.base[j])
      counter.tested(1)
      if leaf[k].holds(p, at: s) { g.query(group: k, p, &best, candidates: &candidates, counter: &counter) }
    }
    counters.candidates &+= candidates
    counters.presentations = g.lazy.evaluations
    length.candidates &+= candidates
    return best.layer >= 0 ? LayerID(Int32(best.layer)) : nil
  }
}
