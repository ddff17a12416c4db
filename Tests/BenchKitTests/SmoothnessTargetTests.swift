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
