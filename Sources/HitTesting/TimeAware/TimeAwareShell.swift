import LayerModel
import Presentation

/// The state a time-aware strategy keeps behind its value (a class: queries are non-mutating
/// and count their work): built from the scene's motion groups, updated once a frame.
public protocol _TimeAwareState: AnyObject {
  /// Groups the scene's layers (`MotionGroups`) and sizes the state for them.
  init(scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions)
  /// Updated, and the scene has not changed since.
  var isCurrent: Bool { get }
  var memoryFootprint: Int { get }
  var counters: StrategyCounters { get }
  func update(at time: Double, animated: Bool)
  /// See `CandidateCosting`.
  func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64)
}

/// The part every time-aware strategy shares around its state: attaching builds the state from
/// the scene's motion groups, the update and the counters forward to it. The query loops stay
/// each strategy's own (they are where it differs).
public protocol _TimeAwareShell: SceneStrategy, CandidateCosting {
  associatedtype _State: _TimeAwareState
  var state: _State? { get set }
}

extension _TimeAwareShell {
  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    state = _State(scene: scene, semantics: semantics, options: options)
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let s = state else { preconditionFailure("\(Self.name): update before attach") }
    s.update(at: time, animated: animated)
  }

  /// Updated, and the scene has not changed since (its groups would no longer describe it).
  public var isCurrent: Bool { state?.isCurrent ?? false }
  public var memoryFootprint: Int { state?.memoryFootprint ?? 0 }
  public var counters: StrategyCounters { state?.counters ?? StrategyCounters() }

  public func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64) {
    guard let s = state, s.isCurrent else { return (0, 0) }
    return s.costOfCandidates(points)
  }
}
