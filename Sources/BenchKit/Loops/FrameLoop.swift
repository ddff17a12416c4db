import CCallgrind
import HitTesting
import LayerModel
import Presentation

/// A phase of the measured frames, as `run --instructions` counts it: one Callgrind pass per
/// phase.
public enum CountedPhase: String, CaseIterable, Sendable {
  /// The presentation build (frame strategies), its workers' jobs included.
  case build
  /// The strategy's update (a scene strategy's re-index on the frame's thread included).
  case update
  /// The frame's queries.
  case queries
  /// A time-aware strategy's window builds on its background thread: each one posted during
  /// the measured frames, counted whole.
  case background
  /// Not a phase of the frames: a time-aware strategy's cost per candidate, measured once more
  /// after them (`CandidateCosting`), its batch and its index work alone each counted apart
  /// (`candidateCountLabel`).
  case candidates

  /// Its number in the C target (`HITBENCH_PHASE_...`).
  public var code: Int32 {
    switch self {
    case .build: HITBENCH_PHASE_BUILD
    case .update: HITBENCH_PHASE_UPDATE
    case .queries: HITBENCH_PHASE_QUERIES
    case .background: HITBENCH_PHASE_BACKGROUND
    case .candidates: HITBENCH_PHASE_CANDIDATES
    }
  }
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
  /// A block of frames ended (`FrameSession.run(frames:)`), its last frame's `frameDidEnd`
  /// called.
  func blockDidEnd()
}

extension FrameLoopHooks {
  public func blockDidEnd() {}
}

/// The frames of one run: per frame, everything from the model tree at time t to the answers,
/// each phase timed on the monotonic clock (`TimedFrames`). A frame strategy's frame is the
/// presentation build (only its columns) + its update + its queries; a scene strategy's is its
/// update at t (re-indexing included) + its queries.
public struct FrameLoop {
  public var builder: PresentationFrameBuilder
  /// Clock time of each frame (warm-up frames included).
  public var times: [Double]
  /// Frames every run has (warm-up included; `times.count` unless set). A time-aware
  /// strategy's run goes on after them, up to `times.count`, until its measured frames hold
  /// `windowsAtLeast` whole windows (`RunConfiguration.windowsAtLeast`).
  public var requiredFrames: Int
  /// Whole windows a time-aware run's measured frames hold at least (0: `requiredFrames`
  /// frames, whatever the strategy).
  public var windowsAtLeast = 0.0
  /// Leading frames not measured: the windows are counted after them.
  public var warmup = 0
  /// `queries` points per frame, frame after frame.
  public var points: [Point]
  public var queries: Int
  /// false: hit-test the model tree (animations not applied).
  public var animated = true
  /// What scene strategies are attached with (a pinned window).
  public var options = StrategyOptions()
  /// Whether frames start at their clock times in wall time (frame f no earlier than
  /// `times[f] - times[0]` seconds after the first), as an app's frames start at each vsync:
  /// work a strategy leaves to another thread then gets the idle time a real frame leaves it.
  /// false: back to back, as fast as they go.
  public var realTime = true
  /// What reading the thread CPU clock adds to a frame's CPU time, taken off each frame's
  /// (`Clocks.threadCPUReadCost`: the harness's readings are not the strategy's work; 0: none).
  public var cpuClockCostNs: UInt64 = 0
  /// Nanoseconds every frame's queries busy-wait after answering (a planted slowdown,
  /// `RunConfiguration.injectedQueryDelay`; 0: none).
  public var queryDelayNs: UInt64 = 0
  /// Instructions every frame's queries execute after answering, counted with them (a planted
  /// slowdown Callgrind sees alike every time, `RunConfiguration.injectedQueryInstructions`).
  public var queryInstructions: UInt64 = 0
  /// The phase of the measured frames whose instructions Callgrind collects (collection is
  /// toggled on around it, and off everywhere else; `RunConfiguration.countedPhase`). nil:
  /// no toggle is ever issued.
  public var countedPhase: CountedPhase?
  /// The label of the two dumps of the candidates pass (`CountedPhase.candidates`; nil
  /// otherwise): `hitbench ... phase=candidates`, to which each dump adds its part.
  public var candidateCountLabel: String?

  public init(builder: PresentationFrameBuilder, times: [Double], points: [Point], queries: Int) {
    precondition(points.count == times.count * queries, "points must hold queries x frames")
    self.builder = builder
    self.times = times
    self.requiredFrames = times.count
    self.points = points
    self.queries = queries
  }

  /// What a run leaves besides the hooks' records.
  public struct Outcome: Sendable {
    /// The strategy's index bytes after the last frame.
    public var indexBytes: Int
    /// What the strategy holds after its frames (live heap growth since before it was made).
    public var strategyBytes = 0
    /// Boxes or nodes tested per query on the last frame (an untimed counting pass).
    public var testedPerQuery: Double
    /// One candidate's evaluation and exact test, for strategies that evaluate lazily (an
    /// untimed pass after the frames, `CandidateCosting`); 0 for others.
    public var nsPerCandidate: Double
    public init(indexBytes: Int, testedPerQuery: Double, nsPerCandidate: Double = 0) {
      self.indexBytes = indexBytes
      self.testedPerQuery = testedPerQuery
      self.nsPerCandidate = nsPerCandidate
    }
  }

  /// How many windows `frames` frames `frameSeconds` apart span, at a mean window of
  /// `meanWindowSeconds` (0 without windows): what a result reports as `windowsHeld`, and what
  /// `windowsAtLeast` asks of a run.
  public static func windowsHeld(frames: Int, frameSeconds: Double, meanWindowSeconds: Double) -> Double {
    meanWindowSeconds > 0 ? Double(frames) * frameSeconds / meanWindowSeconds : 0
  }

  /// Runs every frame with a fresh strategy of kind `kind`, through its specialised loop.
  public func run(_ kind: StrategyKind, hooks: any FrameLoopHooks) -> Outcome {
    let s = session(kind, hooks: hooks)
    s.run(frames: times.count)
    guard let outcome = s.outcome else { preconditionFailure("a session ended without its outcome") }
    return outcome
  }

  /// A fresh strategy of kind `kind` and its frames, to run in blocks (`FrameSession`).
  public func session(_ kind: StrategyKind, hooks: any FrameLoopHooks) -> FrameSession {
    Strategies.loops(kind).session(self, hooks)
  }
}
