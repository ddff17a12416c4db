/// Statistics of one phase over the measured frames, in nanoseconds: min, median, p90, p99 and
/// max (linear interpolation between closest ranks, numpy's default), the mean and standard
/// deviation (which, unlike the median, carry the occasional frame that re-indexes), and the
/// median absolute deviation from the median. An interface is judged by its mean (throughput)
/// and its p99 (its worst frames); the median informs. O(n log n) to compute, once per result.
public struct Summary: Sendable, Equatable {
  public var min: Double
  public var median: Double
  public var p90: Double
  public var p99: Double
  public var max: Double
  public var mad: Double
  public var mean: Double
  public var stddev: Double
  /// Frames summarised.
  public var count: Int

  public init(
    min: Double, median: Double, p90: Double, p99: Double, max: Double, mad: Double, mean: Double, stddev: Double,
    count: Int
  ) {
    (self.min, self.median, self.p90, self.p99, self.max, self.mad) = (min, median, p90, p99, max, mad)
    (self.mean, self.stddev, self.count) = (mean, stddev, count)
  }

  public static let zero = Summary(min: 0, median: 0, p90: 0, p99: 0, max: 0, mad: 0, mean: 0, stddev: 0, count: 0)

  /// The summary of `samples` (zero for none).
  public init(_ samples: [Double]) {
    guard !samples.isEmpty else {
      self = .zero
      return
    }
    let s = samples.sorted()
    let m = Self.percentile(s, 0.5)
    let mean = s.reduce(0, +) / Double(s.count)
    self.min = s[0]
    self.median = m
    self.p90 = Self.percentile(s, 0.9)
    self.p99 = Self.percentile(s, 0.99)
    self.max = s[s.count - 1]
    self.mad = Self.percentile(s.map { abs($0 - m) }.sorted(), 0.5)
    self.mean = mean
    self.stddev = s.count > 1 ? (s.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(s.count - 1)).squareRoot() : 0
    self.count = s.count
  }

  /// The q-quantile of sorted values, interpolating linearly between ranks.
  public static func percentile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let h = Double(sorted.count - 1) * q
    let lo = Int(h.rounded(.down))
    let hi = Swift.min(lo + 1, sorted.count - 1)
    return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
  }

  /// Too spread to trust as one number: the MAD is more than 10% of the median, or the p99 is
  /// more than twice the median (a noisy neighbour, frequency changes, or a phase with spikes).
  /// Information only: `compare` decides from the spread itself.
  public var isNoisy: Bool { median > 0 && (mad > 0.1 * median || p99 > 2 * median) }

  /// Each statistic divided by `k` (per-query costs).
  public func divided(by k: Double) -> Summary {
    Summary(
      min: min / k, median: median / k, p90: p90 / k, p99: p99 / k, max: max / k, mad: mad / k, mean: mean / k,
      stddev: stddev / k, count: count)
  }
}
