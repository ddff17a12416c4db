import Scenes

/// A 95% interval of a statistic (its 2.5th and 97.5th bootstrap percentiles).
public struct Interval: Sendable, Equatable {
  public var low: Double
  public var high: Double

  public init(low: Double, high: Double) {
    self.low = low
    self.high = high
  }

  /// Its ends with `digits` decimals ("0.982-1.104").
  public func formatted(digits: Int = 3) -> String { _fixed(low, digits) + "-" + _fixed(high, digits) }

  /// Whether `value` lies within it (ends included).
  public func contains(_ value: Double) -> Bool { low <= value && value <= high }
}

/// Intervals of a run's statistics from its frames in blocks of consecutive frames (a block
/// bootstrap): consecutive frames share the host's state (a slow second slows ten of them), so
/// frames are not independent samples, but blocks of `length` frames nearly are; resampling
/// whole blocks keeps what a block shares. In an interleaved run the blocks are the turns
/// strategies took. Seeded, so a verdict is reproducible from its results. Costs `resamples` x
/// frames, and a sort per resample for a quantile.
public enum BlockBootstrap {
  public static let resamples = 1000

  /// `values` in blocks of `length` (the last one shorter), or nil when there are fewer than two.
  public static func blocks(_ values: [Double], length: Int) -> [ArraySlice<Double>]? {
    guard length > 0, values.count > length else { return nil }
    return stride(from: 0, to: values.count, by: length).map { values[$0..<Swift.min($0 + length, values.count)] }
  }

  /// The interval of `statistic` over `values`, resampling blocks of `length`; nil with fewer
  /// than two blocks.
  public static func interval(
    _ values: [Double], length: Int, seed: UInt64 = 1, statistic: ([Double]) -> Double
  ) -> Interval? {
    guard let b = blocks(values, length: length) else { return nil }
    var rng = SplitMix64(seed: seed)
    var out = [Double]()
    out.reserveCapacity(resamples)
    var sample = [Double]()
    sample.reserveCapacity(values.count + length)
    for _ in 0..<resamples {
      sample.removeAll(keepingCapacity: true)
      for _ in 0..<b.count { sample.append(contentsOf: b[rng.below(b.count)]) }
      out.append(statistic(sample))
    }
    return _interval(&out)
  }

  /// The interval of statistic(a) / statistic(b) (or `bStatistic(b)`: p99 over the mean of
  /// the same frames). When both have as many blocks (the turns of
  /// one interleaved run), the same block indices are drawn for both, so a slow stretch of the
  /// host that slowed both is resampled together; otherwise each is resampled on its own. Nil
  /// with fewer than two blocks on either side, or a statistic of b that can be 0.
  public static func ratio(
    _ a: [Double], _ b: [Double], length: Int, seed: UInt64 = 1, statistic: ([Double]) -> Double,
    of bStatistic: (([Double]) -> Double)? = nil
  ) -> Interval? {

    guard let ba = blocks(a, length: length), let bb = blocks(b, length: length) else { return nil }
    let paired = ba.count == bb.count
    var rng = SplitMix64(seed: seed)
    var out = [Double]()
    out.reserveCapacity(resamples)
    var sa = [Double]()
    var sb = [Double]()
    for _ in 0..<resamples {
      sa.removeAll(keepingCapacity: true)
      sb.removeAll(keepingCapacity: true)
      for _ in 0..<ba.count {
        let i = rng.below(ba.count)
        sa.append(contentsOf: ba[i])
        if paired { sb.append(contentsOf: bb[i]) }
      }
      if !paired { for _ in 0..<bb.count { sb.append(contentsOf: bb[rng.below(bb.count)]) } }
      let d = bStatistic.map { $0(sb) } ?? statistic(sb)
      guard d > 0 else { return nil }
      out.append(statistic(sa) / d)
    }
    return _interval(&out)
  }

  static func _interval(_ values: inout [Double]) -> Interval {
    values.sort()
    return Interval(low: Bootstrap._percentile(values, 0.025), high: Bootstrap._percentile(values, 0.975))
  }

  /// The statistics a metric reads, over one resample.
  public static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
  public static func quantile(_ q: Double) -> ([Double]) -> Double {
    { x in Summary.percentile(x.sorted(), q) }
  }
}
