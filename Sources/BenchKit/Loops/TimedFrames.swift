import Allocations
import CCallgrind
import Clocks
import HitTesting
import LayerModel
import Presentation
import Tracing

/// The measured loops, generic over the concrete strategy and specialised for each (the table
/// in `Strategies` is built where the types are known; `scripts/test.sh` checks the release
/// binary's symbols for every built-in strategy). Not inlined into their callers, so each
/// specialisation stays one symbol a profile and the check can see.
///
/// A strategy's frames run in blocks (`FrameSession`): an interleaved run gives each strategy
/// a block of frames in turn, a sequential one gives it a single block of all its frames. A
/// block picks up where the last ended, so the frames, their points and answers are the same
/// either way.
public enum TimedFrames {
  /// How many pairs of timings (the queries whole, then their index work alone) a result's cost
  /// per candidate is read from, the least of each (`CandidateTimings`).
  public static let candidateCostPairs = 5

  /// The session of a frame strategy: per frame, build, update, queries.
  @inlinable
  public static func session<S: FrameStrategy>(_ type: S.Type, _ loop: FrameLoop, _ hooks: any FrameLoopHooks)
    -> FrameSession
  {
    let heldBefore = AllocationCounter.liveBytes()
    let builder = loop.builder
    let animated = loop.animated
    let state = _SessionState<S>(S(), loop, hooks, heldBefore: heldBefore) { s, time, counted, timing in
      let t0 = Clocks.monotonicNanoseconds()
      if counted == .build { hitbench_count_toggle() }
      let frame = builder.build(at: time, animated: animated, columns: S.columns)
      if counted == .build { hitbench_count_toggle() }
      let t1 = Clocks.monotonicNanoseconds()
      if counted == .update { hitbench_count_toggle() }
      s.update(with: frame)
      if counted == .update { hitbench_count_toggle() }
      let t2 = Clocks.monotonicNanoseconds()
      let st = builder.stats
      timing.presentationNs = t1 &- t0
      timing.buildTimingNs = st.timingNs
      timing.buildOrderNs = st.orderNs
      timing.buildComposeNs = st.composeNs
      timing.rowsRecomputed = st.rowsRecomputed
      timing.buildSplit = st.split
      timing.updateNs = t2 &- t1
    }
    // The builder is shared by every frame strategy of an interleaved run: a block that does
    // not start at the first frame first builds the frame before it again with this
    // strategy's columns (so the timed build is incremental from where a sequential run's
    // would be) and updates the strategy with it (whose binding to the builder's frame another
    // strategy's build made stale).
    let answers = state.answers
    state.resume = { s, previous, points in
      s.update(with: builder.build(at: loop.times[previous], animated: animated, columns: S.columns))
      s.answer(points, into: answers)
    }
    return FrameSession(state) { count in frames(state, count) }
  }

  /// The session of a scene strategy: per frame, update at t, queries.
  @inlinable
  public static func session<S: SceneStrategy>(_ type: S.Type, _ loop: FrameLoop, _ hooks: any FrameLoopHooks)
    -> FrameSession
  {
    let heldBefore = AllocationCounter.liveBytes()
    var strategy = S()
    strategy.attach(to: loop.builder.scene, semantics: loop.builder.semantics, options: loop.options)
    let animated = loop.animated
    let state = _SessionState<S>(strategy, loop, hooks, heldBefore: heldBefore) { s, time, counted, timing in
      let t0 = Clocks.monotonicNanoseconds()
      if counted == .update { hitbench_count_toggle() }
      s.update(at: time, animated: animated)
      if counted == .update { hitbench_count_toggle() }
      timing.updateNs = Clocks.monotonicNanoseconds() &- t0
    }
    let answers = state.answers
    state.resume = { s, _, points in s.answer(points, into: answers) }
    return FrameSession(state) { count in frames(state, count) }
  }

  /// How much a reading grew (0 when it shrank: the process and thread clocks are read one
  /// after the other, so their difference can step back by a tick).
  @inlinable @inline(__always) static func _growth(_ a: UInt64, _ b: UInt64) -> UInt64 { b > a ? b &- a : 0 }

  /// Runs up to `count` more frames of a session: per frame, hooks, then the session's
  /// `prepare` (the timed build and update), the timed queries, hooks. After the run's last
  /// frame it takes the outcome and drops the strategy.
  @inlinable @inline(never)
  static func frames<S: HitTestStrategy>(_ state: _SessionState<S>, _ count: Int) {
    guard !state.finished, count > 0, var strategy = state.strategy.take() else { return }
    let loop = state.loop
    let hooks = state.hooks
    let q = loop.queries
    let answers = state.answers
    let first = state.next
    let end = first + Swift.min(count, loop.times.count - first)
    let frames = Swift.min(loop.requiredFrames, loop.times.count)
    let step = loop.times.count > 1 ? loop.times[1] - loop.times[0] : 0
    var tested = 0.0
    var perCandidate = 0.0
    let bytesAtStart = AllocationCounter.liveBytes()
    // Moved on by the time the hooks take (untimed work such as `--verify`'s check, which
    // also holds the background builders, `BuildPause`), so frames keep their schedule; set so
    // that the block's first frame is due now.
    var origin = Clocks.monotonicNanoseconds() &- _due(loop, first)
    // Other threads' CPU since the last frame started, charged to that frame once the next
    // one starts (the last frame's at the end of the run, or of the block).
    var pending: (timing: FrameTiming, index: Int, points: UnsafeBufferPointer<Point>)?
    var othersAtStart = _OtherThreadsCPU()
    var finished = false
    loop.points.withUnsafeBufferPointer { all in
      // Frame f's start: it waits for its time, and the frame before it ends there.
      func startFrame(_ f: Int) {
        if loop.realTime {
          let due = _due(loop, f)
          if due > 0 { Clocks.sleep(untilMonotonic: origin &+ due) }
        }
        if let p = pending {
          // The previous frame ends here: its allocations and other threads' work run to now.
          var t = p.timing
          _OtherThreadsCPU.now().charge(since: othersAtStart, to: &t)
          let h0 = Clocks.monotonicNanoseconds()
          hooks.frameDidEnd(
            p.index, time: loop.times[p.index], timing: t, points: p.points, answers: UnsafeBufferPointer(answers))
          origin &+= Clocks.monotonicNanoseconds() &- h0
          pending = nil
        }
      }
      if first > 0 {
        // Untimed: the block's frame before its first is answered again, so that the
        // strategy's data is back in the caches another strategy's block used, as it would be
        // after that frame in a sequential run.
        state.resume?(&strategy, first - 1, UnsafeBufferPointer(rebasing: all[((first - 1) * q)..<(first * q)]))
      }
      for f in first..<end {
        let pts = UnsafeBufferPointer(rebasing: all[(f * q)..<(f * q + q)])
        startFrame(f)
        hooks.frameWillStart(f)
        var timing = FrameTiming()
        othersAtStart = .now()
        let cpu0 = Clocks.threadCPUNanoseconds()
        // Callgrind collects one phase of the measured frames (`run --instructions`), helpers
        // their share of it.
        let counted = f >= loop.warmup ? loop.countedPhase : nil
        if loop.countedPhase != nil { hitbench_set_helper_phase(counted?.code ?? 0) }
        state.prepare(&strategy, loop.times[f], counted, &timing)
        let t0 = Clocks.monotonicNanoseconds()
        if counted == .queries { hitbench_count_toggle() }
        strategy.answer(pts, into: answers)
        if loop.queryInstructions > 0 { hitbench_spin_instructions(UInt(loop.queryInstructions)) }
        if counted == .queries { hitbench_count_toggle() }
        if loop.queryDelayNs > 0 { _busyWait(loop.queryDelayNs) }
        timing.queriesNs = Clocks.monotonicNanoseconds() &- t0
        if Trace.isOn { _trace(f, measured: f >= loop.warmup, queriesStart: t0, timing, queries: q) }
        let cpuSpan = Clocks.threadCPUNanoseconds() &- cpu0
        timing.cpuThreadNs = cpuSpan > loop.cpuClockCostNs ? cpuSpan &- loop.cpuClockCostNs : 0
        timing.cpuNs = timing.cpuThreadNs
        timing.counters = strategy.counters
        if f >= loop.warmup { state.windowSeconds += timing.counters.windowSeconds }
        var last = f == loop.times.count - 1
        if !last && f >= frames - 1 {
          // Past the frames every run has: a time-aware run goes on until it holds the windows
          // asked for (measured frames over the mean window), any other stops.
          let measured = f + 1 - loop.warmup
          let held =
            state.windowSeconds > 0 && measured > 0
            ? FrameLoop.windowsHeld(
              frames: measured, frameSeconds: step, meanWindowSeconds: state.windowSeconds / Double(measured))
            : .infinity
          last = loop.windowsAtLeast <= 0 || step <= 0 || held >= loop.windowsAtLeast
        }
        state.next = f + 1
        if last {
          // Background work posted from here on is not the measured frames'.
          if loop.countedPhase != nil { hitbench_set_helper_phase(0) }
          _OtherThreadsCPU.now().charge(since: othersAtStart, to: &timing)
          hooks.frameDidEnd(f, time: loop.times[f], timing: timing, points: pts, answers: UnsafeBufferPointer(answers))
          if q > 0 {
            tested = Double(strategy.answerCounting(pts, into: answers)) / Double(q)
            if let costing = strategy as? CandidateCosting {
              // A difference of two short timings (tens of microseconds at Q = 1000), each
              // taken at its least over several pairs (`CandidateTimings`).
              perCandidate = CandidateTimings.nanosecondsPerCandidate(
                (0..<TimedFrames.candidateCostPairs).lazy.map { _ in costing.costOfCandidates(pts) })
              if let label = loop.candidateCountLabel {
                // The candidates pass of `run --instructions`: one measurement more, its two
                // halves counted apart.
                label.withCString { l in
                  hitbench_candidate_count_arm(l)
                  _ = costing.costOfCandidates(pts)
                  hitbench_candidate_count_arm(nil)
                }
              }
            }
          }
          finished = true
          break
        }
        pending = (timing, f, pts)
      }
      // The block ends where its next frame would start: the frame before it gets the idle
      // time to its successor's start (the background work a real frame leaves time for).
      if !finished { startFrame(state.next) }
    }
    state.strategyBytes += AllocationCounter.liveBytes() - bytesAtStart
    if finished {
      var outcome = FrameLoop.Outcome(
        indexBytes: strategy.memoryFootprint, testedPerQuery: tested, nsPerCandidate: perCandidate)
      outcome.strategyBytes = Swift.max(state.strategyBytes, 0)
      state.outcome = outcome
      // The strategy is dropped as this block ends: its background work ends unheld.
    } else {
      state.strategy = consume strategy
    }
  }

  /// Records frame `f`'s slices on the trace (`run --trace`): the frame, its build, update and
  /// queries, back to back and ending with the queries, their durations exactly the timed
  /// ones; and its candidates per query and window as counters.
  @inline(never) @usableFromInline static func _trace(
    _ f: Int, measured: Bool, queriesStart: UInt64, _ timing: FrameTiming, queries: Int
  ) {
    let updateStart = queriesStart &- timing.updateNs
    let buildStart = updateStart &- timing.presentationNs
    let total = timing.presentationNs &+ timing.updateNs &+ timing.queriesNs
    Trace.slice(.frame, start: buildStart, duration: total, frame: f, measured: measured)
    if timing.presentationNs > 0 {
      Trace.slice(.build, start: buildStart, duration: timing.presentationNs, frame: f, measured: measured)
    }
    Trace.slice(.update, start: updateStart, duration: timing.updateNs, frame: f, measured: measured)
    Trace.slice(.queries, start: queriesStart, duration: timing.queriesNs, frame: f, measured: measured)
    if queries > 0 && timing.counters.candidates > 0 {
      Trace.counter(
        .candidatesPerQuery, Double(timing.counters.candidates) / Double(queries), at: buildStart, frame: f)
    }
    if timing.counters.windowSeconds > 0 {
      Trace.counter(.windowMs, timing.counters.windowSeconds * 1000, at: buildStart, frame: f)
    }
  }

  /// A planted slowdown: spins until `ns` after the queries' end (`FrameLoop.queryDelayNs`).
  @inline(never) @usableFromInline static func _busyWait(_ ns: UInt64) {
    let end = Clocks.monotonicNanoseconds() &+ ns
    while Clocks.monotonicNanoseconds() < end {}
  }

  /// When frame f is due after the first, in nanoseconds (0: at once).
  @inlinable static func _due(_ loop: FrameLoop, _ f: Int) -> UInt64 {
    guard f < loop.times.count else { return 0 }
    let due = (loop.times[f] - loop.times[0]) * 1e9
    return due.isFinite && due > 0 ? UInt64(due) : 0
  }
}

/// One strategy's frames in progress (`TimedFrames`): run in blocks until its run has ended,
/// each block picking up where the last one stopped. One dynamic call per block.
public final class FrameSession {
  @usableFromInline let _state: _SessionStateBase
  @usableFromInline let _runBlock: (Int) -> Void

  @inlinable init(_ state: _SessionStateBase, runBlock: @escaping (Int) -> Void) {
    _state = state
    _runBlock = runBlock
  }

  /// Runs up to `count` more frames (fewer when the run ends first), then tells the hooks the
  /// block ended.
  public func run(frames count: Int) {
    _runBlock(count)
    _state.hooks.blockDidEnd()
  }

  /// Whether the run has ended (its last frame ran; the strategy is gone).
  public var isFinished: Bool { _state.finished }
  /// What the run left, once it has ended.
  public var outcome: FrameLoop.Outcome? { _state.outcome }
}

/// A session's state apart from its strategy (`_SessionState`).
@usableFromInline class _SessionStateBase {
  @usableFromInline let loop: FrameLoop
  @usableFromInline let hooks: any FrameLoopHooks
  /// One frame's answers.
  @usableFromInline let answers: UnsafeMutableBufferPointer<LayerID?>
  /// The next frame to run.
  @usableFromInline var next = 0
  /// What the run left, once its last frame ran.
  @usableFromInline var outcome: FrameLoop.Outcome?
  @usableFromInline var finished: Bool { outcome != nil }
  /// The measured frames' windows, for `windowsAtLeast`.
  @usableFromInline var windowSeconds = 0.0
  /// What the strategy made of the live heap: from before it was made, plus its blocks' growth.
  @usableFromInline var strategyBytes: Int

  @usableFromInline init(_ loop: FrameLoop, _ hooks: any FrameLoopHooks, heldBefore: Int) {
    self.loop = loop
    self.hooks = hooks
    answers = .allocate(capacity: Swift.max(loop.queries, 1))
    answers.initialize(repeating: nil)
    strategyBytes = AllocationCounter.liveBytes() - heldBefore
  }

  deinit { answers.deallocate() }
}

/// A session's state: the strategy between blocks, and how a frame is prepared for it.
@usableFromInline final class _SessionState<S: HitTestStrategy>: _SessionStateBase {
  @usableFromInline var strategy: S?
  @usableFromInline let prepare: (inout S, Double, CountedPhase?, inout FrameTiming) -> Void
  /// Untimed work before a block that does not start at the first frame, given the frame
  /// before it and that frame's points.
  @usableFromInline var resume: ((inout S, Int, UnsafeBufferPointer<Point>) -> Void)?

  @inlinable init(
    _ strategy: consuming S, _ loop: FrameLoop, _ hooks: any FrameLoopHooks, heldBefore: Int,
    prepare: @escaping (inout S, Double, CountedPhase?, inout FrameTiming) -> Void
  ) {
    self.strategy = strategy
    self.prepare = prepare
    super.init(loop, hooks, heldBefore: heldBefore)
  }
}

/// The CPU time of the threads other than the frame's, read at one moment: the build's workers,
/// and all of them (process minus this thread; two readings, so the difference can step back
/// by a tick).
@usableFromInline struct _OtherThreadsCPU {
  @usableFromInline var buildWorkers: UInt64 = 0
  @usableFromInline var all: UInt64 = 0

  @inlinable init() {}

  @inlinable static func now() -> _OtherThreadsCPU {
    var r = _OtherThreadsCPU()
    r.buildWorkers = HelperThreads.cpuNanoseconds(.buildWorker)
    let process = Clocks.processCPUNanoseconds()
    let mine = Clocks.threadCPUNanoseconds()
    r.all = process > mine ? process &- mine : 0
    return r
  }

  /// Adds what the other threads spent since `start` to a frame's CPU time.
  @inlinable func charge(since start: _OtherThreadsCPU, to timing: inout FrameTiming) {
    let all = TimedFrames._growth(start.all, self.all)
    let workers = Swift.min(TimedFrames._growth(start.buildWorkers, buildWorkers), all)
    timing.cpuNs &+= all
    timing.cpuBuildWorkersNs &+= workers
    timing.cpuBackgroundNs &+= all &- workers
  }
}
