import HitTesting
import Scenes

/// A named list of run configurations, with the thresholds `hitbench compare` checks and the
/// targets the suite's results are judged by: what `hitbench run --suite NAME` runs. Written in
/// `Benchmarks/` with a small declarative DSL, thresholds and targets kept next to the runs
/// they apply to (as package-benchmark keeps thresholds with each benchmark):
///
/// ```swift
/// Suite("crossover", "frame time against queries per frame") {
///   Run(.app, layers: 10_000, queries: [1, 10, 100, 1000, 10_000])
/// } targets: {
///   Target.speedup("grid at least 10x tree-walk at Q = 1000", .init(strategy: "grid", queries: 1000),
///     over: .init(strategy: "tree-walk", queries: 1000), atLeast: 10)
/// }
/// ```
public struct Suite: Sendable {
  public var name: String
  public var summary: String
  public var configurations: [RunConfiguration]
  /// What `compare` checks for this suite's results, per metric.
  public var thresholds: [Metric: Threshold]
  public var targets: [Target]

  /// The thresholds of a suite that declares none: the end-to-end frame's mean within 5% and
  /// its p99 within 10%, the strategy's own share's mean within 5%, no allocation in the frame
  /// loop where there was none, and a library's allocations within 5%.
  public static let defaultThresholds: [Metric: Threshold] = [
    .frameNsMean: .percent(5), .frameNsP99: .percent(10), .hitTestNsMean: .percent(5),
    // Zero stays zero (any allocation appearing is a regression); a peer that allocates does
    // so by its thread pool's scheduling, a few percent apart between two runs of the same
    // binary (embree-motion 11.60 and 11.86 a frame): counted exactly, `run --suite default
    // --repeat 3` twice reported four such "regressions".
    .allocationsPerFrame: .percent(5),
    // Counted instructions do not move with the host: 1% is a change of the code's own work
    // (compared only when both results counted them). A background build's cost is an
    // average over the windows posted during the measured frames, and which windows those are
    // follows the host's pace (the last one posted or not): it moves by up to about 1%.
    .instructionsPerFrame: .percent(1), .instructionsPerBackgroundBuild: .percent(2),
  ]

  public init(
    _ name: String, _ summary: String, thresholds: [Metric: Threshold] = Suite.defaultThresholds,
    @SuiteBuilder _ body: () -> [RunConfiguration], @TargetBuilder targets: () -> [Target] = { [] }
  ) {
    self.name = name
    self.summary = summary
    self.configurations = body()
    self.thresholds = thresholds
    self.targets = targets()
  }

  /// Every target judged on `results`.
  public func evaluateTargets(_ results: [Measurement]) -> [(name: String, verdict: TargetVerdict)] {
    targets.map { ($0.name, $0.evaluate(results)) }
  }
}

@resultBuilder
public enum TargetBuilder {
  public static func buildExpression(_ t: Target) -> [Target] { [t] }
  public static func buildExpression(_ ts: [Target]) -> [Target] { ts }
  public static func buildBlock(_ parts: [Target]...) -> [Target] { parts.flatMap { $0 } }
  public static func buildArray(_ parts: [[Target]]) -> [Target] { parts.flatMap { $0 } }
  public static func buildOptional(_ part: [Target]?) -> [Target] { part ?? [] }
}

/// One configuration in a suite (a `RunConfiguration` with the suite's defaults).
public struct Run {
  public var configuration: RunConfiguration

  /// The whole windows every suite's time-aware strategies hold unless a run says otherwise:
  /// they run past `frames` (up to `RunConfiguration.longestRunFactor` times) until their
  /// re-indexes are in the mean and the p99 as in a long run; a result that still holds fewer
  /// is marked not comparable (`Measurement.holdsTooFewWindows`).
  public static let windowsToHold = 3.0

  public init(
    _ kind: SceneKind, layers: Int, animated: Double = 1, queries: [Int], workload: Workload = .uniform,
    strategies: [StrategyKind] = StrategyKind.allCases, frames: Int = 60, warmup: Int = 10, threads: [Int]? = nil,
    window: Double? = nil, windowsAtLeast: Double = Run.windowsToHold
  ) {
    configuration = RunConfiguration(
      scene: .generated(kind), layers: layers, animatedFraction: animated, strategies: strategies, queries: queries,
      workload: workload, frames: frames, warmup: warmup)
    if let threads { configuration.threads = threads }
    configuration.windowSeconds = window
    configuration.windowsAtLeast = windowsAtLeast
  }

  /// A scene file.
  public init(
    file: String, queries: [Int], workload: Workload = .uniform, strategies: [StrategyKind] = StrategyKind.allCases,
    frames: Int = 60, warmup: Int = 10, windowsAtLeast: Double = Run.windowsToHold
  ) {
    configuration = RunConfiguration(
      scene: .file(file), layers: 0, strategies: strategies, queries: queries, workload: workload, frames: frames,
      warmup: warmup)
    configuration.windowsAtLeast = windowsAtLeast
  }
}

@resultBuilder
public enum SuiteBuilder {
  public static func buildExpression(_ run: Run) -> [RunConfiguration] { [run.configuration] }
  public static func buildExpression(_ runs: [Run]) -> [RunConfiguration] { runs.map(\.configuration) }
  public static func buildBlock(_ parts: [RunConfiguration]...) -> [RunConfiguration] { parts.flatMap { $0 } }
  public static func buildArray(_ parts: [[RunConfiguration]]) -> [RunConfiguration] { parts.flatMap { $0 } }
  public static func buildOptional(_ part: [RunConfiguration]?) -> [RunConfiguration] { part ?? [] }
}
