import HitTesting
import LayerModel
import Presentation

/// One strategy on one configuration: what the reporters print. Every time is per frame, in
/// nanoseconds, summarised over the measured frames. See docs/results-schema.md.
public struct Measurement: Sendable {
  public var strategy: String
  /// `rebuild`, `lazy`, `time-aware` or `peer` (`StrategyFamily`).
  public var family: String
  public var scene: String
  public var layers: Int
  public var animatedFraction: Double
  public var queriesPerFrame: Int
  public var workload: String
  public var semantics: String
  /// Which tree was hit-tested: `presentation` or `model`.
  public var tree = HitTestTree.presentation.rawValue
  public var frames: Int
  /// `real-time` (frames at their clock times) or `back-to-back` (`RunConfiguration.Pacing`).
  public var pacing = RunConfiguration.Pacing.realTime.rawValue
  /// Threads the presentation build used.
  public var threads: Int
  /// Whether the strategies took turns in blocks of frames (`RunConfiguration.interleave`).
  public var interleaved = false
  /// Which turns it took in its process: results with the same non-zero value were measured in
  /// turns with each other (one configuration and Q, interleaved); 0 when it ran alone in
  /// sequence. The monotonic clock's reading when those turns began.
  public var turns: UInt64 = 0
  /// Cores of other work the host ran on average during those turns (`HostLoad`); nil where
  /// unknown. Above `HostLoad.busyCores` its times are the busy host's.
  public var hostOtherCores: Double?
  /// Whether the host was busy with other work during its turns.
  public var hostWasBusy: Bool { (hostOtherCores ?? 0) > HostLoad.busyCores }
  /// How many repetitions its frames came from (`RunConfiguration.repeats`).
  public var repeats = 1
  /// The measured frames' blocks, in order (one block for a run that was not interleaved).
  public var blocks: [Block] = []
  /// Every measured frame, in order: what the intervals of its statistics are bootstrapped
  /// from (`Metric.interval`). Kept in memory for the run's targets, not written.
  public var frameTimings: [FrameTiming] = []
  /// 95% intervals of the statistics results are judged by (`Measurement.intervalMetrics`),
  /// bootstrapped over blocks of frames when the run had at least two (`Metric.interval`).
  public var intervals: [Metric: Interval] = [:]
  /// End to end: everything from the model tree at time t to the answers (the build of the
  /// columns the strategy reads + its update + its queries).
  public var frameNs: Summary
  /// The strategy's own share: update + queries.
  public var hitTestNs: Summary
  /// The presentation build (0 for scene strategies, which build no frame), and its passes.
  public var presentationNs: Summary
  public var buildTimingNs: Summary
  public var buildOrderNs: Summary
  public var buildComposeNs: Summary
  public var updateNs: Summary
  public var queriesNs: Summary
  /// CPU time of the whole process per frame (every thread: the build's worker, a time-aware
  /// strategy's builder).
  public var cpuNs: Summary
  /// `cpuNs` split by thread: the frame's own thread, the presentation build's workers, and
  /// every other thread (a time-aware strategy's background builder). Their means add up to
  /// `cpuNs`'s.
  public var cpuThreadNs = Summary([])
  public var cpuBuildWorkersNs = Summary([])
  public var cpuBackgroundNs = Summary([])
  /// The frame budget (`--budget`) and how many measured frames took longer.
  public var budgetNs: Double
  public var framesOverBudget: Int
  public var nsPerQuery: Double
  /// Rows the build recomputed per frame (mean), and a scene strategy's work per query or
  /// frame: lazy presentation evaluations, exact tests, re-indexed entries, unbounded layers.
  public var rowsRecomputedPerFrame: Double
  /// The share of measured frames whose build split a pass between threads (0 on one thread;
  /// on two, what the split governor chose: docs/architecture.md).
  public var splitBuilds = 0.0
  public var presentationsPerQuery: Double
  public var candidatesPerQuery: Double
  /// The cost of one candidate of a time-aware strategy (its lazy evaluation and exact test),
  /// measured apart from the frames (0 for other strategies).
  public var nsPerCandidate: Double
  /// Re-indexed entries per frame (mean: a per-window rebuild happens once in many frames).
  public var reindexedPerFrame: Double
  public var unboundedLayers: Double
  /// The time window an index over motion bounds used (mean, in ms; 0 for other strategies),
  /// and how many such windows the measured frames span.
  public var windowMs: Double
  public var windowsHeld: Double
  /// Measured frames a windowed strategy answered from a window past its hand-over (the next
  /// one not yet built), and frames whose update waited for the background builder.
  public var lateFrames = 0
  public var waitedFrames = 0
  /// The whole windows the run asked a windowed strategy to hold (`RunConfiguration.windowsAtLeast`;
  /// 0: none asked, and one is the least a result needs).
  public var windowsWanted = 0.0
  /// What reading the thread CPU clock added to each frame's CPU span, taken off it
  /// (`FrameLoop.cpuClockCostNs`), in nanoseconds.
  public var cpuClockCostNs = 0.0
  /// What a window length chosen by cost minimised (`RunConfiguration.windowCost`).
  public var windowCost = WindowCost.wall.rawValue
  /// How far past its hand-over a window's bounds reached (`RunConfiguration.windowOverlap`).
  public var windowOverlap = StrategyOptions().windowOverlap
  /// A windowed strategy whose measured frames hold fewer whole windows than asked (at least
  /// one): its mean and p99 carry its re-indexes in another proportion than a longer run's, so
  /// its result is not comparable with the others'.
  public var holdsTooFewWindows: Bool { windowMs > 0 && windowsHeld < Swift.max(windowsWanted, 1) * (1 - 1e-9) }
  /// The window was fixed by the configuration (`--window`), not chosen by cost.
  public var windowPinned = false
  public var allocationsPerFrame: Double
  public var bytesAllocatedPerFrame: Double
  public var peakResidentBytes: Int
  /// The strategy's index by its own count of the structures it holds (`memoryFootprint`).
  public var indexBytes: Int
  /// Where the memory of the run is, in live heap bytes (jemalloc), 0 when not measured.
  public var memory = MemoryBreakdown()
  public var testedPerQuery: Double
  /// Instructions per measured frame by phase, when the run counted them (`--instructions`).
  public var instructions: InstructionCounts?
  /// Answers checked against tree-walk (0 when not verifying), those that differed only within
  /// rounding, and disagreements.
  public var verifiedAnswers: Int
  public var toleratedAnswers: Int
  public var disagreements: Int
  /// The query floor: ns for one exact test against the reference's answer per query.
  public var queryFloorNs: Double
  /// The update floor: ns for one streaming pass over the frame's world boxes per frame.
  public var updateFloorNs: Double

  /// The first disagreements `--verify` found (not in the report: a run that has any writes no
  /// result).
  public var failures: [Failure] = []

  /// One answer `--verify` found wrong: the frame's time, the point, the strategy's answer and
  /// tree-walk's.
  public struct Failure: Sendable {
    /// The frame's index in the run (warm-up frames included): the strategy went through
    /// frames 0 to `frame` at times i / fps.
    public var frame: Int
    /// The window length the strategy had at that frame (time-aware strategies; 0 otherwise).
    public var windowSeconds: Double
    public var time: Double
    public var point: Point
    public var answer: LayerID?
    public var expected: LayerID?
  }

  public var noisy: Bool { frameNs.isNoisy }
  /// CPU per frame over the wall frame (means): 1 when one thread worked the whole frame, more
  /// when helpers worked beside it (or between frames), 0 without frames.
  public var cpuPerWall: Double { frameNs.mean > 0 ? cpuNs.mean / frameNs.mean : 0 }
  public var queryFloorRatio: Double { queryFloorNs > 0 ? nsPerQuery / queryFloorNs : 0 }
  public var updateFloorRatio: Double { updateFloorNs > 0 ? updateNs.mean / updateFloorNs : 0 }
}

extension Measurement {
  /// The statistics whose intervals every result carries (JSON `frameNsMeanLow`...): the
  /// end-to-end frame's mean, median, p90 and p99, the mean of each phase and of update +
  /// queries, and the CPU per frame. Not the max: resampled blocks never exceed the largest
  /// frame seen, so its interval would only restate it.
  public static let intervalMetrics: [Metric] = [
    .frameNsMean, .frameNsMedian, .frameNsP90, .frameNsP99, .hitTestNsMean, .presentationNsMean, .updateNsMean,
    .queriesNsMean, .cpuNsMean,
  ]

  /// The JSON keys of a metric's interval ends (`frameNsMeanLow`, `frameNsMeanHigh`).
  public static func intervalKeys(_ metric: Metric) -> (low: String, high: String) {
    (metric.rawValue + "Low", metric.rawValue + "High")
  }

  /// Computes `intervals` from the frames.
  public mutating func computeIntervals() {
    for metric in Self.intervalMetrics { intervals[metric] = metric.interval(self) }
  }

  /// A block of consecutive measured frames one strategy ran without another's in between.
  public struct Block: Sendable, Equatable {
    /// Its first frame, counted from the first measured one.
    public var firstFrame: Int
    public var frames: Int
    /// Mean and largest wall time of its frames (end to end), the mean of their update +
    /// queries, and their mean CPU time.
    public var meanFrameNs: Double
    public var meanHitTestNs: Double
    public var meanCpuNs: Double
    public var maxFrameNs: Double
    /// Its frames' allocations, on the mean: a count, but one that moves from block to block
    /// where a strategy allocates in the frames its background work lands in (a peer's
    /// re-index), so `compare` judges it by the blocks' spread.
    public var allocationsPerFrame: Double

    public init(
      firstFrame: Int, frames: Int, meanFrameNs: Double, meanHitTestNs: Double, meanCpuNs: Double, maxFrameNs: Double,
      allocationsPerFrame: Double = 0
    ) {
      self.firstFrame = firstFrame
      self.frames = frames
      self.meanFrameNs = meanFrameNs
      self.meanHitTestNs = meanHitTestNs
      self.meanCpuNs = meanCpuNs
      self.maxFrameNs = maxFrameNs
      self.allocationsPerFrame = allocationsPerFrame
    }

    /// The JSON key of the block mean that a mean metric reads (`compare`), if any.
    public static func key(of metric: Metric) -> String? {
      switch metric {
      case .frameNsMean: "meanFrameNs"
      case .hitTestNsMean: "meanHitTestNs"
      case .cpuNsMean: "meanCpuNs"
      default: nil
      }
    }
  }
}
