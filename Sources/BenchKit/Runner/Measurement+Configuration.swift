extension Measurement {
  /// What a result was measured on, but for the strategy and Q: results that share it are
  /// comparable side by side.
  public struct Configuration: Hashable, Sendable {
    public var scene: String
    public var layers: Int
    public var animatedFraction: Double
    public var workload: String
    public var semantics: String
    public var tree: String
    public var threads: Int
    public var pacing: String
  }

  public var configuration: Configuration {
    Configuration(
      scene: scene, layers: layers, animatedFraction: animatedFraction, workload: workload, semantics: semantics,
      tree: tree, threads: threads, pacing: pacing)
  }
}
