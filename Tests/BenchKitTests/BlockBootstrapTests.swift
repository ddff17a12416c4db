import BenchKit
import Foundation
import HitTesting
import Testing

/// Intervals over blocks of frames, and targets judged on them: met only when the whole
/// interval meets the target, not met when it misses it whole, undecided between.
@Suite struct BlockBootstrapTests {
  /// A frame-time-like series: `blocks` blocks of 10 frames, each block's level drawn around
  /// `mean` (a host that is slow for a while slows a whole block), frames jittered within it.
  static func series(mean: Double, blocks: Int, seed: UInt64) -> [Double] {
    var state = seed
    func uniform() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var out: [Double] = []
    for _ in 0..<blocks {
      let level = mean * (0.7 + 0.6 * uniform())
      for _ in 0..<10 { out.append(level * (0.95 + 0.1 * uniform())) }
    }
    return out
  }

  @Test func knownAnswers() throws {
    // Every block the same: the interval is the value itself.
    let flat = [Double](repeating: 7, count: 40)
    #expect(BlockBootstrap.interval(flat, length: 10, statistic: BlockBootstrap.mean) == Interval(low: 7, high: 7))
    // One block is no interval.
    #expect(BlockBootstrap.interval([1, 2, 3], length: 10, statistic: BlockBootstrap.mean) == nil)
    // Blocks of 1 and 3: every resample's mean lies between them, and both ends are reached.
    let two = [Double](repeating: 1, count: 10) + [Double](repeating: 3, count: 10)
    let i = try #require(BlockBootstrap.interval(two, length: 10, statistic: BlockBootstrap.mean))
    #expect(i.low == 1 && i.high == 3, "\(i)")
    // The same seed, the same interval.
    let s = Self.series(mean: 100, blocks: 12, seed: 3)
    #expect(
      BlockBootstrap.interval(s, length: 10, statistic: BlockBootstrap.mean)
        == BlockBootstrap.interval(s, length: 10, statistic: BlockBootstrap.mean))
    // A series against itself twice as slow, paired: the ratio is 2 in every resample.
    let r = try #require(
      BlockBootstrap.ratio(s.map { $0 * 2 }, s, length: 10, statistic: BlockBootstrap.quantile(0.99)))
    #expect(abs(r.low - 2) < 1e-12 && abs(r.high - 2) < 1e-12, "\(r)")
  }

  /// Block levels vary by +-30%: the 95% interval of the mean covers the true mean in close to
  /// 95% of 200 seeded runs of 24 blocks, where an interval over frames taken as independent
  /// samples (3 standard errors, `compare`'s old rule) would miss far more often.
  @Test func intervalsOverBlocksCoverTheTrueMean() {
    var covered = 0
    var frameRuleCovered = 0
    for trial in 0..<200 {
      let s = Self.series(mean: 100, blocks: 24, seed: UInt64(trial) &* 7919 &+ 1)
      if let i = BlockBootstrap.interval(s, length: 10, seed: UInt64(trial), statistic: BlockBootstrap.mean),
        i.contains(100)
      {
        covered += 1
      }
      let mean = BlockBootstrap.mean(s)
      let sd = (s.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(s.count - 1)).squareRoot()
      // 1.96 standard errors: the 95% interval of frames taken as independent.
      if abs(mean - 100) <= 1.96 * sd / Double(s.count).squareRoot() { frameRuleCovered += 1 }
    }
    #expect(covered >= 176 && covered <= 198, "covered \(covered) of 200")
    #expect(frameRuleCovered < covered - 30, "frames as independent samples covered \(frameRuleCovered) of 200")
  }

  @Test func statusIsDecidedByTheWholeInterval() {
    let atMost10: (Double) -> Bool = { $0 <= 10 }
    #expect(TargetVerdict.status(9, Interval(low: 8, high: 9.5), meets: atMost10) == .met)
    #expect(TargetVerdict.status(11, Interval(low: 10.5, high: 12), meets: atMost10) == .notMet)
    #expect(TargetVerdict.status(9, Interval(low: 8, high: 11), meets: atMost10) == .undecided)
    #expect(TargetVerdict.status(11, Interval(low: 9, high: 12), meets: atMost10) == .undecided)
    #expect(TargetVerdict.status(9, nil, meets: atMost10) == .met)
    #expect(TargetVerdict.status(11, nil, meets: atMost10) == .notMet)
    #expect(TargetVerdict.all([.met, .undecided, .met]) == .undecided)
    #expect(TargetVerdict.all([.met, .undecided, .notMet]) == .notMet)
    #expect(TargetVerdict.all([.met, .met]) == .met)
  }

  /// A result of one short run (its fields real) on a quiet host, given made-up frames:
  /// `frames` as its queries' times, or as its presentation builds' (`build`).
  static func result(
    _ name: String, _ frames: [Double], build: Bool = false, turns: UInt64? = nil
  ) throws -> BenchKit.Measurement {
    var c = RunConfiguration(
      scene: .generated(.app), layers: 100, strategies: [.treeWalk, .grid], queries: [1], frames: 3, warmup: 1)
    c.pacing = .backToBack
    var m = try #require(Runner.run(c, model: try! Runner.scene(c)).first)
    m.strategy = name
    m.frameTimings = frames.map {
      var t = FrameTiming()
      if build { t.presentationNs = UInt64($0) } else { t.queriesNs = UInt64($0) }
      return t
    }
    m.frameNs = Summary(frames)
    m.presentationNs = Summary(build ? frames : frames.map { _ in 0 })
    if let turns { m.turns = turns }
    // A quiet host, whatever the host was while the template ran (`HostLoadTests`).
    m.hostOtherCores = 0
    return m
  }

  /// A speedup target on two results of one run's turns, with made-up frames: a clear 2x meets
  /// a 1.5x target, misses a 3x one, and a 2x target (inside the interval) is undecided; a
  /// result of one block has no interval of its own, and is judged on the spread between runs
  /// alone (both processes' own: `RunSpread.Exposure.sameTurns`).
  @Test func speedupTargetsSayUndecidedWithinTheInterval() throws {
    func result(_ name: String, _ frames: [Double]) throws -> BenchKit.Measurement {
      try Self.result(name, frames, turns: 7)
    }
    let fast = Self.series(mean: 1000, blocks: 20, seed: 11)
    let slow = Self.series(mean: 2000, blocks: 20, seed: 12)
    let results = [try result("fast", fast), try result("slow", slow)]
    func verdict(_ factor: Double) -> TargetVerdict {
      Target.speedup("t", ResultQuery(strategy: "fast"), over: ResultQuery(strategy: "slow"), atLeast: factor)
        .evaluate(results)
    }
    #expect(verdict(1.5).status == .met, "\(verdict(1.5).measured)")
    #expect(verdict(3).status == .notMet, "\(verdict(3).measured)")
    let ratio = BlockBootstrap.mean(slow) / BlockBootstrap.mean(fast)
    #expect(verdict(ratio).status == .undecided, "\(verdict(ratio).measured)")
    #expect(verdict(ratio).measured.contains("[95% "))
    let short = [try result("fast", Array(fast.prefix(10))), try result("slow", Array(slow.prefix(10)))]
    let shortRatio = BlockBootstrap.mean(Array(slow.prefix(10))) / BlockBootstrap.mean(Array(fast.prefix(10)))
    let spread = exp(1.959964 * RunSpread.Exposure.sameTurns.sigma)
    func shortVerdict(_ factor: Double) -> TargetVerdict {
      Target.speedup("t", ResultQuery(strategy: "fast"), over: ResultQuery(strategy: "slow"), atLeast: factor)
        .evaluate(short)
    }
    #expect(shortVerdict(shortRatio / spread / 1.01).status == .met, "\(shortVerdict(0.5).measured)")
    #expect(shortVerdict(shortRatio / spread * 1.01).status == .undecided)
    #expect(shortVerdict(shortRatio * spread * 1.01).status == .notMet)
    #expect(shortVerdict(0.5).measured.contains("across runs]"))
  }

  /// What one run cannot see of the next, added to an interval: nothing for a count, the
  /// spread alone where the run had no interval, and each end moved by the root of the sum
  /// of the squares (in logs) where it had one.
  @Test func acrossRunsWidensByTheSpreadBetweenRuns() throws {
    let z = 1.959964
    let own = Interval(low: 90, high: 125)
    #expect(RunSpread.acrossRuns(100, own, .none) == own)
    #expect(RunSpread.acrossRuns(100, nil, .none) == nil)
    let sigma = RunSpread.Exposure.absolute.sigma
    #expect(abs(sigma - (RunSpread.host * RunSpread.host + RunSpread.process * RunSpread.process).squareRoot()) < 1e-12)
    let alone = try #require(RunSpread.acrossRuns(100, nil, .absolute))
    #expect(abs(alone.low - 100 * exp(-z * sigma)) < 1e-9 && abs(alone.high - 100 * exp(z * sigma)) < 1e-9)
    let wide = try #require(RunSpread.acrossRuns(100, own, .absolute))
    let low = (log(100.0 / 90) * log(100.0 / 90) + z * sigma * z * sigma).squareRoot()
    let high = (log(1.25) * log(1.25) + z * sigma * z * sigma).squareRoot()
    #expect(abs(wide.low - 100 * exp(-low)) < 1e-9 && abs(wide.high - 100 * exp(high)) < 1e-9)
    // The exposures in order: one process, two processes in turns, one run, two moments.
    let exposures: [RunSpread.Exposure] = [.withinResult, .sameTurns, .absolute, .separateTurns]
    let sigmas = exposures.map(\.sigma)
    #expect(sigmas == sigmas.sorted() && sigmas[0] > 0)
  }

  /// The flip the suites showed (issue 43): the same commit's app 10k build measured twice,
  /// 74.9 ns a layer over a tight interval of its run's blocks, then 47.9: "not met", then
  /// "met", against 70 ns. An absolute time carries the host's state of the whole run, which
  /// no block of the run shows: judged across runs, the first is undecided and the second met;
  /// twice the limit is still not met.
  @Test func absoluteTimeTargetsCarryTheHostBetweenRuns() throws {
    let layers = Double(try Self.result("grid", [1]).layers)
    func build(_ perLayer: Double) throws -> BenchKit.Measurement {
      // 40 frames in four blocks whose means are within 1.5% of each other: a tight interval
      // of the run's own.
      let frames = (0..<40).map { (i: Int) -> Double in
        let block = Double(i / 10)
        return perLayer * layers * (0.9925 + 0.005 * block)
      }
      return try Self.result("grid", frames, build: true)
    }
    func verdict(_ perLayer: Double) throws -> TargetVerdict {
      Target.atMost("t", ResultQuery(strategy: "grid"), .presentationNsPerLayer, 70).evaluate([try build(perLayer)])
    }
    let first = try build(74.9)
    let tight = try #require(Metric.presentationNsPerLayer.interval(first))
    #expect(tight.low > 70, "the run's own interval misses the limit whole: \(tight)")
    let (slow, fast, far) = (try verdict(74.9), try verdict(47.9), try verdict(140))
    #expect(slow.status == .undecided, "\(slow.measured)")
    #expect(fast.status == .met, "\(fast.measured)")
    #expect(far.status == .notMet, "\(far.measured)")
  }

  /// A cost per candidate is the difference of two short timings, and reads 0 where they could
  /// not tell one: such a result is not the best of its family (the time-aware suite's "ns per
  /// candidate <= 30" read "met" on stagger-grid's 0.0 ns in one run, 105 ns in another).
  @Test func anUnmeasuredCostPerCandidateIsNotTheBest() throws {
    var told = try Self.result("window-grid", [1000])
    told.nsPerCandidate = 80
    var untold = try Self.result("stagger-grid", [1000])
    untold.nsPerCandidate = 0
    let verdict = Target.atMost("t", ResultQuery(strategy: nil), .nsPerCandidate, 30).evaluate([untold, told])
    #expect(verdict.status == .notMet && verdict.measured.hasPrefix("window-grid"), "\(verdict.measured)")
    let none = Target.atMost("t", ResultQuery(), .nsPerCandidate, 30).evaluate([untold])
    #expect(none.status == .notMeasured, "\(none.measured)")
  }

  /// A ratio of two results carries the host only when they ran at different moments: in one
  /// run's turns a 2x speedup meets a 1.6x target; the same frames measured in two runs cannot
  /// tell.
  @Test func ratiosOfSeparateRunsCarryTheHost() throws {
    let fast = Self.series(mean: 1000, blocks: 20, seed: 21).map { 1000 + ($0 - 1000) / 20 }
    let slow = fast.map { $0 * 2 }
    func verdict(_ turns: (UInt64, UInt64)) throws -> TargetVerdict {
      Target.speedup("t", ResultQuery(strategy: "fast"), over: ResultQuery(strategy: "slow"), atLeast: 1.6)
        .evaluate([try Self.result("fast", fast, turns: turns.0), try Self.result("slow", slow, turns: turns.1)])
    }
    let (inTurns, apart, alone) = (try verdict((3, 3)), try verdict((3, 4)), try verdict((0, 0)))
    #expect(inTurns.status == .met, "\(inTurns.measured)")
    #expect(apart.status == .undecided, "\(apart.measured)")
    #expect(alone.status == .undecided, "results not measured in turns carry the host: \(alone.measured)")
  }
}
