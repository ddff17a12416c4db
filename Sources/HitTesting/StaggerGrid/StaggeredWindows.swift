import Clocks
import Columns
import LayerModel
import Motion
import Presentation

/// `stagger-grid`'s window policy: each moving group has a window of its own and its bounds
/// over it, listed in a linked grid by the box they span; a group is re-bounded and moved in
/// the grid when its window ends, on the frame's thread. The first windows end at times spread
/// evenly over one window length, and every later one lasts one length, so about the same
/// number of groups expire every frame. Update: O(expired groups x (depth + log groups)).
public final class _StaggeredWindows: _WindowPolicy {
  let groups: MotionGroups
  let motion: MotionBounds
  /// Per group: its window, its bounds over it (exact lines where its root moves piecewise
  /// linearly under no clipping ancestor, else the window box at both ends) and the box the grid
  /// lists it by (the hull of the two ends: for lines, exactly where it can be in the window).
  var start = ColumnBuffer<Double>()
  var end = ColumnBuffer<Double>()
  var line = ColumnBuffer<LinearBox>()
  var box = ColumnBuffer<Box>()
  /// Per group: what a query reads of it before its candidates (`WindowEntry`; the grid's
  /// entries are the groups, so a query reads keys and bounds by group, as `WindowSearch` does).
  var entries = ColumnBuffer<WindowEntry>()
  /// The moving groups in a binary min-heap by the end of their window (the next to expire at
  /// the top): windows of different lengths, as the length adapts, stay in order.
  var queue = ColumnBuffer<Int32>()
  /// The groups re-bounded in this frame, out of the queue until every re-bound is done.
  var rebounded = ColumnBuffer<Int32>()
  /// The clock time of the last update (an earlier one means time went backwards: restart).
  var lastTime = -Double.infinity
  let grid = LinkedBoxGrid()
  /// Unbounded groups among those bounded this frame (for its counters).
  var unbounded = 0
  /// Re-bounding time since the last adaptation of the length.
  var spent: UInt64 = 0
  /// Frames between adaptations of the length: 2 after a restart, doubling to `adaptFrames`.
  /// The first length is a guess, and every group's first window ends within it: decided only
  /// after 16 frames, windows of a length far below the balance were re-bounded for 16 frames
  /// and more (app 10k, one query a frame: 150-350 us updates for 40 frames against 30 us
  /// after, the run's p99 4.4x its mean against 1.9x with the settled length pinned;
  /// docs/optimisation-log.md, entry 85).
  var adaptAfter = 2
  static let adaptFrames = 16
  /// Re-bounds since the groups were made (the spread's sequence).
  var rebounds = 0
  /// The share of a length a re-bounded window may be shorter by.
  static let endSpread = 0.25

  /// The k-th number of a low-discrepancy sequence in [0, 1) (the golden ratio's multiples).
  @inline(__always) static func _phase(_ k: Int) -> Double {
    (Double(k) * 0.618_033_988_749_894_9).truncatingRemainder(dividingBy: 1)
  }

  public static var buildsInBackground: Bool { false }

  public init(_ groups: MotionGroups, _ options: StrategyOptions) {
    self.groups = groups
    motion = MotionBounds(sharing: groups.lazy)
  }

  public var memoryFootprint: Int {
    grid.memoryFootprint + start.memoryFootprint + end.memoryFootprint + line.memoryFootprint + box.memoryFootprint
      + queue.memoryFootprint + rebounded.memoryFootprint + entries.memoryFootprint
  }

  // The motion bounds take the scene's changes in as they next bound (nothing runs beside).
  public func sceneWillChange() {}
  public func sceneDidChange() {}

  /// The scene's animations for a frame's re-bounds (`_set`), read once after the scene's
  /// changes are taken in (a change may compile them anew); the bounds then find nothing more
  /// to take in.
  func _synchronizedAnimations() -> FrozenAnimationProgram {
    motion.resynchronize()
    return motion.scene.animations
  }

  /// Sets group g's window [t0, t1] and its bounds over [t0, `boundedTo`] (its root's and its
  /// members' region; a window box over [t0, `boxedTo`], the span the frame's groups share), by
  /// window-grid's rule (`MotionBounds._linearWhereExact`), with its key's `exactWithin` (the
  /// grid is the caller's).
  /// `program` is the scene's animations, read once for the frame's re-bounds.
  @inline(__always) func _set(
    _ g: Int, from t0: Double, to t1: Double, boundedTo last: Double, boxedTo span: Double,
    _ program: FrozenAnimationProgram
  ) {
    let (b, unbounded, exactWithin) = motion._linearWhereExact(groups, g, from: t0, to: last, boxedTo: span, program)
    if unbounded { self.unbounded += 1 }
    start[g] = t0
    end[g] = t1
    line[g] = b
    box[g] = b.start.union(b.end)
    entries[g] = WindowEntry(g, of: groups, exactWithin: exactWithin)
  }

  public func advance(_ state: _TimeAwareState<_StaggeredWindows>, to t: Double) {
    let count = groups.count
    if count > 1 && t < lastTime {
      restart(state, at: t, animated: true)
      return
    }
    let t0 = Clocks.monotonicNanoseconds()
    motion.animated = true
    // Every window that ended: re-bounded from now for one length, off the heap until every
    // re-bound of the frame is done. (A
    // window just set at t can end at t where t + length rounds to t: it holds t.) And ahead
    // of time, the windows ending next, at the rate windows end on average (the moving groups
    // times this frame's share of a length): groups re-bounded in
    // one frame end in one frame a length later, so without it their re-bounds stay bunched
    // and one frame in a few pays hundreds of them (app 10k: 900 us updates against a 5 us
    // median; docs/optimisation-log.md entry 75). A window re-bounded early is as exact.
    let length = state.length.seconds
    let moving = count - 1
    let dt = t - lastTime
    let share = dt > 0 && length > 0 ? Swift.min(dt / length, 1) : 0
    let ahead = share > 0 ? Int((Double(moving) * share).rounded(.up)) : 0
    var reinserted = 0
    // The heap's first `queued` slots; the groups re-bounded this frame wait in `rebounded`
    // until the loop is done. Sifted back in at once, a group given a length shorter than the
    // others' (the length just shrank) came back on top and ended the loop: one re-bound a
    // frame where `ahead` asked for thousands, so the length's balance read re-bounds as free
    // and shrank it further, to the shortest, until the long windows ended together and every
    // group was re-bounded every other frame (particles 10k: 3 ms updates for 20 frames;
    // docs/optimisation-log.md, entry 99).
    var queued = moving
    let program = _synchronizedAnimations()
    while queued > 0 {
      let g = Int(queue[0])
      guard end[g] <= t || reinserted < ahead else { break }
      queued -= 1
      queue[0] = queue[queued]
      _siftDown(0, queued)
      // Lengths spread over the last quarter of a length (a low-discrepancy sequence over the
      // re-bounds): a bunch re-bounded in one frame then ends over a quarter of a length, and
      // less bunched each time round. Growing lengths left bunches the average rate does not
      // drain (app 10k: windows re-bounded 129 a frame at 0.27 s, ending together 0.27 s later
      // when the rate was 15 a frame: 230-330 us updates against 60; entry 85). A window box
      // is taken over the whole length, the span this frame's groups share: their moving
      // ancestors are then bounded once a frame, not once for each group under them (app 10k:
      // 6,460 instructions a re-bound, against window-grid's 1,590 a group; entry 91).
      rebounds &+= 1
      let e = t + length * (1 - Self.endSpread * Self._phase(rebounds))
      _set(g, from: t, to: e, boundedTo: e, boxedTo: t + length, program)
      grid.move(g, to: box[g])
      rebounded[reinserted] = Int32(g)
      reinserted += 1
    }
    for k in 0..<reinserted {
      queue[queued] = rebounded[k]
      _siftUp(queued)
      queued += 1
    }
    state.counters.reindexed = reinserted
    spent &+= Clocks.monotonicNanoseconds() &- t0
  }

  public func updated(_ state: _TimeAwareState<_StaggeredWindows>, at t: Double) {
    lastTime = t
    state.counters.unbounded = unbounded
    unbounded = 0
    state.length.frames += 1
    if state.length.frames >= adaptAfter {
      // Before the length has settled, at most 2x longer a step: a longer window's cost to the
      // queries shows only as its groups are re-bounded, and a step of 3-8x on two frames'
      // counts sent particles' windows to 1 s (candidates 3 -> 13 a query over the run).
      state.length.windowEnded(lastBuild: spent, growingAtMost: adaptAfter < Self.adaptFrames ? 2 : 8)
      spent = 0
      adaptAfter = Swift.min(2 * adaptAfter, Self.adaptFrames)
    }
    _checkInvariants(at: t, animated: state.animated, grid: state.counters.windowsStarted > 0)
  }

  /// Whether group a's window ends before group b's (ties by group, so the order is total).
  @inline(__always) func _endsBefore(_ a: Int32, _ b: Int32) -> Bool {
    let x = end[Int(a)]
    let y = end[Int(b)]
    return x < y || (x == y && a < b)
  }

  /// Restores the heap above slot i after its group was placed there. O(log n); O(1) for a
  /// window ending after its parent's (a length's end, later than most).
  func _siftUp(_ i: Int) {
    var i = i
    let g = queue[i]
    while i > 0 {
      let parent = (i - 1) / 2
      guard _endsBefore(g, queue[parent]) else { break }
      queue[i] = queue[parent]
      i = parent
    }
    queue[i] = g
  }

  /// Restores the heap below slot i after its group's window end grew. O(log n).
  func _siftDown(_ i: Int, _ n: Int) {
    var i = i
    let g = queue[i]
    while true {
      let l = 2 * i + 1
      guard l < n else { break }
      let c = l + 1 < n && _endsBefore(queue[l + 1], queue[l]) ? l + 1 : l
      guard _endsBefore(queue[c], g) else { break }
      queue[i] = queue[c]
      i = c
    }
    queue[i] = g
  }

  /// Every group's first window: ending spread evenly over one length from t (the model tree's:
  /// the box at t, for ever).
  public func restart(_ state: _TimeAwareState<_StaggeredWindows>, at t: Double, animated: Bool) {
    motion.animated = animated
    let length = state.length.seconds
    let count = groups.count
    let moving = count - 1
    start.reserve(count, filling: t)
    end.reserve(count, filling: .infinity)
    line.reserve(count, filling: .nothing)
    box.reserve(count, filling: .nothing)
    queue.reserve(Swift.max(moving, 1))
    rebounded.reserve(Swift.max(moving, 1))
    entries.reserve(count)
    for g in 0..<count { entries[g] = WindowEntry(g, of: groups) }
    // The first windows: group g's ends at t + length x (0.1 + 0.9 frac(g x phi)); queued by end.
    var order: [(Double, Int32)] = []
    order.reserveCapacity(moving)
    var extent = groups.hull[0]
    var size = 0.0
    var sized = 0
    let program = _synchronizedAnimations()
    for g in 1..<Swift.max(count, 1) {
      let e = animated ? t + length * (0.1 + 0.9 * Self._phase(g)) : .infinity
      _set(g, from: t, to: e, boundedTo: animated ? e : t, boxedTo: animated ? t + length : t, program)
      let b = box[g]
      order.append((e, Int32(g)))
      if b.isFiniteAndNonEmpty {
        extent = extent.union(b)
        size += Swift.max(b.maxX - b.minX, b.maxY - b.minY)
        sized += 1
      }
    }
    order.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
    // Sorted by end (ties by group, as `_endsBefore` orders them): already a heap.
    for (i, o) in order.enumerated() { queue[i] = o.1 }
    // The cells follow the first windows' boxes: about their mean extent, over their extent.
    grid.reset(entries: count, extent: extent, cellSide: sized > 0 ? size / Double(sized) : 0)
    for g in 1..<Swift.max(count, 1) { grid.move(g, to: box[g]) }
    state.counters.reindexed = moving
    state.counters.windowsStarted = 1
    // A restart bounds every group once, the frame's cost of a re-index, not the windows' share
    // a frame: the first adaptation weighs the frames' own re-bounds, 2 frames on.
    spent = 0
    state.length.beginCounting()
    adaptAfter = 2
  }

  /// A search over the groups, each through its own window, for one batch of queries: views of
  /// the columns, valid until the state's `_endBatch` (updates and batches alternate). The grid
  /// is unordered and lists every group, so nothing is outside it.
  func _beginBatch() -> _OwnWindowSearch {
    _OwnWindowSearch(
      search: WindowSearch(
        search: CandidateSearch(groups.view, groups.lazy, groups.lazy.frame), started: Clocks.monotonicNanoseconds(),
        entries: entries._unsafeBuffer, bound: line._unsafeBuffer, outside: UnsafeBufferPointer(start: nil, count: 0),
        outsideBound: UnsafeBufferPointer(start: nil, count: 0), fraction: 0, ordered: false),
      windows: _OwnWindows(start: start._unsafeBuffer, end: end._unsafeBuffer, time: groups.lazy.frame.time))
  }

  /// The groups' boxes, the grid's filter (valid until the next update).
  var _boxes: UnsafeBufferPointer<Box> { box._unsafeBuffer }

  /// See `CandidateCosting`.
  public func costOfCandidates(_ state: _TimeAwareState<_StaggeredWindows>, _ points: UnsafeBufferPointer<Point>)
    -> CandidateTimings
  {
    let own = _beginBatch()
    var search = own.search
    return search._costOfCandidates(
      points, own.windows,
      query: { p, search in
        var visit = _OwnWindowSearch(search: search, windows: own.windows)
        defer { search = visit.search }
        return grid.visit(p, boxes: _boxes, &visit)
      }, held: { p, count in grid.visit(p, boxes: _boxes, &count) })
  }

  /// The batch: each query begun, the grid's groups offered, finished; answers the groups and
  /// members tested.
  @inline(__always)
  func _answer(
    _ state: _TimeAwareState<_StaggeredWindows>, _ points: UnsafeBufferPointer<Point>,
    into results: UnsafeMutableBufferPointer<LayerID?>
  ) -> Int {
    var own = _beginBatch()
    let n = Swift.min(points.count, results.count)
    var i = 0
    while i < n {
      let p = points[i]
      own.search.begin(p)
      let looked = grid.visit(p, boxes: _boxes, &own)
      results[i] = own.search.finish(looked: looked)
      i &+= 1
    }
    state._endBatch(own.search)
    return own.search.tested
  }
}
