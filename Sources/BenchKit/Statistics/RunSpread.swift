import Foundation

/// What one run of a command cannot see of the next run of the same command on a shared host,
/// as standard deviations of the log of a time: the part of run-to-run spread that no
/// resampling of one run's blocks shows. Measured by `scripts/run-spread.sh` (data/run-spread/,
/// docs/measuring.md). A verdict resting on one run widens its interval by what applies to it
/// (`Exposure`), so that the same commit measured twice does not flip between met and missed.
public enum RunSpread {
  /// The run as a whole: every strategy of a run faster or slower together, by the host's state
  /// while it ran (other tenants, the second core's availability, frequency). It cancels in a
  /// ratio of two results measured in turns, and stays in an absolute time or a ratio of results
  /// measured at different moments. Twelve runs of app 10k (every own strategy, Q = 1 and 100,
  /// 40 frames) one after another: 9.3%, the runs from 16% faster to 19% slower than their mean
  /// (data/run-spread/summary.txt); rounded up.
  public static let host = 0.10

  /// A strategy's own spread from one process to the next with the run as a whole taken out
  /// (where its memory lies, how its threads were placed), beyond what the run's blocks show:
  /// eight runs of app 10k (tree-walk, grid, window-grid, Q = 100, 300 frames, where the blocks'
  /// own spread is small) put a strategy's mean against the others' of its run 1.7-5.1% apart,
  /// and two runs of the default suite put flat-tree's update + queries 11% apart, steady over
  /// each run's three repetitions. (Runs of 40 frames put it at 3.2-9.9%, median 6.0%, the
  /// blocks' own spread included: data/run-spread/summary.txt.)
  public static let process = 0.04

  /// How far a verdict on one run is exposed to the spread between runs.
  public enum Exposure: Sendable, Equatable {
    /// A count (allocations, instructions, windows held, bytes): the host does not move it.
    case none
    /// A ratio of two statistics of one result (its p99 over its median, its CPU over its
    /// wall time): one process's own spread.
    case withinResult
    /// A ratio of two results whose turns interleaved in one run: each one's process spread.
    case sameTurns
    /// A ratio of two results measured at different moments (different configurations of a
    /// suite, taken one after another): each one's host and process spread.
    case separateTurns
    /// An absolute time against a fixed limit: the host's and the process's spread.
    case absolute

    /// The standard deviation of the log the exposure adds.
    public var sigma: Double {
      switch self {
      case .none: 0
      case .withinResult: RunSpread.process
      case .sameTurns: (2 * RunSpread.process * RunSpread.process).squareRoot()
      case .separateTurns: (2 * (RunSpread.host * RunSpread.host + RunSpread.process * RunSpread.process)).squareRoot()
      case .absolute: (RunSpread.host * RunSpread.host + RunSpread.process * RunSpread.process).squareRoot()
      }
    }
  }

  /// The two-sided 95% normal quantile: a one-run interval's ends are 95% ends.
  static let z95 = 1.959964

  /// `value`'s 95% interval across runs: each end of `interval` (the run's own, over its
  /// blocks; none when it had too few) moved away from `value` by the root of the sum of
  /// squares of its own distance and the exposure's, in logs. The interval as it was for an
  /// exposure of none or a value that is not positive.
  public static func acrossRuns(_ value: Double, _ interval: Interval?, _ exposure: Exposure) -> Interval? {
    let spread = z95 * exposure.sigma
    guard spread > 0, value > 0, value.isFinite else { return interval }
    func far(_ end: Double?) -> Double {
      guard let end, end > 0, end.isFinite else { return spread }
      let own = Foundation.log(Swift.max(end, value) / Swift.min(end, value))
      return (own * own + spread * spread).squareRoot()
    }
    return Interval(
      low: value * Foundation.exp(-far(interval?.low)), high: value * Foundation.exp(far(interval?.high)))
  }
}
