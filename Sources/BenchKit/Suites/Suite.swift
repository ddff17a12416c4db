import HitTesting
import Scenes

/// A named list of run configurations: what `hitbench run --suite NAME` runs. Written in
/// `Benchmarks/` with a small declarative DSL:
///
/// ```swift
/// Suite("crossover", "frame time against queries per frame") {
///   Run(.app, layers: 10_000, queries: [1, 10, 100, 1000, 10_000])
/// }
/// ```
public struct Suite: Sendable {
  public var name: String
  public var summary: String
  public var configurations: [RunConfiguration]

  public init(_ name: String, _ summary: String, @SuiteBuilder _ body: () -> [RunConfiguration]) {
    self.name = name
    self.summary = summary
    self.configurations = body()
  }
}

/// One configuration in a suite (a `RunConfiguration` with the suite's defaults).
public struct Run {
  public var configuration: RunConfiguration

  public init(
    _ kind: SceneKind, layers: Int, animated: Double = 1, queries: [Int], workload: Workload = .uniform,
    strategies: [StrategyKind] = StrategyKind.allCases, frames: Int = 60, warmup: Int = 10
  ) {
    configuration = RunConfiguration(
      scene: .generated(kind), layers: layers, animatedFraction: animated, strategies: strategies, queries: queries,
      workload: workload, frames: frames, warmup: warmup)
  }

  /// A scene file.
  public init(
    file: String, queries: [Int], workload: Workload = .uniform, strategies: [StrategyKind] = StrategyKind.allCases,
    frames: Int = 60, warmup: Int = 10
  ) {
    configuration = RunConfiguration(
      scene: .file(file), layers: 0, strategies: strategies, queries: queries, workload: workload, frames: frames,
      warmup: warmup)
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
