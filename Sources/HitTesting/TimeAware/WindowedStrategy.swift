import Clocks
import Columns
import LayerModel
import Presentation

/// A time-aware strategy over windows: the moving groups' bounds over a time window (or
/// segment) in an `Index`, built for the next window on the builder's thread while the current
/// one answers (double-buffered), so the frame that crosses a window swaps two indexes instead
/// of paying a re-index; fixed layers and each group's members indexed once (`MotionGroups`).
/// A query searches the world group, then the groups whose bounds the index proposes
/// (`CandidateSearch`). `window-grid`, `linear-bvh` and the peers' `embree-motion` are this
/// with different indexes.
///
/// Update: O(1) inside a window; a swap and a posted build when one ends (the first window, a
/// time jump or a scene change builds on the calling thread). Query: the index's candidates
/// plus the groups' members, each candidate evaluated lazily once a frame.
public struct WindowedStrategy<Index: MotionIndex>: SceneStrategy, CandidateCosting {
  public static var name: String { Index.name }
  public static var summary: String { Index.summary }
  public static var family: StrategyFamily { Index.family }

  var state: _WindowedState<Index>?

  public init() {}

  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    state = _WindowedState(MotionGroups(scene: scene, semantics: semantics), options)
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let s = state else { preconditionFailure("\(Self.name): update before attach") }
    s.update(at: time, animated: animated)
  }

  /// Updated, and the scene has not changed since (its groups would no longer describe it).
  public var isCurrent: Bool { state?.isCurrent ?? false }
  public var memoryFootprint: Int { state?.memoryFootprint ?? 0 }
  public var counters: StrategyCounters { state?.counters ?? StrategyCounters() }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let s = state else { return nil }
    return s.batch { (q: inout _WindowQuery<Index, Counter>) in q.query(p, &counter) }
  }

  public func answer(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>) {
    guard let s = state, s.isCurrent else { _staleFrame(Self.name) }
    var counter = NoCounter()
    s.answer(points, into: results, counter: &counter)
  }

  public func answerCounting(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>)
    -> Int
  {
    guard let s = state, s.isCurrent else { _staleFrame(Self.name) }
    var counter = TallyCounter()
    s.answer(points, into: results, counter: &counter)
    return counter.count
  }

  public func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64) {
    guard let s = state, s.isCurrent else { return (0, 0) }
    return s.costOfCandidates(points)
  }
}

/// A windowed strategy's state (a class: queries are non-mutating and count their work).
final class _WindowedState<Index: MotionIndex> {
  let groups: MotionGroups
  let builder: WindowBuilder<Index>
  /// The window queries read, and the one the builder fills (posted for `backStart`).
  var front = WindowSlot<Index>()
  var back = WindowSlot<Index>()
  var backPosted = false
  /// The window posted for `back` (the slot's own fields are the builder's until it is done).
  var postedStart = Double.nan
  var postedEnd = Double.nan
  var length: WindowLength
  var fraction = 0.0
  var animated = true
  var initialized = false
  var updated = false
  var version = -1
  var counters = StrategyCounters()
  /// A query's index candidates (room for every group).
  var proposals = ColumnBuffer<Int32>()

  init(_ groups: MotionGroups, _ options: StrategyOptions) {
    self.groups = groups
    builder = WindowBuilder(groups: groups)
    length = WindowLength(pinned: options.windowSeconds)
  }

  deinit { builder.wait() }

  var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  var memoryFootprint: Int {
    groups.memoryFootprint + front.memoryFootprint + back.memoryFootprint + proposals.memoryFootprint
  }

  func update(at t: Double, animated: Bool) {
    counters = StrategyCounters()
    var restart = !initialized || animated != self.animated
    if groups.scene.hasPendingChanges {
      // The builder reads the scene: stop it before the changes are taken in.
      builder.wait()
      if groups.refresh() {
        builder.resynchronize()
        restart = true
      }
    }
    groups.lazy.prepare(at: t, animated: animated)
    proposals.reserve(groups.count)
    if restart {
      _restart(at: t, animated: animated)
    } else if animated && !front.holds(t) {
      if backPosted && postedStart == front.end && t >= postedStart && t < postedEnd {
        // The next window, built while this one answered: swap (the wait is a frame's only
        // cost of a re-index, and nothing when the builder kept up).
        builder.wait()
        let next = back
        back = front
        front = next
        backPosted = false
        counters.windowsStarted = 1
        length.windowEnded(lastBuild: front.buildNanoseconds)
        _postNext()
      } else {
        // A jump in time: the current window from here.
        _restart(at: t, animated: animated)
      }
    }
    fraction = front.fraction(t)
    self.animated = animated
    length.frames += 1
    counters.windowSeconds = animated ? length.seconds : 0
    counters.unbounded = front.unbounded
    counters.reindexed = counters.windowsStarted > 0 ? groups.movingCount : 0
    updated = true
    version = groups.scene.changeVersion
  }

  /// Builds the window from t on this thread, and posts the next.
  func _restart(at t: Double, animated: Bool) {
    builder.wait()
    backPosted = false
    builder.buildNow(front, from: t, to: t + length.seconds, animated: animated)
    counters.windowsStarted = 1
    initialized = true
    if animated { _postNext() }
  }

  /// Posts the window after the front one to the builder.
  func _postNext() {
    postedStart = front.end
    postedEnd = front.end + length.seconds
    builder.post(back, from: postedStart, to: postedEnd, animated: true)
    backPosted = true
  }

  /// Runs `body` with a search over the groups and the front window (one view per batch).
  @inline(__always)
  func batch<Counter: WorkCounter, R>(_ body: (inout _WindowQuery<Index, Counter>) -> R) -> R {
    groups.withView { view in
      var q = _WindowQuery<Index, Counter>(
        search: CandidateSearch(view, groups.lazy, groups.lazy.frame), slot: front, fraction: fraction,
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
  func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64) {
    let lazy = groups.lazy
    let time = lazy.frame.time
    let results = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(points.count, 1))
    defer { results.deallocate() }
    var counter = NoCounter()
    lazy.prepare(at: time, animated: animated)
    let before = counters.candidates
    let t0 = Clocks.monotonicNanoseconds()
    answer(points, into: results, counter: &counter)
    let t1 = Clocks.monotonicNanoseconds()
    let candidates = counters.candidates - before
    var sink = 0
    batch { (q: inout _WindowQuery<Index, NoCounter>) in
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
    batch { (q: inout _WindowQuery<Index, Counter>) in
      var i = 0
      let n = Swift.min(points.count, results.count)
      while i < n {
        results[i] = q.query(points[i], &counter)
        i &+= 1
      }
    }
  }
}

/// One batch's queries against a window: the search, the slot's columns as plain pointers, and
/// the proposals buffer.
struct _WindowQuery<Index: MotionIndex, Counter: WorkCounter> {
  var search: CandidateSearch<Counter>
  unowned(unsafe) let slot: WindowSlot<Index>
  let bound: UnsafePointer<LinearBox>
  let entryGroup: UnsafePointer<Int32>
  let outside: UnsafePointer<Int32>
  let outsideCount: Int
  let fraction: Double
  let proposals: UnsafeMutablePointer<Int32>
  var scanned = 0

  @inline(__always)
  init(
    search: CandidateSearch<Counter>, slot: WindowSlot<Index>, fraction: Double, proposals: UnsafeMutablePointer<Int32>
  ) {
    self.search = search
    self.slot = slot
    bound = UnsafePointer(slot.bound._unsafeStorage)
    entryGroup = UnsafePointer(slot.entryGroup._unsafeStorage)
    outside = UnsafePointer(slot.outside._unsafeStorage)
    outsideCount = slot.outside.count
    self.fraction = fraction
    self.proposals = proposals
  }

  @inline(__always)
  mutating func query(_ p: Point, _ counter: inout Counter) -> LayerID? {
    search.reset()
    search.group(0, p, &counter)
    let s = fraction
    let n = slot.index.candidates(p, at: s, into: proposals)
    scanned &+= n &+ outsideCount
    var k = 0
    while k < n {
      let g = Int(entryGroup[Int(proposals[k])])
      k &+= 1
      // Proposals in descending group order: no group from here can beat the best found.
      if Index.isOrdered && search.nothingUpTo(g) { break }
      counter.tested(1)
      if bound[g].holds(p, at: s) { search.group(g, p, &counter) }
    }
    var j = 0
    while j < outsideCount {
      let g = Int(outside[j])
      j &+= 1
      counter.tested(1)
      if search.canBeat(g) && bound[g].holds(p, at: s) { search.group(g, p, &counter) }
    }
    return search.answer
  }

  /// The index's work for p alone (its proposals and their bound tests): what
  /// `costOfCandidates` subtracts.
  @inline(__always)
  mutating func proposalsOnly(_ p: Point) -> Int {
    let s = fraction
    let n = slot.index.candidates(p, at: s, into: proposals)
    var held = 0
    var k = 0
    while k < n {
      let g = Int(entryGroup[Int(proposals[k])])
      if bound[g].holds(p, at: s) { held &+= 1 }
      k &+= 1
    }
    var j = 0
    while j < outsideCount {
      if bound[Int(outside[j])].holds(p, at: s) { held &+= 1 }
      j &+= 1
    }
    return held
  }
}
