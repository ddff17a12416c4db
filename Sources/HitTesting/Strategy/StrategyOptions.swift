/// What a run tells a strategy when it binds it to a scene: nothing a strategy reads from
/// anywhere else, and nothing that changes while it answers.
public struct StrategyOptions: Sendable, Hashable {
  /// A fixed window (or segment) length for the time-aware strategies, in seconds; nil: chosen
  /// by cost (`WindowLength`).
  public var windowSeconds: Double?

  public init(windowSeconds: Double? = nil) {
    self.windowSeconds = windowSeconds
  }
}
