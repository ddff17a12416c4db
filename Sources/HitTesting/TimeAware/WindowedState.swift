import Clocks
import Columns
import LayerModel
import Presentation
import Tracing

/// A windowed strategy's state (a class: queries are non-mutating and count their work).
public final class _WindowedState<Index: MotionIndex>: _TimeAwareState {
  let groups: MotionGroups
  let builder: WindowBuilder<Index>
  /// The window queries read, and the one the builder fills (posted for `backStart`).
  var front = WindowSlot<Index>()
  var back = WindowSlot<Index>()
  var backPosted = false
  /// The window posted for `back` (the slot's own fields are the builder's until it is done):
  /// it takes over at `postedStart`, hands over at `postedHandover`, and its bounds span to
  /// `postedEnd`, an overlap past its hand-over (`WindowLength.overlap`).
  var postedStart = Double.nan
  var postedHandover = Double.nan
  var postedEnd = Double.nan
  /// When the front window gives way to the next: its bounds hold on to `front.end`, so a
  /// frame between the two answers exactly from it while the next is still being built.
  var handover = Double.nan
  var length: WindowLength
  var fraction = 0.0
  var animated = true
  var initialized = false
  var updated = false
  /// The group count both slots have been built for (their memory faulted in).
  var _warmedGroups = 0
  var version = -1
  public internal(set) var counters = StrategyCounters()

  public convenience init(scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    self.init(MotionGroups(scene: scene, semantics: semantics), options)
  }

  init(_ groups: MotionGroups, _ options: StrategyOptions) {
    self.groups = groups
    builder = WindowBuilder(groups: groups)
    length = WindowLength(pinned: options.windowSeconds, cost: options.windowCost, overlap: options.windowOverlap)
  }

  deinit { builder.wait() }

  public var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  /// The front window's index (a value sharing its storage; the front slot is not rebuilt
  /// while a batch runs).
  @usableFromInline var _frontIndex: Index { front.index }

  public var memoryFootprint: Int {
    groups.memoryFootprint + front.memoryFootprint + back.memoryFootprint
  }

  public func update(at t: Double, animated: Bool) {
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
    if restart {
      _restart(at: t, animated: animated)
    } else if animated && !(front.holds(t) && t < handover) {
      let next = backPosted && postedStart == handover && t >= postedStart && t < postedEnd
      if next && !builder.isIdle && front.holds(t) {
        // Past the hand-over, the next window still being built: the front one's bounds span
        // its overlap, so this frame answers from it exactly, and does not wait.
        counters.lateFrames = 1
        if Trace.isOn { Trace.instant(.lateWindow, at: Clocks.monotonicNanoseconds()) }
      } else if next {
        // The next window, built while this one answered: swap (nothing to wait for when the
        // builder kept up; a wait only past the overlap too).
        if !builder.isIdle {
          counters.waitedFrames = 1
          if Trace.isOn { Trace.instant(.waitedWindow, at: Clocks.monotonicNanoseconds()) }
        }
        builder.wait()
        let served = handover - front.start
        let span = front.end - front.start
        let next = back
        back = front
        front = next
        handover = postedHandover
        backPosted = false
        counters.windowsStarted = 1
        length.windowEnded(lastBuild: front.buildNanoseconds, endedSeconds: served, endedSpan: span)
        _postNext(now: t)
      } else {
        // A jump in time: the current window from here.
        _restart(at: t, animated: animated)
      }
    }
    fraction = front.fraction(t)
    self.animated = animated
    length.frameStarted(wall: Clocks.monotonicNanoseconds(), clock: t)
    counters.windowSeconds = animated ? length.seconds : 0
    counters.unbounded = front.unbounded
    counters.reindexed = counters.windowsStarted > 0 ? groups.movingCount : 0
    updated = true
    version = groups.scene.changeVersion
  }

  /// Builds the window from t on this thread, and posts the next. The first time for this
  /// many groups, the back slot is built too, for the same window: a slot's first build faults
  /// its memory in (at a million particles 530 ms against 90 for the next), and here it is
  /// paid in the frame that builds anyway, not by a frame waiting for the builder.
  func _restart(at t: Double, animated: Bool) {
    builder.wait()
    backPosted = false
    handover = t + length.seconds
    let end = handover + length.overlapSeconds(from: t, now: t, built: true)
    builder.buildNow(front, from: t, to: end, animated: animated)
    // Until a window has ended, this build (with its first pieces and faults, more than the
    // next will take) stands for the next one's in the next window's overlap.
    if length.buildClockSeconds == nil { length.buildClockSeconds = Double(front.buildNanoseconds) / 1e9 }
    if animated && _warmedGroups < groups.count {
      builder.buildNow(back, from: t, to: end, animated: animated)
      _warmedGroups = groups.count
    }
    counters.windowsStarted = 1
    initialized = true
    if animated { _postNext(now: t) }
  }

  /// Posts the window after the front one to the builder, at clock time `now`.
  func _postNext(now: Double) {
    postedStart = handover
    postedHandover = handover + length.seconds
    postedEnd = postedHandover + length.overlapSeconds(from: postedStart, now: now, built: false)
    builder.post(back, from: postedStart, to: postedEnd, animated: true)
    backPosted = true
  }

  /// A search over the groups and the front window for one batch of queries: plain pointers,
  /// valid until `_endBatch` (nothing is rebuilt in between: updates and batches alternate).
  @usableFromInline func _beginBatch() -> WindowSearch {
    WindowSearch(
      search: CandidateSearch(groups.view, groups.lazy, groups.lazy.frame), started: Clocks.monotonicNanoseconds(),
      entries: UnsafePointer(front.entries._unsafeStorage), bound: UnsafePointer(front.bound._unsafeStorage),
      outside: UnsafePointer(front.outside._unsafeStorage),
      outsideBound: UnsafePointer(front.outsideBound._unsafeStorage),
      outsideCount: front.outside.count, fraction: fraction, ordered: Index.isOrdered)
  }

  /// Takes in a batch's counts (for reports and the window length).
  @usableFromInline func _endBatch(_ search: WindowSearch) {
    search._record(into: &counters, &length, presentations: groups.lazy.evaluations)
  }

  /// See `CandidateCosting`.
  public func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64) {
    groups.lazy.prepare(at: groups.lazy.frame.time, animated: animated)
    let index = front.index
    var search = _beginBatch()
    return search._costOfCandidates(
      points, _OneWindow(fraction: search.fraction),
      query: { p, search in index.visit(p, at: search.fraction, &search) },
      held: { p, count in index.visit(p, at: count.windows.fraction, &count) })
  }
}
