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

extension Measurement {
  /// Whether this result and `other` were measured in turns with each other (`turns`): then a
  /// slow stretch of the host met both, and their ratio does not carry it
  /// (`RunSpread.Exposure.sameTurns`).
  public func tookTurns(with other: Measurement) -> Bool { turns != 0 && turns == other.turns }
}
