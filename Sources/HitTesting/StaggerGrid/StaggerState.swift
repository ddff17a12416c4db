import Clocks
import Columns
import LayerModel
import Presentation

/// stagger-grid's state: each group's window and box, the queue of groups by window end, the
/// linked grid (a class: queries are non-mutating and count their work).
public final class _StaggerState: _TimeAwareState {
  let groups: MotionGroups
  let motion: MotionBounds
  /// Per group: its window and box.
  var start = ColumnBuffer<Double>()
  var end = ColumnBuffer<Double>()
  var box = ColumnBuffer<Box>()
  /// Groups by the end of their window, oldest first: a ring of `groups.movingCount`.
  var queue = ColumnBuffer<Int32>()
  var queueHead = 0
  let grid = LinkedBoxGrid()
  var length: WindowLength
  var initialized = false
  var updated = false
  var animated = true
  var version = -1
  public internal(set) var counters = StrategyCounters()
  /// Re-bounding time since the last adaptation of the length (every `adaptFrames` frames).
  var spent: UInt64 = 0
  static let adaptFrames = 16
  var proposals = ColumnBuffer<Int32>()

  public convenience init(scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    self.init(MotionGroups(scene: scene, semantics: semantics), options)
  }

  init(_ groups: MotionGroups, _ options: StrategyOptions) {
    self.groups = groups
    motion = MotionBounds(sharing: groups.lazy)
    length = WindowLength(pinned: options.windowSeconds, buildsInBackground: false)
  }

  public var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  public var memoryFootprint: Int {
    groups.memoryFootprint + grid.memoryFootprint + start.memoryFootprint + end.memoryFootprint
      + box.memoryFootprint + queue.memoryFootprint + proposals.memoryFootprint
  }

  /// Group g's box over [t0, t1] (its root's box and its members' region).
  func _bound(_ g: Int, from t0: Double, to t1: Double) -> Box {
    let r = Int(groups.root[g])
    _ = motion.box(of: r, from: t0, to: t1)
    if motion.isUnbounded(r) { counters.unbounded += 1 }
    return motion.box(r).union(motion.region(of: r, local: groups.hull[g]))
  }

  public func update(at t: Double, animated: Bool) {
    counters = StrategyCounters()
    let changed = groups.refresh()
    groups.lazy.prepare(at: t, animated: animated)
    motion.animated = animated
    proposals.reserve(groups.count)
    let count = groups.count
    let t0 = Clocks.monotonicNanoseconds()
    if changed || !initialized || animated != self.animated || (animated && count > 1 && t < _oldestStart) {
      _restart(at: t, animated: animated)
    } else if animated {
      // Every window that ended: re-bounded from now, queued last (never ending before the
      // last queued window, so the queue stays sorted).
      let moving = count - 1
      var reinserted = 0
      while reinserted < moving {
        let g = Int(queue[queueHead])
        guard end[g] <= t else { break }
        let tail = end[Int(queue[(queueHead + moving - 1) % moving])]
        let e = Swift.max(t + length.seconds, tail)
        let b = _bound(g, from: t, to: e)
        start[g] = t
        end[g] = e
        box[g] = b
        grid.move(g, to: b)
        queueHead = (queueHead + 1) % moving
        reinserted += 1
      }
      counters.reindexed = reinserted
    }
    spent &+= Clocks.monotonicNanoseconds() &- t0
    length.frames += 1
    if length.frames >= Self.adaptFrames {
      length.windowEnded(lastBuild: spent)
      spent = 0
    }
    counters.windowSeconds = animated ? length.seconds : 0
    self.animated = animated
    updated = true
    version = groups.scene.changeVersion
    _checkInvariants(at: t, grid: counters.windowsStarted > 0)
  }

  /// The start of the oldest window (a clock earlier than it means time went backwards).
  var _oldestStart: Double {
    let moving = groups.count - 1
    return moving > 0 ? start[Int(queue[queueHead])] : -.infinity
  }

  /// Every group's first window: ending spread evenly over one length from t (the model tree's:
  /// the box at t, for ever).
  func _restart(at t: Double, animated: Bool) {
    let count = groups.count
    let moving = count - 1
    start.reserve(count, filling: t)
    end.reserve(count, filling: .infinity)
    box.reserve(count, filling: .nothing)
    queue.reserve(Swift.max(moving, 1))
    // The first windows: group g's ends at t + length x (0.1 + 0.9 frac(g x phi)); queued by end.
    var order: [(Double, Int32)] = []
    order.reserveCapacity(moving)
    var extent = groups.hull[0]
    var size = 0.0
    var sized = 0
    for g in 1..<Swift.max(count, 1) {
      let phase = (Double(g) * 0.618_033_988_749_894_9).truncatingRemainder(dividingBy: 1)
      let e = animated ? t + length.seconds * (0.1 + 0.9 * phase) : .infinity
      let b = _bound(g, from: t, to: animated ? e : t)
      start[g] = t
      end[g] = e
      box[g] = b
      order.append((e, Int32(g)))
      if b.isFiniteAndNonEmpty {
        extent = extent.union(b)
        size += Swift.max(b.maxX - b.minX, b.maxY - b.minY)
        sized += 1
      }
    }
    order.sort { $0.0 < $1.0 }
    for (i, o) in order.enumerated() { queue[i] = o.1 }
    queueHead = 0
    // The cells follow the first windows' boxes: about their mean extent, over their extent.
    grid.reset(entries: count, extent: extent, cellSide: sized > 0 ? size / Double(sized) : 0)
    for g in 1..<Swift.max(count, 1) { grid.move(g, to: box[g]) }
    counters.reindexed = moving
    counters.windowsStarted = 1
    initialized = true
  }

  @inline(__always)
  func batch<Counter: WorkCounter, R>(_ body: (inout _StaggerQuery<Counter>) -> R) -> R {
    groups.withView { view in
      var q = _StaggerQuery<Counter>(
        search: CandidateSearch(view, groups.lazy, groups.lazy.frame), grid: grid, box: box._unsafeStorage,
        proposals: proposals._unsafeStorage)
      let r = body(&q)
      counters.candidates &+= q.search.candidates
      counters.presentations = groups.lazy.evaluations
      length.candidates &+= q.search.candidates
      length.scanned &+= q.scanned
      return r
    }
  }

  /// See `CandidateCosting`.
  public func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64) {
    let lazy = groups.lazy
    let results = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(points.count, 1))
    defer { results.deallocate() }
    var counter = NoCounter()
    lazy.prepare(at: lazy.frame.time, animated: animated)
    let before = counters.candidates
    let t0 = Clocks.monotonicNanoseconds()
    answer(points, into: results, counter: &counter)
    let t1 = Clocks.monotonicNanoseconds()
    let candidates = counters.candidates - before
    var sink = 0
    batch { (q: inout _StaggerQuery<NoCounter>) in
      for p in points { sink &+= q.proposalsOnly(p) }
    }
    let t2 = Clocks.monotonicNanoseconds()
    counters.candidates = before
    if sink < 0 { print(sink) }
    let full = t1 &- t0
    let index = t2 &- t1
    return (candidates, full > index ? full &- index : 0)
  }

  func answer<Counter: WorkCounter>(
    _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>, counter: inout Counter
  ) {
    batch { (q: inout _StaggerQuery<Counter>) in
      var i = 0
      let n = Swift.min(points.count, results.count)
      while i < n {
        results[i] = q.query(points[i], &counter)
        i &+= 1
      }
    }
  }
}
