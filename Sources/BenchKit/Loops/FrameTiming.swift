import HitTesting

/// One frame, measured end to end: everything a strategy needs from the model tree at time t
/// to its answers.
public struct FrameTiming: Sendable {
  /// Building the presentation frame (frame strategies only; the builder computes only the
  /// columns the strategy reads), and its three passes.
  public var presentationNs: UInt64 = 0
  public var buildTimingNs: UInt64 = 0
  public var buildOrderNs: UInt64 = 0
  public var buildComposeNs: UInt64 = 0
  /// The strategy's own update (a scene strategy's includes any re-index on this thread), and
  /// its queries.
  public var updateNs: UInt64 = 0
  public var queriesNs: UInt64 = 0
  /// CPU time the frame cost the process: this thread's over the timed region, plus every
  /// other thread's (a build's worker, a background re-index) from this frame's start to the
  /// next one's, so work done between frames is charged to the frame that posted it.
  public var cpuNs: UInt64 = 0
  /// `cpuNs` split by thread: the frame's own thread over the timed region, the presentation
  /// build's workers (`HelperThreads.Role.buildWorker`), and every other thread (a time-aware
  /// strategy's background builder). The three add up to `cpuNs`.
  public var cpuThreadNs: UInt64 = 0
  public var cpuBuildWorkersNs: UInt64 = 0
  public var cpuBackgroundNs: UInt64 = 0
  /// Rows the build recomputed (frame strategies), and the strategy's own work counters.
  public var rowsRecomputed = 0
  /// Whether the build split a pass between threads (`PresentationFrameBuilder.Stats.split`).
  public var buildSplit = false
  public var counters = StrategyCounters()

  public init() {}

  /// The whole frame: build + update + queries.
  public var frameNs: UInt64 { presentationNs &+ updateNs &+ queriesNs }
  /// The strategy's own share: update + queries.
  public var hitTestNs: UInt64 { updateNs &+ queriesNs }
}
