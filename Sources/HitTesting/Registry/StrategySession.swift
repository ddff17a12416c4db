import LayerModel
@_spi(FaultInjection) import Presentation

/// One instance of a strategy kept from frame to frame over a scene of its own, as a run keeps
/// it: whatever it holds between frames (time-aware windows and their background builds,
/// bvh-refit's tree, flat-scan's changed rows, the builder's incremental presentation build)
/// is what answers. For verification that follows a strategy's history (`Verifier` histories,
/// `hittest --replay`); nothing measured goes through it (one dynamic call a frame).
public final class StrategySession {
  public let kind: StrategyKind
  /// The builder the strategy's frames (a frame strategy) or its compiled scene (a scene
  /// strategy) come from: its own, built incrementally frame after frame.
  public let builder: PresentationFrameBuilder
  let _frame: (Double, Bool, [Point]) -> [LayerID?]

  /// A session of `kind` over a scene compiled from `model` (with `faults` injected), bound
  /// once (a scene strategy with `options`).
  public init(
    _ kind: StrategyKind, model: Layer, semantics: HitTestSemantics, options: StrategyOptions = StrategyOptions(),
    faults: InjectedFaults = InjectedFaults()
  ) {
    self.kind = kind
    builder = PresentationFrameBuilder(root: model, semantics: semantics)
    builder.scene._faults = faults
    _frame = kind.dispatch(_SessionMaker(builder: builder, options: options))
  }

  /// The strategy's answers at clock time `time` (the presentation tree, or with
  /// `animated: false` the model tree), after every frame asked for before: one frame.
  public func answers(at time: Double, animated: Bool, _ points: [Point]) -> [LayerID?] {
    _frame(time, animated, points)
  }
}

/// Holds a strategy value across frames (closures cannot capture an `inout` struct).
final class _Held<S> {
  var strategy: S
  init(_ s: S) { strategy = s }
}

/// Makes a session's frame for the concrete type.
struct _SessionMaker: StrategyVisitor {
  let builder: PresentationFrameBuilder
  let options: StrategyOptions

  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> (Double, Bool, [Point]) -> [LayerID?] {
    let held = _Held(S())
    let builder = builder
    return { time, animated, points in
      // The strategy's own columns, as a run builds them.
      held.strategy.update(with: builder.build(at: time, animated: animated, columns: S.columns))
      return _answerAll(held.strategy, points)
    }
  }

  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> (Double, Bool, [Point]) -> [LayerID?] {
    var s = S()
    s.attach(to: builder.scene, semantics: builder.semantics, options: options)
    let held = _Held(s)
    return { time, animated, points in
      held.strategy.update(at: time, animated: animated)
      return _answerAll(held.strategy, points)
    }
  }
}
