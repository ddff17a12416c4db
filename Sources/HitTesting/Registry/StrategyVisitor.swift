/// Something done with a concrete strategy type, from its runtime name (`StrategyKind.dispatch`):
/// one method per family. For tools and tests; the measured loops are specialised through
/// BenchKit's `Strategies` table instead.
public protocol StrategyVisitor {
  associatedtype Result
  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> Result
  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> Result
}

/// A registered type, opened by `dispatch`.
protocol _StrategyEntry: Sendable {
  func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result
}

struct _FrameEntry<S: FrameStrategy>: _StrategyEntry {
  func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result { visitor.visit(frameStrategy: S.self) }
}

struct _SceneEntry<S: SceneStrategy>: _StrategyEntry {
  func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result { visitor.visit(sceneStrategy: S.self) }
}
