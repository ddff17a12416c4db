import BenchKit
import BenchmarkSuites
import Testing

/// The `memory` suite's targets (Benchmarks/Suites.swift), which RESULTS.md renders from
/// `scripts/memory.sh`'s runs: each result judged by its own process's peak resident memory
/// per layer, at a million particles only, rebuild and lazy strategies against 1,000 bytes a
/// layer and time-aware ones against 1,500.
@Suite struct MemorySuiteTests {
  @Test func memoryTargetsJudgeEachStrategyByItsPeakPerLayer() throws {
    var c = RunConfiguration(
      scene: .generated(.particles), layers: 100, strategies: [.treeWalk, .windowGrid], queries: [1], frames: 2,
      warmup: 0)
    c.pacing = .backToBack
    let run = Runner.run(c, model: try Runner.scene(c))
    let tree = try #require(run.first { $0.strategy == "tree-walk" })
    let window = try #require(run.first { $0.strategy == "window-grid" })
    func atAMillion(_ m: BenchKit.Measurement, bytesPerLayer: Int) -> BenchKit.Measurement {
      var m = m
      m.layers = 1_000_000
      m.peakResidentBytes = bytesPerLayer * 1_000_000
      return m
    }
    func statuses(_ results: [BenchKit.Measurement]) -> [TargetVerdict.Status] {
      memorySuite.evaluateTargets(results).map(\.verdict.status)
    }
    #expect(memorySuite.targets.count == 2)
    #expect(
      statuses([atAMillion(tree, bytesPerLayer: 900), atAMillion(window, bytesPerLayer: 1400)]) == [.met, .met])
    #expect(
      statuses([atAMillion(tree, bytesPerLayer: 1100), atAMillion(window, bytesPerLayer: 1400)]) == [.notMet, .met])
    #expect(
      statuses([atAMillion(tree, bytesPerLayer: 900), atAMillion(window, bytesPerLayer: 1600)]) == [.met, .notMet])
    // One strategy's process: the other family's target is not measured there (memory_merge.py
    // leaves such verdicts out when it merges the processes).
    #expect(statuses([atAMillion(tree, bytesPerLayer: 900)]) == [.met, .notMeasured])
    // Below a million layers nothing is judged.
    #expect(statuses([tree, window]) == [.notMeasured, .notMeasured])
    let verdict = memorySuite.evaluateTargets([atAMillion(tree, bytesPerLayer: 1234)])[0].verdict
    #expect(verdict.measured.contains("1,234 bytes a layer"), "\(verdict.measured)")
  }
}
