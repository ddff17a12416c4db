import LayerModel
import Presentation

/// The part every time-aware strategy shares around its state: attaching builds the state from
/// the scene's motion groups, the update and the counters forward to it. The query loops stay
/// each strategy's own (they are where it differs).
public protocol _TimeAwareShell: SceneStrategy, CandidateCosting {
  associatedtype Windows: _WindowPolicy
  var state: _TimeAwareState<Windows>? { get set }
}

extension _TimeAwareShell {
  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    state = _TimeAwareState(scene: scene, semantics: semantics, options: options)
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let s = state else { preconditionFailure("\(Self.name): update before attach") }
    s.update(at: time, animated: animated)
  }

  /// Updated, and the scene has not changed since (its groups would no longer describe it).
  public var isCurrent: Bool { state?.isCurrent ?? false }
  public var memoryFootprint: Int { state?.memoryFootprint ?? 0 }
  public var counters: StrategyCounters { state?.counters ?? StrategyCounters() }

  public func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> CandidateTimings {
    guard let s = state, s.isCurrent else { return .none }
    return s.costOfCandidates(points)
  }
}
