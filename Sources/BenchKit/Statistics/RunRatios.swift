import Foundation
import Scenes

/// new / base of a time mean for every strategy of one configuration, with its noise, from
/// several runs of each side and the blocks of each run (what `hitbench compare A1,A2 B1,B2`
/// holds). Two things move a strategy's mean between runs of one binary on a shared machine,
/// and a verdict must see both (docs/measuring.md):
///
/// - **The run as a whole.** A run lands on a slow or a fast stretch of the host: every
///   strategy of it 10-25% slower or faster together. Strategies of one run take turns in
///   blocks, so that factor is common to them: the `host` ratio (the median of the strategies'
///   ratios) estimates it, and each strategy's ratio `relative` to it removes it. A change that
///   slows one strategy shows against the others; one that slows every strategy alike (shared
///   code, or the host) shows in `host` and in instruction counts, not here.
/// - **What a run cannot average out.** Blocks differ within a run, and a process differs from
///   the next (its memory layout, which stretch of the host it met). The noise is a two-stage
///   bootstrap: each side's runs drawn with replacement, then each drawn run's blocks (the same
///   block indices for every strategy of a run where they have as many: a block index is one
///   round of turns, one moment of the host). Each estimate is the log of the ratio and the
///   standard deviation of its resampled logs.
///
/// Seeded, so a verdict is reproducible. Costs `resamples` x (runs' blocks) x strategies.
public enum RunRatios {
  public static let resamples = 2000

  /// One block: its mean and its frame count.
  public typealias Block = (mean: Double, frames: Int)

  /// A log ratio and the bootstrap's standard deviation of it.
  public struct Estimate: Sendable, Equatable {
    public var log: Double
    public var sd: Double
    /// The degrees of freedom `sd` rests on: the blocks of both sides less one each (a few
    /// blocks estimate a spread poorly, and the interval widens as Student's t does).
    public var freedom: Int

    public init(log: Double, sd: Double, freedom: Int = .max) {
      self.log = log
      self.sd = sd
      self.freedom = freedom
    }

    /// The ratio's interval at z standard deviations each side (a normal interval of the log,
    /// which reaches the far tails a family-wise level asks for where percentiles of a few
    /// thousand resamples cannot).
    public func interval(z: Double) -> Interval {
      Interval(low: Foundation.exp(log - z * sd), high: Foundation.exp(log + z * sd))
    }

    /// The ratio's interval at two-sided level `alpha`, from Student's t with `freedom`.
    public func interval(twoSided alpha: Double) -> Interval {
      interval(z: RunRatios.t(twoSided: alpha, freedom: freedom))
    }

    public var ratio: Double { Foundation.exp(log) }
  }

  /// The estimates of one configuration: per strategy (in the order given) its ratio, and
  /// relative to the run when there are at least `strategiesForHost` strategies; the run as a
  /// whole. Nil entries: a strategy with fewer than two blocks on a side.
  public struct Estimates: Sendable {
    public var absolute: [Estimate?]
    public var relative: [Estimate?]
    public var host: Estimate?
  }

  /// The fewest strategies whose median says what the run as a whole did: with three, one
  /// strategy's own change cannot move it alone.
  public static let strategiesForHost = 3

  /// `base[s][r]` and `new[s][r]`: strategy s's blocks in run r of each side (every strategy
  /// has the same runs on a side), and the statistic of a strategy's blocks (`mean`, or a
  /// quantile of the blocks' frames).
  ///
  /// `processSpread` is one process's own standard deviation (of the log), added for each side
  /// measured by a single run, where the runs' draw cannot see it: a process keeps its memory
  /// layout and what it met of the host for all its repetitions.
  public static func estimate<B>(
    base: [[[B]]], new: [[[B]]], seed: UInt64 = 1, processSpread: Double = 0, statistic: ([B]) -> Double
  ) -> Estimates {
    let count = base.count
    precondition(new.count == count, "RunRatios: the sides hold different strategies")
    func usable(_ runs: [[B]]) -> Bool { runs.reduce(0) { $0 + $1.count } >= 2 }
    let valid = (0..<count).map { usable(base[$0]) && usable(new[$0]) }
    let members = (0..<count).filter { valid[$0] }
    guard !members.isEmpty else {
      return Estimates(absolute: valid.map { _ in nil }, relative: valid.map { _ in nil }, host: nil)
    }
    var rng = SplitMix64(seed: seed)
    var drawn = [[B]](repeating: [], count: count)
    // Each side's statistic for every strategy: over all its runs and blocks, or a resample.
    func statistics(_ side: [[[B]]], resample: Bool) -> [Double] {
      let runs = side[members[0]].count
      for s in members { drawn[s].removeAll(keepingCapacity: true) }
      let picks = resample ? (0..<runs).map { _ in rng.below(runs) } : Array(0..<runs)
      for run in picks {
        // One draw of block indices for every strategy of the run with as many blocks.
        let n = side[members[0]][run].count
        let shared = members.allSatisfy { side[$0][run].count == n }
        let draws = resample && shared ? (0..<n).map { _ in rng.below(n) } : []
        for s in members {
          let blocks = side[s][run]
          for j in 0..<blocks.count {
            drawn[s].append(!resample ? blocks[j] : shared ? blocks[draws[j]] : blocks[rng.below(blocks.count)])
          }
        }
      }
      return (0..<count).map { drawn[$0].isEmpty ? .nan : statistic(drawn[$0]) }
    }
    func logs(resample: Bool) -> (absolute: [Double], host: Double) {
      let b = statistics(base, resample: resample)
      let n = statistics(new, resample: resample)
      let l = (0..<count).map { b[$0] > 0 && n[$0] > 0 ? Foundation.log(n[$0] / b[$0]) : .nan }
      let sorted = members.map { l[$0] }.filter(\.isFinite).sorted()
      let host =
        sorted.count < strategiesForHost
        ? Double.nan
        : sorted.count % 2 == 1
          ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
      return (l, host)
    }
    let point = logs(resample: false)
    var absolute = [[Double]](repeating: [], count: count)
    var relative = [[Double]](repeating: [], count: count)
    var host = [Double]()
    for _ in 0..<resamples {
      let r = logs(resample: true)
      for s in members where r.absolute[s].isFinite {
        absolute[s].append(r.absolute[s])
        if r.host.isFinite { relative[s].append(r.absolute[s] - r.host) }
      }
      if r.host.isFinite { host.append(r.host) }
    }
    let unseen = Double([base, new].filter { $0[members[0]].count < 2 }.count) * processSpread * processSpread
    func blocks(_ s: Int) -> Int { base[s].reduce(0) { $0 + $1.count } + new[s].reduce(0) { $0 + $1.count } - 2 }
    func estimate(_ log: Double, _ samples: [Double], freedom: Int) -> Estimate? {
      guard log.isFinite, samples.count == resamples else { return nil }
      let mean = samples.reduce(0, +) / Double(samples.count)
      let variance = samples.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(samples.count - 1)
      return Estimate(log: log, sd: (variance + unseen).squareRoot(), freedom: Swift.max(freedom, 1))
    }
    let fewest = members.map(blocks).min()!
    return Estimates(
      absolute: (0..<count).map { valid[$0] ? estimate(point.absolute[$0], absolute[$0], freedom: blocks($0)) : nil },
      relative: (0..<count).map {
        valid[$0] ? estimate(point.absolute[$0] - point.host, relative[$0], freedom: blocks($0)) : nil
      },
      host: estimate(point.host, host, freedom: fewest))
  }

  /// The frame-weighted mean of blocks.
  public static func mean(_ blocks: [Block]) -> Double {
    var sum = 0.0
    var frames = 0
    for b in blocks {
      sum += b.mean * Double(b.frames)
      frames += b.frames
    }
    return frames > 0 ? sum / Double(frames) : .nan
  }

  /// The q-quantile of the blocks' frames together (`Summary.percentile`).
  public static func quantile(_ q: Double) -> ([ArraySlice<Double>]) -> Double {
    { blocks in Summary.percentile(blocks.flatMap { $0 }.sorted(), q) }
  }

  /// Student's t quantile with P(|T| > t) = `alpha` for `freedom` degrees of freedom (the
  /// normal's beyond a thousand), by bisection on the tail, which is the regularised
  /// incomplete beta function I(freedom / (freedom + t^2); freedom / 2, 1 / 2).
  public static func t(twoSided alpha: Double, freedom: Int) -> Double {
    precondition(alpha > 0 && alpha < 1 && freedom >= 1, "RunRatios.t: alpha \(alpha), freedom \(freedom)")
    guard freedom <= 1000 else { return z(twoSided: alpha) }
    let v = Double(freedom)
    var lo = 0.0
    var hi = 1.0
    while _incompleteBeta(v / (v + hi * hi), v / 2, 0.5) > alpha { hi *= 2 }
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if _incompleteBeta(v / (v + mid * mid), v / 2, 0.5) > alpha { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }

  /// The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz's
  /// method), taken directly or through I_x(a, b) = 1 - I_{1-x}(b, a), whichever converges.
  static func _incompleteBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
    guard x > 0 else { return 0 }
    guard x < 1 else { return 1 }
    let gammas: Double = Foundation.lgamma(a + b) - Foundation.lgamma(a) - Foundation.lgamma(b)
    let powers: Double = a * Foundation.log(x) + b * Foundation.log(1 - x)
    let front = Foundation.exp(gammas + powers)
    if x < (a + 1) / (a + b + 2) { return front * _betaFraction(x, a, b) / a }
    return 1 - front * _betaFraction(1 - x, b, a) / b
  }

  static func _betaFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if Swift.abs(d) < tiny { d = tiny }
    d = 1 / d
    var h = d
    for m in 1...500 {
      let k = Double(m)
      // The even step, then the odd one.
      var step = k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k))
      d = 1 + step * d
      if Swift.abs(d) < tiny { d = tiny }
      c = 1 + step / c
      if Swift.abs(c) < tiny { c = tiny }
      d = 1 / d
      h *= d * c
      step = -(a + k) * (a + b + k) * x / ((a + 2 * k) * (a + 2 * k + 1))
      d = 1 + step * d
      if Swift.abs(d) < tiny { d = tiny }
      c = 1 + step / c
      if Swift.abs(c) < tiny { c = tiny }
      d = 1 / d
      let delta = d * c
      h *= delta
      if Swift.abs(delta - 1) < 1e-15 { break }
    }
    return h
  }

  /// The two-sided normal quantile z with P(|Z| > z) = `alpha` (1.96 for 0.05), by bisection
  /// on erfc: exact to 1e-12 for any alpha a comparison asks.
  public static func z(twoSided alpha: Double) -> Double {
    precondition(alpha > 0 && alpha < 1, "RunRatios.z: alpha \(alpha) outside (0, 1)")
    var lo = 0.0
    var hi = 40.0
    for _ in 0..<100 {
      let mid = (lo + hi) / 2
      if Foundation.erfc(mid / 2.0.squareRoot()) > alpha { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }
}
