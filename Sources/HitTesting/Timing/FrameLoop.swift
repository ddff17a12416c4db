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

/// One frame's phases, in nanoseconds.
public struct FrameTiming: Sendable {
  public var presentationNs: UInt64 = 0
  public var updateNs: UInt64 = 0
  public var queriesNs: UInt64 = 0
}

/// What the runner does between timed regions: read allocation counters, check answers.
/// Called once or twice per frame, never per query.
public protocol FrameLoopHooks: AnyObject {
  /// Just before frame `index` starts (nothing timed is running).
  func frameWillStart(_ index: Int)
  /// Just after frame `index`'s queries, with the frame, its points and the answers.
  func frameDidEnd(
    _ index: Int, timing: FrameTiming, frame: PresentationFrame, points: UnsafeBufferPointer<Point>,
    answers: UnsafeBufferPointer<LayerID?>)
}

/// The measured loop: for each frame, build the presentation frame at its time, update the
/// strategy, answer that frame's points; each phase timed on the monotonic clock. Lives beside
/// the strategies so that `run` specialises the whole loop for each strategy type.
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

  func visit<S: HitTestStrategy>(_ type: S.Type) -> FrameLoop.Outcome {
    var strategy = S()
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
        let t0 = monotonicNanoseconds()
        let frame = loop.builder.build(at: loop.times[f], animated: loop.animated)
        let t1 = monotonicNanoseconds()
        strategy.update(with: frame)
        let t2 = monotonicNanoseconds()
        QueryLoop.answer(strategy, pts, into: answers)
        let t3 = monotonicNanoseconds()
        let timing = FrameTiming(presentationNs: t1 &- t0, updateNs: t2 &- t1, queriesNs: t3 &- t2)
        hooks.frameDidEnd(f, timing: timing, frame: frame, points: pts, answers: UnsafeBufferPointer(answers))
        if f == frames - 1 && q > 0 {
          tested = Double(QueryLoop.answerCounting(strategy, pts, into: answers)) / Double(q)
        }
      }
    }
    return FrameLoop.Outcome(indexBytes: strategy.memoryFootprint, testedPerQuery: tested)
  }
}
