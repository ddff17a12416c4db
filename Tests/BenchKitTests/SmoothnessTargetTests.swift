import Testing

@testable import BenchKit

/// The time-aware suite's smoothness target: a result's p99 against its mean, limited by a
/// factor or by its control's ratio in the same run, whichever is larger.
@Suite struct SmoothnessTargetTests {
  /// Frames of `base` nanoseconds with a spike of `spike` times that every `every` frames,
  /// 400 frames (40 blocks).
  static func spiky(_ base: Double, spike: Double, every: Int) -> [Double] {
    (0..<400).map { $0 % every == every - 1 ? base * spike : base }
  }

  func verdict(_ result: [Double], control: [Double]?) throws -> TargetVerdict {
    var results = [try BlockBootstrapTests.result("window-grid", result, turns: 3)]
    if let control { results.append(try BlockBootstrapTests.result("grid", control, turns: 3)) }
    return Target.everyWithinOrControl(
      "t", ResultQuery(strategy: "window-grid"), .frameNsP99, atMost: 1.5, of: .frameNsMean, control: "grid"
    ).evaluate(results)
  }

  /// A p99 three times the mean is not met against a smooth control (the limit is then the
  /// factor), met against a control whose p99 is six times its mean (the host's jitter,
  /// measured), and missing without a control; a smooth result meets it against any control.
  @Test func aSpikyResultIsJudgedAgainstItsControlsJitter() throws {
    let spiky = Self.spiky(10_000, spike: 3.1, every: 25)
    let smooth = Self.spiky(100_000, spike: 1.05, every: 25)
    let jittery = Self.spiky(100_000, spike: 7, every: 20)
    let alone = try verdict(spiky, control: smooth)
    #expect(alone.status == .notMet, "\(alone.measured)")
    #expect(alone.measured.contains("grid's in the same run"), "\(alone.measured)")
    let beside = try verdict(spiky, control: jittery)
    #expect(beside.status == .met, "\(beside.measured)")
    #expect(try verdict(spiky, control: nil).status == .notMeasured)
    #expect(try verdict(smooth, control: jittery).status == .met)
    #expect(try verdict(smooth, control: smooth).status == .met)
  }

  /// The control is found whatever its thread count: a time-aware strategy builds no frame and
  /// reports one thread, the grid beside it the run's two (the time-aware suite's default). It
  /// fails, the target not measured, when the control must have the result's thread count.
  @Test func theControlIsTheRunsWhateverItsThreads() throws {
    var timed = try BlockBootstrapTests.result("window-grid", Self.spiky(10_000, spike: 3.1, every: 25), turns: 3)
    timed.threads = 1
    var grid = try BlockBootstrapTests.result("grid", Self.spiky(100_000, spike: 7, every: 20), turns: 3)
    grid.threads = 2
    let verdict = Target.everyWithinOrControl(
      "t", ResultQuery(strategy: "window-grid"), .frameNsP99, atMost: 1.5, of: .frameNsMean, control: "grid"
    ).evaluate([timed, grid])
    #expect(verdict.status == .met, "\(verdict.measured)")
  }

  /// A verdict not met names a result that misses: beside a result whose p99 is far above
  /// its mean on a few frames (the worst ratio, but its interval reaching below the limit:
  /// undecided), the one whose every frame stays 3x in 25 is the one named, with the counts.
  /// Naming the worst ratio instead (as before) names the undecided one: fails.
  @Test func aMissedVerdictNamesAResultThatMisses() throws {
    func result(_ name: String, _ frames: [Double], queries: Int) throws -> BenchKit.Measurement {
      var m = try BlockBootstrapTests.result(name, frames, turns: 3)
      m.queriesPerFrame = queries
      return m
    }
    // Five spikes of 40x in 400 frames: a p99 of 40x the base in this run, of the base in a
    // resampled run with fewer than five.
    let rare = (0..<400).map { [57, 141, 233, 301, 377].contains($0) ? 400_000.0 : 10_000 }
    let results = [
      try result("window-grid", rare, queries: 1),
      try result("window-grid", Self.spiky(10_000, spike: 3.1, every: 25), queries: 1000),
      try result("grid", Self.spiky(100_000, spike: 1.05, every: 25), queries: 1),
      try result("grid", Self.spiky(100_000, spike: 1.05, every: 25), queries: 1000),
    ]
    let verdict = Target.everyWithinOrControl(
      "t", ResultQuery(strategy: "window-grid"), .frameNsP99, atMost: 1.5, of: .frameNsMean, control: "grid"
    ).evaluate(results)
    #expect(verdict.status == .notMet, "\(verdict.measured)")
    #expect(verdict.measured.contains("Q = 1000)"), "\(verdict.measured)")
    #expect(verdict.measured.contains("; 1 not met; 1 undecided"), "\(verdict.measured)")
    let every = Target.everyWithin(
      "t", ResultQuery(strategy: "window-grid"), .frameNsP99, atMost: 1.5, of: .frameNsMean
    )
    .evaluate(results)
    #expect(every.status == .notMet, "\(every.measured)")
    #expect(every.measured.contains("Q = 1000)"), "\(every.measured)")
  }

  /// The threads suite's CPU target: a result against the same result built on one thread.
  /// A second thread's frames 1.2x a single thread's meet a 2x limit, 3x ones do not, and a
  /// result with no single-thread counterpart leaves the target unmeasured; the worst pair is
  /// named.
  @Test func aResultIsJudgedAgainstItsSingleThreadCounterpart() throws {
    func verdict(_ factor: Double, single: Bool) throws -> TargetVerdict {
      var two = try BlockBootstrapTests.result("grid", Self.spiky(10_000 * factor, spike: 1, every: 25), turns: 3)
      two.threads = 2
      var results = [two]
      if single {
        var one = try BlockBootstrapTests.result("grid", Self.spiky(10_000, spike: 1, every: 25), turns: 3)
        one.threads = 1
        results.append(one)
      }
      return Target.everyAgainstThreads(
        "t", ResultQuery(strategy: "grid", threads: 2), threads: 1, .frameNsMean, atMost: 2
      )
      .evaluate(results)
    }
    let near = try verdict(1.2, single: true)
    #expect(near.status == .met, "\(near.measured)")
    #expect(near.measured.contains("on 2 threads against") && near.measured.contains("= 1.2"), "\(near.measured)")
    let far = try verdict(3, single: true)
    #expect(far.status == .notMet, "\(far.measured)")
    #expect(try verdict(1.2, single: false).status == .notMeasured)
  }
}
