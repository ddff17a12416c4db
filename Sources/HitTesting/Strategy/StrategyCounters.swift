/// Per-frame work counts of a strategy, beyond the boxes its queries test.
public struct StrategyCounters: Sendable, Equatable {
  /// Presentation values evaluated for single layers (lazy and time-aware strategies).
  public var presentations = 0
  /// Candidates whose exact test ran.
  public var candidates = 0
  /// Entries (re)inserted or rebuilt in an index during the last update.
  public var reindexed = 0
  /// Layers whose motion could not be bounded (candidates everywhere in their window).
  public var unbounded = 0
  /// The time window (or segment) an index over motion bounds uses, in seconds (0: none).
  public var windowSeconds = 0.0
  /// Windows (or segments) that began with this frame's update.
  public var windowsStarted = 0
  /// 1 when this frame was answered from a window past its hand-over, the next one not yet
  /// built (exact: a window's bounds span its overlap too).
  public var lateFrames = 0
  /// 1 when this frame's update waited for background work (the next window still unbuilt
  /// at the end of the one before it).
  public var waitedFrames = 0
  public init() {}

  /// Counts of an index that reports only its re-indexed entries.
  public init(reindexed: Int) { self.reindexed = reindexed }
}
