import Foundation
import Scenes

/// The Mann-Whitney U test (the Wilcoxon rank-sum test), two-sided: whether values of one
/// sample tend to be larger than the other's, from ranks alone, so a few slow outliers weigh no
/// more than any other larger value. google/benchmark's compare.py judges repetitions with it.
/// The samples must be independent: repetitions or blocks of a run, never a run's frames,
/// which share the host's state.
///
/// The p-value is exact (the count of rank arrangements) when there are no ties and one sample
/// has at most 8 values, and otherwise from the normal approximation with the tie correction and
/// a continuity correction: the choice SciPy's `mannwhitneyu` makes, whose values the tests
/// reproduce (beyond 2,000 pairs the approximation is used even then, to bound the counts'
/// memory). Costs O(n log n) for the ranks and, when exact, O(n1^2 n2^2) for the counts.
public struct RankTest: Sendable, Equatable {
  /// U of the first sample: the pairs (a, b) with a > b, ties counting a half.
  public var u: Double
  /// The two-sided p-value: the chance of a U at least this far from n1 n2 / 2 when both
  /// samples come from one distribution.
  public var pValue: Double
  /// Whether `pValue` is exact (else the normal approximation).
  public var exact: Bool

  /// Tests `a` against `b`; nil when either is empty or holds a value that is not finite.
  public init?(_ a: [Double], _ b: [Double]) {
    let n1 = a.count
    let n2 = b.count
    guard n1 > 0, n2 > 0, a.allSatisfy(\.isFinite), b.allSatisfy(\.isFinite) else { return nil }
    // Midranks of the pooled sample (1-based), and the tie groups' sizes.
    let pooled = (a.map { ($0, true) } + b.map { ($0, false) }).sorted { $0.0 < $1.0 }
    var rankSumA = 0.0
    var tieTerm = 0.0
    var i = 0
    while i < pooled.count {
      var j = i + 1
      while j < pooled.count && pooled[j].0 == pooled[i].0 { j += 1 }
      let midrank = Double(i + j + 1) / 2
      for k in i..<j where pooled[k].1 { rankSumA += midrank }
      let t = Double(j - i)
      tieTerm += t * t * t - t
      i = j
    }
    let u1 = rankSumA - Double(n1 * (n1 + 1)) / 2
    let u2 = Double(n1 * n2) - u1
    u = u1
    let farther = Swift.max(u1, u2)
    if tieTerm == 0 && (n1 <= 8 || n2 <= 8) && n1 * n2 <= 2000 {
      exact = true
      pValue = Swift.min(1, 2 * Self._exactUpperTail(Int(farther.rounded()), n1, n2))
    } else {
      exact = false
      let n = Double(n1 + n2)
      let mean = Double(n1 * n2) / 2
      let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
      guard variance > 0 else {
        pValue = 1
        return
      }
      let z = (farther - mean - 0.5) / variance.squareRoot()
      pValue = Swift.min(1, Foundation.erfc(z / 2.0.squareRoot()))
    }
  }

  /// P(U >= u) for samples of n1 and n2 values without ties: the share of the C(n1 + n2, n1)
  /// rank arrangements whose U is at least u (counts by the recurrence over the largest
  /// value's sample, in doubles: exact up to 2^53 arrangements, far beyond 8 and any n2 used).
  static func _exactUpperTail(_ u: Int, _ n1: Int, _ n2: Int) -> Double {
    let maxU = n1 * n2
    guard u > 0 else { return 1 }
    guard u <= maxU else { return 0 }
    // layer[j][k] for the current i: arrangements of i values of the first sample and j of the
    // second with U = k. The largest value is the first sample's (each of the j others below
    // it adds 1: from layer i - 1, j, k - j) or the second's (layer i, j - 1, k).
    var previous = [[Double]](repeating: [1], count: n2 + 1)  // i = 0: U = 0 only
    for i in 1...n1 {
      var layer = [[Double]](repeating: [], count: n2 + 1)
      layer[0] = [1]
      for j in 1...n2 {
        var row = [Double](repeating: 0, count: i * j + 1)
        let fromFirst = previous[j]
        let fromSecond = layer[j - 1]
        for k in 0...(i * j) {
          var c = 0.0
          if k >= j && k - j < fromFirst.count { c += fromFirst[k - j] }
          if k < fromSecond.count { c += fromSecond[k] }
          row[k] = c
        }
        layer[j] = row
      }
      previous = layer
    }
    let all = previous[n2]
    let total = all.reduce(0, +)
    return all[u...].reduce(0, +) / total
  }
}

/// A seeded percentile bootstrap: the interval of a statistic over resamples (with replacement)
/// of independent samples, for intervals where no formula applies (the ratio of two means).
/// Deterministic for a seed. Costs `resamples` x (n1 + n2) random draws.
public enum Bootstrap {
  /// The `confidence` interval (0.95: the 2.5th to 97.5th percentile) of mean(a) / mean(b), `a`
  /// and `b` resampled independently; nil when either is empty or b's mean can be 0.
  public static func ratioOfMeans(
    _ a: [Double], _ b: [Double], confidence: Double = 0.95, resamples: Int = 2000, seed: UInt64 = 1
  ) -> (low: Double, high: Double)? {
    guard !a.isEmpty, !b.isEmpty, resamples > 1, confidence > 0, confidence < 1,
      b.allSatisfy({ $0 > 0 }), a.allSatisfy(\.isFinite), b.allSatisfy(\.isFinite)
    else { return nil }
    var rng = SplitMix64(seed: seed)
    var ratios = [Double]()
    ratios.reserveCapacity(resamples)
    func resampledMean(_ x: [Double]) -> Double {
      var sum = 0.0
      for _ in 0..<x.count { sum += x[rng.below(x.count)] }
      return sum / Double(x.count)
    }
    for _ in 0..<resamples {
      let ma = resampledMean(a)
      ratios.append(ma / resampledMean(b))
    }
    ratios.sort()
    let tail = (1 - confidence) / 2
    return (_percentile(ratios, tail), _percentile(ratios, 1 - tail))
  }

  /// Linear interpolation between the closest ranks (as `Summary`'s percentiles).
  static func _percentile(_ sorted: [Double], _ q: Double) -> Double {
    let position = q * Double(sorted.count - 1)
    let lo = Int(position.rounded(.down))
    let hi = Swift.min(lo + 1, sorted.count - 1)
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (position - Double(lo))
  }
}
