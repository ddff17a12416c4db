import BenchKit
import Foundation
import Testing

/// The rank test and the bootstrap against known answers: SciPy 1.17's
/// `scipy.stats.mannwhitneyu(a, b, alternative="two-sided")` on the same samples, and the
/// bootstrap's coverage on samples whose ratio is known.
@Suite struct RankTestTests {
  /// (a, b, U, p, exact) from SciPy.
  static let cases: [(String, [Double], [Double], Double, Double, Bool)] = [
    ("apart, small, exact", [1.1, 2.3, 3.7, 4.2], [5.5, 6.1, 7.9, 8.4, 9.0], 0, 0.015873015873015872, true),
    (
      "overlapping, exact", [3.1, 5.2, 1.4, 7.7, 2.2, 6.6], [4.5, 8.8, 9.1, 3.3, 7.2, 10.4, 5.9], 9,
      0.10139860139860139, true
    ),
    (
      "ties, normal approximation", [1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7, 8, 9, 10],
      [3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 9, 10, 11, 12, 12, 13], 58, 0.014682414744068922, false
    ),
    (
      "one small sample among many, exact", (0..<5).map { 0.5 + Double($0) * 1.37 },
      (0..<20).map { 3 + Double($0) * 0.91 }, 7, 0.0015810276679841897, true
    ),
  ]

  @Test(arguments: 0..<cases.count) func matchesSciPy(_ index: Int) throws {
    let (name, a, b, u, p, exact) = Self.cases[index]
    let test = try #require(RankTest(a, b), "\(name)")
    #expect(test.u == u, "\(name)")
    #expect(test.exact == exact, "\(name)")
    #expect(abs(test.pValue - p) <= 1e-12 * Swift.max(p, 1e-300) + 1e-15, "\(name): p \(test.pValue) against \(p)")
  }

  /// A larger case with ties (SciPy: U 122.5, p 2.0285009304100692e-05), and the symmetries: the
  /// samples swapped give U' = n1 n2 - U and the same p; a sample against itself gives p = 1.
  @Test func largeSamplesSwapsAndIdenticalSamples() throws {
    let a = (0..<30).map { 100 + Double(($0 * 37) % 23) * 0.5 }
    let b = (0..<25).map { 104 + Double(($0 * 53) % 29) * 0.5 }
    let test = try #require(RankTest(a, b))
    #expect(test.u == 122.5)
    #expect(abs(test.pValue - 2.0285009304100692e-05) <= 1e-15)
    let swapped = try #require(RankTest(b, a))
    #expect(swapped.u == Double(a.count * b.count) - test.u)
    #expect(swapped.pValue == test.pValue)
    #expect(try #require(RankTest([1, 2, 3], [1, 2, 3])).pValue == 1)
    #expect(RankTest([], [1]) == nil)
    #expect(RankTest([1, .nan], [1]) == nil)
  }

  /// Samples of 20 drawn around means in the ratio 1.1: the 95% interval of the ratio of
  /// means covers 1.1 in close to 95% of 200 seeded trials, and is the same for the same seed.
  @Test func bootstrapIntervalsCoverTheTrueRatio() throws {
    var covered = 0
    var width = 0.0
    var state: UInt64 = 12345
    func uniform() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    // A skewed, frame-time-like sample: mean 1 x scale (an exponential tail over a floor).
    func sample(_ scale: Double) -> [Double] {
      (0..<20).map { _ in scale * (0.7 + 0.3 * -Foundation.log(Swift.max(1e-12, uniform()))) }
    }
    for trial in 0..<200 {
      let a = sample(1.1)
      let b = sample(1)
      let interval = try #require(Bootstrap.ratioOfMeans(a, b, resamples: 1000, seed: UInt64(trial)))
      #expect(interval.low <= interval.high)
      if interval.low <= 1.1 && 1.1 <= interval.high { covered += 1 }
      width += (interval.high - interval.low) / 200
    }
    // A percentile bootstrap of 20 values under-covers a little; far from 95% would be a bug.
    #expect((170...199).contains(covered), "covered \(covered) of 200")
    // And it is an interval that says something: about 2 x 1.96 standard errors of the ratio
    // (0.37 on average here; 184 of 200 covered), not a wide one that covers anything.
    #expect(width > 0.2 && width < 0.6, "mean width \(width)")
    let a = sample(1.2)
    let b = sample(1)
    let first = Bootstrap.ratioOfMeans(a, b, seed: 7)
    let again = Bootstrap.ratioOfMeans(a, b, seed: 7)
    #expect(first?.low == again?.low && first?.high == again?.high)
    #expect(Bootstrap.ratioOfMeans(a, [0, 1]) == nil)
  }
}
