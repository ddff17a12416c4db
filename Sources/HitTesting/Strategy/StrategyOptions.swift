/// What a run tells a strategy when it binds it to a scene: nothing a strategy reads from
/// anywhere else, and nothing that changes while it answers.
public struct StrategyOptions: Sendable, Hashable {
  /// A fixed window (or segment) length for the time-aware strategies, in seconds; nil: chosen
  /// by cost (`WindowLength`).
  public var windowSeconds: Double?
  /// What the window length chosen by cost minimises (`WindowLength`).
  public var windowCost: WindowCost
  /// How far past its hand-over a window's bounds reach, as a share of its length
  /// (`WindowLength.overlap`): frames there answer from it while the next is being built,
  /// instead of waiting. 0 by default: bounds over a longer span cost every query (a quarter
  /// more span, about a third more instructions a query on particles: docs/time-aware.md).
  public var windowOverlap: Double
  /// The longest window a time-aware strategy's length chosen by cost reaches, in seconds (a
  /// still screen's): a run asked to hold N windows may need N of them.
  public static let longestWindowSeconds = 4.0

  public init(windowSeconds: Double? = nil, windowCost: WindowCost = .wall, windowOverlap: Double = 0) {
    self.windowSeconds = windowSeconds
    self.windowCost = windowCost
    self.windowOverlap = windowOverlap
  }
}

/// What a time-aware strategy's window length, chosen by cost, minimises.
public enum WindowCost: String, Sendable, Hashable, CaseIterable {
  /// The frame's wall time: a background build on the second core counts a tenth of its time
  /// (the second core as nearly free), so windows stay short and queries cheap.
  case wall
  /// The CPU every thread spends per frame: a background build counts in full, so windows are
  /// longer, queries dearer and builds rarer (docs/optimisation-log.md, entry 45: on app 10k
  /// about half the CPU for 5-25% more wall time; on particles 10-20% less CPU for 45-100%
  /// more).
  case cpu
}
