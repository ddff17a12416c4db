import Allocations
import Clocks
import HitTesting
import LayerModel
import Presentation

/// The measured loops, generic over the concrete strategy and specialised for each (the table
/// in `Strategies` is built where the types are known; `scripts/test.sh` checks the release
/// binary's symbols for every built-in strategy). Not inlined into their callers, so each
/// specialisation stays one symbol a profile and the check can see.
public enum TimedFrames {
  /// The frames of a frame strategy: build, update, queries.
  @inlinable @inline(never)
  public static func frames<S: FrameStrategy>(_ type: S.Type, _ loop: FrameLoop, _ hooks: any FrameLoopHooks)
    -> FrameLoop.Outcome
  {
    let heldBefore = AllocationCounter.liveBytes()
    var strategy = S()
    let builder = loop.builder
    let animated = loop.animated
    return _frames(&strategy, loop, hooks, heldBefore: heldBefore) { s, time, timing in
      let t0 = Clocks.monotonicNanoseconds()
      let frame = builder.build(at: time, animated: animated, columns: S.columns)
      let t1 = Clocks.monotonicNanoseconds()
      s.update(with: frame)
      let t2 = Clocks.monotonicNanoseconds()
      let st = builder.stats
      timing.presentationNs = t1 &- t0
      timing.buildTimingNs = st.timingNs
      timing.buildOrderNs = st.orderNs
      timing.buildComposeNs = st.composeNs
      timing.rowsRecomputed = st.rowsRecomputed
      timing.updateNs = t2 &- t1
    }
  }

  /// The frames of a scene strategy: update at t, queries.
  @inlinable @inline(never)
  public static func frames<S: SceneStrategy>(_ type: S.Type, _ loop: FrameLoop, _ hooks: any FrameLoopHooks)
    -> FrameLoop.Outcome
  {
    let heldBefore = AllocationCounter.liveBytes()
    var strategy = S()
    strategy.attach(to: loop.builder.scene, semantics: loop.builder.semantics, options: loop.options)
    let animated = loop.animated
    return _frames(&strategy, loop, hooks, heldBefore: heldBefore) { s, time, timing in
      let t0 = Clocks.monotonicNanoseconds()
      s.update(at: time, animated: animated)
      timing.updateNs = Clocks.monotonicNanoseconds() &- t0
    }
  }

  /// How much a reading grew (0 when it shrank: the process and thread clocks are read one
  /// after the other, so their difference can step back by a tick).
  @inlinable @inline(__always) static func _growth(_ a: UInt64, _ b: UInt64) -> UInt64 { b > a ? b &- a : 0 }

  /// The frames: hooks, then `prepare` (the timed build and update), the timed queries, hooks.
  /// `heldBefore`: the live heap before the strategy was made, for what it holds after them.
  @inlinable @inline(__always)
  static func _frames<S: HitTestStrategy>(
    _ strategy: inout S, _ loop: FrameLoop, _ hooks: any FrameLoopHooks, heldBefore: Int,
    prepare: (inout S, Double, inout FrameTiming) -> Void
  ) -> FrameLoop.Outcome {
    let q = loop.queries
    let answers = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(q, 1))
    answers.initialize(repeating: nil)
    defer { answers.deallocate() }
    var tested = 0.0
    var perCandidate = 0.0
    // Moved on by the time the hooks take (untimed work such as `--verify`'s check, which
    // also holds the background builders, `BuildPause`), so frames keep their schedule.
    var origin = Clocks.monotonicNanoseconds()
    // Other threads' CPU since the last frame started, charged to that frame once the next
    // one starts (the last frame's at the end).
    var pending: (timing: FrameTiming, index: Int, points: UnsafeBufferPointer<Point>)?
    var othersAtStart = _OtherThreadsCPU()
    // The measured frames' windows, and one frame's clock step, for `windowsAtLeast`.
    var windowSeconds = 0.0
    let step = loop.times.count > 1 ? loop.times[1] - loop.times[0] : 0
    loop.points.withUnsafeBufferPointer { all in
      let frames = Swift.min(loop.requiredFrames, loop.times.count)
      for f in 0..<loop.times.count {
        let pts = UnsafeBufferPointer(rebasing: all[(f * q)..<(f * q + q)])
        if loop.realTime {
          let due = (loop.times[f] - loop.times[0]) * 1e9
          if due.isFinite && due > 0 { Clocks.sleep(untilMonotonic: origin &+ UInt64(due)) }
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
        hooks.frameWillStart(f)
        var timing = FrameTiming()
        othersAtStart = .now()
        let cpu0 = Clocks.threadCPUNanoseconds()
        prepare(&strategy, loop.times[f], &timing)
        let t0 = Clocks.monotonicNanoseconds()
        strategy.answer(pts, into: answers)
        timing.queriesNs = Clocks.monotonicNanoseconds() &- t0
        timing.cpuThreadNs = Clocks.threadCPUNanoseconds() &- cpu0
        timing.cpuNs = timing.cpuThreadNs
        timing.counters = strategy.counters
        if f >= loop.warmup { windowSeconds += timing.counters.windowSeconds }
        var last = f == loop.times.count - 1
        if !last && f >= frames - 1 {
          // Past the frames every run has: a time-aware run goes on until it holds the windows
          // asked for (measured frames over the mean window), any other stops.
          let measured = f + 1 - loop.warmup
          let held =
            windowSeconds > 0 && measured > 0
            ? FrameLoop.windowsHeld(
              frames: measured, frameSeconds: step, meanWindowSeconds: windowSeconds / Double(measured))
            : .infinity
          last = loop.windowsAtLeast <= 0 || step <= 0 || held >= loop.windowsAtLeast
        }
        if last {
          _OtherThreadsCPU.now().charge(since: othersAtStart, to: &timing)
          hooks.frameDidEnd(f, time: loop.times[f], timing: timing, points: pts, answers: UnsafeBufferPointer(answers))
        } else {
          pending = (timing, f, pts)
        }
        if last && q > 0 {
          tested = Double(strategy.answerCounting(pts, into: answers)) / Double(q)
          if let costing = strategy as? CandidateCosting {
            let (n, ns) = costing.costOfCandidates(pts)
            perCandidate = n > 0 ? Double(ns) / Double(n) : 0
          }
        }
        if last { break }
      }
    }
    var outcome = FrameLoop.Outcome(
      indexBytes: strategy.memoryFootprint, testedPerQuery: tested, nsPerCandidate: perCandidate)
    outcome.strategyBytes = Swift.max(AllocationCounter.liveBytes() - heldBefore, 0)
    return outcome
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
