import LayerModel
import Presentation

/// Time-aware, rebuilt once per window: the moving groups' window boxes (where each group can be
/// at any time of the window, from the animations' structure: `MotionBounds`) in a uniform
/// grid, rebuilt when the clock leaves the window; the fixed layers in a static grid built once;
/// each moving group's members in a static grid of its own space (`MotionGroups`). A query
/// looks up both grids, maps the point into each group whose box holds it, and runs the exact
/// test on the lazily evaluated candidates, highest rank first.
///
/// The window's length follows the costs it trades: each window measures its rebuild time and
/// counts its candidates per frame; when the rebuild's share of a frame exceeds the candidates'
/// (estimated at 100 ns each) the next window is twice as long, when it is less than a quarter
/// of it half as long (from 1/120 s to 4 s). Update: O(1) inside a window, O(moving groups x
/// depth) when it rebuilds. Query: O(grid cell + candidates).
public struct WindowGrid: SceneStrategy {
  public static let name = "window-grid"
  public static let summary =
    "time-aware: the moving groups' bounds over a time window in a grid rebuilt once per window; fixed layers indexed once"
  public static let family = StrategyFamily.timeAware

  @usableFromInline var state: _WindowState?

  public init() {}

  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics) {
    state = _WindowState(MotionGroups(scene: scene, semantics: semantics))
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let s = state else { preconditionFailure("window-grid: update before attach") }
    s.update(at: time, animated: animated)
  }

  /// Updated, and the scene has not changed since (its groups would no longer describe it).
  public var isCurrent: Bool { state?.isCurrent ?? false }

  public var memoryFootprint: Int { state?.memoryFootprint ?? 0 }

  public var counters: StrategyCounters { state?.counters ?? StrategyCounters() }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let s = state else { return nil }
    return s.hitTest(p, counter: &counter)
  }
}

/// The window grid's state (a class: queries are non-mutating and count candidates).
@usableFromInline final class _WindowState {
  let groups: MotionGroups
  let grid = BoxGrid()
  let boxes = ScratchBuffer<Box>()
  var windowStart = Double.nan
  var windowEnd = Double.nan
  var length = WindowLength()
  var updated = false
  var counters = StrategyCounters()
  var animated = true

  init(_ groups: MotionGroups) {
    self.groups = groups
    boxes.reserve(groups.root.count)
  }

  var memoryFootprint: Int { grid.memoryFootprint + boxes.capacity * MemoryLayout<Box>.stride }

  func update(at t: Double, animated: Bool) {
    let changed = groups.refresh()
    if changed { boxes.reserve(groups.root.count) }
    groups.lazy.prepare(at: t, animated: animated)
    groups.motion.animated = animated
    counters = StrategyCounters()
    if changed || !(t >= windowStart && t < windowEnd) || animated != self.animated {
      length.windowEnded()
      let t0 = monotonicNanoseconds()
      _rebuild(from: t, animated: animated)
      length.reindexNs = monotonicNanoseconds() &- t0
    }
    length.frames += 1
    counters.windowSeconds = length.seconds
    self.animated = animated
    updated = true
    version = groups.scene.changeVersion
  }

  var version = -1
  var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  func _rebuild(from t: Double, animated: Bool) {
    let g = groups
    let b = boxes.base
    let end = t + length.seconds
    var unbounded = 0
    // The model tree (`animated: false`) does not move: the boxes at t hold for any window.
    let to = animated ? end : t
    for k in 1..<g.root.count {
      let r = Int(g.root[k])
      _ = g.motion.box(of: r, from: t, to: to)
      if g.motion.isUnbounded(r) { unbounded += 1 }
      b[k] = g.windowBox(k)
    }
    b[0] = .nothing
    grid.rebuild(b, count: g.root.count)
    windowStart = t
    windowEnd = end
    counters.reindexed = g.movingCount
    counters.unbounded = unbounded
  }

  @inline(__always)
  func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    let g = groups
    var best = MotionGroups.Best()
    var candidates = 0
    g.query(group: 0, p, &best, candidates: &candidates, counter: &counter)
    let b = boxes.base
    // Both lists are in descending group index: with a static order, stop at the first group
    // no group before it can beat.
    let ordered = g.lazy.orderIsStatic
    var scanned = 0
    for i in grid.lookup(p) {
      let k = Int(grid.entries.base[i])
      if ordered && g.prefixMaxRank[k] <= best.rank { break }
      scanned &+= 1
      counter.tested(1)
      guard b[k].holds(p) else { continue }
      g.query(group: k, p, &best, candidates: &candidates, counter: &counter)
    }
    for k in grid.overflowEntries {
      if ordered && g.prefixMaxRank[Int(k)] <= best.rank { break }
      scanned &+= 1
      counter.tested(1)
      guard b[Int(k)].holds(p) else { continue }
      g.query(group: Int(k), p, &best, candidates: &candidates, counter: &counter)
    }
    length.scanned &+= scanned
    counters.candidates &+= candidates
    counters.presentations = g.lazy.evaluations
    length.candidates &+= candidates
    return best.layer >= 0 ? LayerID(Int32(best.layer)) : nil
  }
}
