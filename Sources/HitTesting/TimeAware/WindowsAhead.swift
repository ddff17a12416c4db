import Clocks
import Columns
import LayerModel
import Presentation
import Tracing

/// The window policy of `window-grid`, `linear-bvh` and `embree-motion`: one window for every
/// group, in an `Index` over their bounds (`WindowSlot`), the next built on the builder's thread
/// while the current one answers (double-buffered), so the frame that crosses a window swaps two
/// indexes instead of paying a re-index. Update: O(1) inside a window; a swap and a posted
/// build when one ends (the first window, a time jump or a scene change builds on the calling
/// thread).
public final class _WindowsAhead<Index: MotionIndex>: _WindowPolicy {
  let groups: MotionGroups
  let builder: WindowBuilder<Index>
  /// The window queries read, and the one the builder fills (posted for `postedStart`).
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
  /// Where the frame's time falls in the front window.
  var fraction = 0.0
  /// The group count both slots have been built for (their memory faulted in).
  var _warmedGroups = 0

  public static var buildsInBackground: Bool { true }

  public init(_ groups: MotionGroups, _ options: StrategyOptions) {
    self.groups = groups
    builder = WindowBuilder(groups: groups)
  }

  deinit { builder.wait() }

  /// The front window's index (a value sharing its storage; the front slot is not rebuilt
  /// while a batch runs).
  @usableFromInline var _frontIndex: Index { front.index }

  public var memoryFootprint: Int { front.memoryFootprint + back.memoryFootprint }

  public func sceneWillChange() { builder.wait() }

  public func sceneDidChange() { builder.resynchronize() }

  public func advance(_ state: _TimeAwareState<_WindowsAhead>, to t: Double) {
    guard !(front.holds(t) && t < handover) else { return }
    let next = backPosted && postedStart == handover && t >= postedStart && t < postedEnd
    if next && !builder.isIdle && front.holds(t) {
      // Past the hand-over, the next window still being built: the front one's bounds span
      // its overlap, so this frame answers from it exactly, and does not wait.
      state.counters.lateFrames = 1
      if Trace.isOn { Trace.instant(.lateWindow, at: Clocks.monotonicNanoseconds()) }
    } else if next {
      // The next window, built while this one answered: swap (nothing to wait for when the
      // builder kept up; a wait only past the overlap too).
      if !builder.isIdle {
        state.counters.waitedFrames = 1
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
      state.counters.windowsStarted = 1
      state.length.windowEnded(lastBuild: front.buildNanoseconds, endedSeconds: served, endedSpan: span)
      _postNext(state.length, now: t)
    } else {
      // A jump in time: the current window from here.
      restart(state, at: t, animated: true)
    }
  }

  public func updated(_ state: _TimeAwareState<_WindowsAhead>, at t: Double) {
    fraction = front.fraction(t)
    state.length.frameStarted(wall: Clocks.monotonicNanoseconds(), clock: t)
    state.counters.unbounded = front.unbounded
    state.counters.reindexed = state.counters.windowsStarted > 0 ? groups.movingCount : 0
  }

  /// Builds the window from t on this thread, and posts the next. The first time for this
  /// many groups, the back slot is built too, for the same window: a slot's first build faults
  /// its memory in (at a million particles 530 ms against 90 for the next), and here it is
  /// paid in the frame that builds anyway, not by a frame waiting for the builder.
  public func restart(_ state: _TimeAwareState<_WindowsAhead>, at t: Double, animated: Bool) {
    builder.wait()
    backPosted = false
    handover = t + state.length.seconds
    let end = handover + state.length.overlapSeconds(from: t, now: t, built: true)
    builder.buildNow(front, from: t, to: end, animated: animated)
    // Until a window has ended, this build (with its first pieces and faults, more than the
    // next will take) stands for the next one's in the next window's overlap.
    if state.length.buildClockSeconds == nil {
      state.length.buildClockSeconds = Double(front.buildNanoseconds) / 1e9
    }
    if animated && _warmedGroups < groups.count {
      builder.buildNow(back, from: t, to: end, animated: animated)
      _warmedGroups = groups.count
    }
    state.counters.windowsStarted = 1
    if animated { _postNext(state.length, now: t) }
  }

  /// Posts the window after the front one to the builder, at clock time `now`.
  func _postNext(_ length: WindowLength, now: Double) {
    postedStart = handover
    postedHandover = handover + length.seconds
    postedEnd = postedHandover + length.overlapSeconds(from: postedStart, now: now, built: false)
    // The next post is at the frame that reaches the front window's hand-over (this one's
    // start).
    builder.post(
      back, from: postedStart, to: postedEnd, animated: true,
      nextExpectedAt: length.expectedStart(ofClock: postedStart))
    backPosted = true
  }

  /// A search over the groups and the front window for one batch of queries: plain pointers,
  /// valid until the state's `_endBatch` (nothing is rebuilt in between: updates and batches
  /// alternate).
  @usableFromInline func _beginBatch() -> WindowSearch {
    WindowSearch(
      search: CandidateSearch(groups.view, groups.lazy, groups.lazy.frame), started: Clocks.monotonicNanoseconds(),
      entries: front.entries._unsafeBuffer, bound: front.bound._unsafeBuffer, outside: front.outside._unsafeBuffer,
      outsideBound: front.outsideBound._unsafeBuffer, fraction: fraction, ordered: Index.isOrdered)
  }

  public func costOfCandidates(_ state: _TimeAwareState<_WindowsAhead>, _ points: UnsafeBufferPointer<Point>)
    -> CandidateTimings
  {
    let index = front.index
    var search = _beginBatch()
    return search._costOfCandidates(
      points, _OneWindow(fraction: search.fraction),
      query: { p, search in index.visit(p, at: search.fraction, search: &search) },
      held: { p, count in index.visit(p, at: count.windows.fraction, &count) })
  }
}
