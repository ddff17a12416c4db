import BenchKit
import Testing

/// new / base over runs and their blocks (`RunRatios`): the run as a whole taken out of each
/// strategy's ratio, its noise from the runs as well as the blocks, and the family-wise z.
@Suite struct RunRatiosTests {
  /// Blocks of 10 frames at `level` times a per-block wobble of +-`spread` (deterministic).
  static func blocks(_ level: Double, count: Int = 6, spread: Double = 0.02, phase: Int = 0) -> [RunRatios.Block] {
    (0..<count).map { i in (level * (1 + spread * Double((i + phase) % 3 - 1)), 10) }
  }

  @Test func knownQuantiles() {
    #expect(Swift.abs(RunRatios.z(twoSided: 0.05) - 1.959_963_985) < 1e-8)
    #expect(Swift.abs(RunRatios.z(twoSided: 0.001) - 3.290_526_731) < 1e-8)
    // Student's t, from tables: a few blocks widen the interval far beyond the normal's.
    for (alpha, freedom, t) in [
      (0.05, 1, 12.706_205), (0.05, 10, 2.228_139), (0.01, 5, 4.032_143), (0.001, 30, 3.646_0),
    ] {
      #expect(Swift.abs(RunRatios.t(twoSided: alpha, freedom: freedom) - t) < 1e-4 * t, "\(alpha), \(freedom)")
    }
    #expect(Swift.abs(RunRatios.t(twoSided: 0.05, freedom: 5000) - RunRatios.z(twoSided: 0.05)) < 1e-9)
  }

  /// Every strategy of the new runs 20% slower together (a slower stretch of the host): each
  /// strategy's ratio is 1.2 and far from 1 against its blocks alone, but relative to the run it
  /// is 1 within its interval; one strategy 10% slower than the others stands out by 10%.
  @Test func theRunAsAWholeIsTakenOut() throws {
    let levels = [100.0, 250, 400, 900]
    let base = levels.map { l in [Self.blocks(l), Self.blocks(l, phase: 1)] }
    let shifted = levels.map { l in [Self.blocks(l * 1.2, phase: 2), Self.blocks(l * 1.2)] }
    let e = RunRatios.estimate(base: base, new: shifted, statistic: RunRatios.mean)
    let z = RunRatios.z(twoSided: 0.05 / 4)
    for s in 0..<4 {
      let absolute = try #require(e.absolute[s])
      #expect(Swift.abs(absolute.ratio - 1.2) < 0.01 && absolute.interval(z: z).low > 1.1, "\(absolute)")
      let relative = try #require(e.relative[s])
      #expect(relative.interval(z: z).contains(1), "\(s): \(relative)")
    }
    #expect(Swift.abs(try #require(e.host).ratio - 1.2) < 0.01)
    var planted = shifted
    planted[1] = planted[1].map { run in run.map { ($0.mean * 1.1, $0.frames) } }
    let p = RunRatios.estimate(base: base, new: planted, statistic: RunRatios.mean)
    let slowed = try #require(p.relative[1])
    #expect(Swift.abs(slowed.ratio - 1.1) < 0.01 && slowed.interval(z: z).low > 1.05, "\(slowed)")
    #expect(try #require(p.relative[0]).interval(z: z).contains(1))
  }

  /// A strategy that differs between the runs of one side is uncertain by that much: its
  /// interval holds both runs' levels however tight each run's blocks are (blocks alone would
  /// give a narrow interval).
  @Test func runsAddTheirSpread() throws {
    let tight = [
      [Self.blocks(100, spread: 0.001), Self.blocks(140, spread: 0.001)],
      [Self.blocks(300, spread: 0.001), Self.blocks(300, spread: 0.001)],
    ]
    let same = [
      [Self.blocks(140, spread: 0.001), Self.blocks(100, spread: 0.001)],
      [Self.blocks(300, spread: 0.001), Self.blocks(300, spread: 0.001)],
    ]
    let e = RunRatios.estimate(base: tight, new: same, statistic: RunRatios.mean)
    let i = try #require(e.absolute[0]).interval(z: 1.96)
    #expect(i.low < 0.9 && i.high > 1.1, "\(i)")
    // Two strategies: no run as a whole.
    #expect(e.host == nil && e.relative[0] == nil)
    // Fewer than two blocks on a side: no estimate for that strategy.
    let lone = RunRatios.estimate(
      base: [[[(100.0, 10)]], [Self.blocks(5)]], new: [[[(100.0, 10)]], [Self.blocks(5)]], statistic: RunRatios.mean)
    #expect(lone.absolute[0] == nil && lone.absolute[1] != nil)
  }
}
