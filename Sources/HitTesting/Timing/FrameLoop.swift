import LayerModel
import Presentation

#if canImport(Glibc)
  import Glibc
#endif

/// Nanoseconds on the monotonic clock.
@inlinable public func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// One frame, measured end to end: everything a strategy needs from the model tree at time t
/// to its answers.
public struct FrameTiming: Sendable {
  /// Building the presentation frame (frame strategies only; the builder computes only the
  /// columns the strategy reads), and its three passes.
  public var presentationNs: UInt64 = 0
  public var buildTimingNs: UInt64 = 0
  public var buildOrderNs: UInt64 = 0
  public var buildComposeNs: UInt64 = 0
  /// The strategy's own update (a scene strategy's includes any re-index), and its queries.
  public var updateNs: UInt64 = 0
  public var queriesNs: UInt64 = 0
  /// Rows the build recomputed (frame strategies), and the strategy's own work counters.
  public var rowsRecomputed = 0
  public var counters = StrategyCounters()

  /// The whole frame: build + update + queries.
  public var frameNs: UInt64 { presentationNs &+ updateNs &+ queriesNs }
  /// The strategy's own share: update + queries.
  public var hitTestNs: UInt64 { updateNs &+ queriesNs }
}

/// What the runner does between timed regions: read allocation counters, check answers.
/// Called once or twice per frame, never per query.
public protocol FrameLoopHooks: AnyObject {
  /// Just before frame `index` starts (nothing timed is running).
  func frameWillStart(_ index: Int)
  /// Just after frame `index`'s queries, with the frame's time, its points and the answers.
  func frameDidEnd(
    _ index: Int, time: Double, timing: FrameTiming, points: UnsafeBufferPointer<Point>,
    answers: UnsafeBufferPointer<LayerID?>)
}

/// The measured loop, for one strategy: per frame, everything from the model tree at time t to
/// the answers, each phase timed on the monotonic clock. A frame strategy's frame is the
/// presentation build (only its columns) + its update + its queries; a scene strategy's is its
/// update at t (re-indexing included) + its queries. Lives beside the strategies so that `run`
/// specialises the whole loop for each strategy type.
public struct FrameLoop {
  public var builder: PresentationFrameBuilder
  /// Clock time of each frame (warm-up frames included).
  public var times: [Double]
  /// `queries` points per frame, frame after frame.
  public var points: [Point]
  public var queries: Int
  /// false: hit-test the model tree (animations not applied).
  public var animated = true

  public init(builder: PresentationFrameBuilder, times: [Double], points: [Point], queries: Int) {
    precondition(points.count == times.count * queries, "points must hold queries x frames")
    self.builder = builder
    self.times = times
    self.points = points
    self.queries = queries
  }

  /// What a run leaves besides the hooks' records.
  public struct Outcome: Sendable {
    /// The strategy's index bytes after the last frame.
    public var indexBytes: Int
    /// Boxes or nodes tested per query on the last frame (an untimed counting pass).
    public var testedPerQuery: Double
  }

  /// Runs every frame with a fresh strategy of kind `kind`.
  public func run(_ kind: StrategyKind, hooks: any FrameLoopHooks) -> Outcome {
    kind.dispatch(_TimedFrames(loop: self, hooks: hooks))
  }
}

struct _TimedFrames: StrategyVisitor {
  let loop: FrameLoop
  let hooks: any FrameLoopHooks

  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> FrameLoop.Outcome {
    var strategy = S()
    let builder = loop.builder
    let animated = loop.animated
    return _run(&strategy) { s, time, timing in
      let t0 = monotonicNanoseconds()
      let frame = builder.build(at: time, animated: animated, columns: S.columns)
      let t1 = monotonicNanoseconds()
      s.update(with: frame)
      let t2 = monotonicNanoseconds()
      let st = builder.stats
      timing.presentationNs = t1 &- t0
      timing.buildTimingNs = st.timingNs
      timing.buildOrderNs = st.orderNs
      timing.buildComposeNs = st.composeNs
      timing.rowsRecomputed = st.rowsRecomputed
      timing.updateNs = t2 &- t1
    }
  }

  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> FrameLoop.Outcome {
    var strategy = S()
    strategy.attach(to: loop.builder.scene, semantics: loop.builder.semantics)
    let animated = loop.animated
    return _run(&strategy) { s, time, timing in
      let t0 = monotonicNanoseconds()
      s.update(at: time, animated: animated)
      timing.updateNs = monotonicNanoseconds() &- t0
    }
  }

  /// The frames: hooks, then `prepare` (the timed build and update), the timed queries, hooks.
  func _run<S: HitTestStrategy>(
    _ strategy: inout S, prepare: (inout S, Double, inout FrameTiming) -> Void
  ) -> FrameLoop.Outcome {
    let q = loop.queries
    let answers = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(q, 1))
    answers.initialize(repeating: nil)
    defer { answers.deallocate() }
    var tested = 0.0
    loop.points.withUnsafeBufferPointer { all in
      let frames = loop.times.count
      for f in 0..<frames {
        let pts = UnsafeBufferPointer(rebasing: all[(f * q)..<(f * q + q)])
        hooks.frameWillStart(f)
        var timing = FrameTiming()
        prepare(&strategy, loop.times[f], &timing)
        let t0 = monotonicNanoseconds()
        QueryLoop.answer(strategy, pts, into: answers)
        timing.queriesNs = monotonicNanoseconds() &- t0
        timing.counters = strategy.counters
        hooks.frameDidEnd(f, time: loop.times[f], timing: timing, points: pts, answers: UnsafeBufferPointer(answers))
        if f == frames - 1 && q > 0 {
          tested = Double(QueryLoop.answerCounting(strategy, pts, into: answers)) / Double(q)
        }
      }
    }
    return FrameLoop.Outcome(indexBytes: strategy.memoryFootprint, testedPerQuery: tested)
  }
}
