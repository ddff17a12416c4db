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
    var strategy = S()
    let builder = loop.builder
    let animated = loop.animated
    return _frames(&strategy, loop, hooks) { s, time, timing in
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
    var strategy = S()
    strategy.attach(to: loop.builder.scene, semantics: loop.builder.semantics, options: loop.options)
    let animated = loop.animated
    return _frames(&strategy, loop, hooks) { s, time, timing in
      let t0 = Clocks.monotonicNanoseconds()
      s.update(at: time, animated: animated)
      timing.updateNs = Clocks.monotonicNanoseconds() &- t0
    }
  }

  /// The frames: hooks, then `prepare` (the timed build and update), the timed queries, hooks.
  @inlinable @inline(__always)
  static func _frames<S: HitTestStrategy>(
    _ strategy: inout S, _ loop: FrameLoop, _ hooks: any FrameLoopHooks,
    prepare: (inout S, Double, inout FrameTiming) -> Void
  ) -> FrameLoop.Outcome {
    let q = loop.queries
    let answers = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(q, 1))
    answers.initialize(repeating: nil)
    defer { answers.deallocate() }
    var tested = 0.0
    var perCandidate = 0.0
    loop.points.withUnsafeBufferPointer { all in
      let frames = loop.times.count
      for f in 0..<frames {
        let pts = UnsafeBufferPointer(rebasing: all[(f * q)..<(f * q + q)])
        hooks.frameWillStart(f)
        var timing = FrameTiming()
        let cpu0 = Clocks.processCPUNanoseconds()
        prepare(&strategy, loop.times[f], &timing)
        let t0 = Clocks.monotonicNanoseconds()
        strategy.answer(pts, into: answers)
        timing.queriesNs = Clocks.monotonicNanoseconds() &- t0
        timing.cpuNs = Clocks.processCPUNanoseconds() &- cpu0
        timing.counters = strategy.counters
        hooks.frameDidEnd(f, time: loop.times[f], timing: timing, points: pts, answers: UnsafeBufferPointer(answers))
        if f == frames - 1 && q > 0 {
          tested = Double(strategy.answerCounting(pts, into: answers)) / Double(q)
          if let costing = strategy as? CandidateCosting {
            let (n, ns) = costing.costOfCandidates(pts)
            perCandidate = n > 0 ? Double(ns) / Double(n) : 0
          }
        }
      }
    }
    return FrameLoop.Outcome(indexBytes: strategy.memoryFootprint, testedPerQuery: tested, nsPerCandidate: perCandidate)
  }
}
