/// The families a strategy can belong to, as results report them.
public enum StrategyFamily: String, Sendable, CaseIterable {
  /// Consumes a presentation frame built for each time.
  case rebuild
  /// Computes presentation values only for the layers its walk visits.
  case lazy
  /// Indexes what animations can do over a time window instead of rebuilding per frame.
  case timeAware = "time-aware"
  /// An established library, through the harness (the optional peers package).
  case peer
}
