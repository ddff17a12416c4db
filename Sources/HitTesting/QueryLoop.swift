import LayerModel
import Presentation

/// The generic driver: one frame's update and queries for a concrete strategy type, so the
/// compiler specialises the whole loop per strategy (dispatch happens once, in
/// `StrategyKind.dispatch`, outside any loop).
public enum QueryLoop {
  /// Answers every point into `results`.
  @inlinable
  public static func answer<S: HitTestStrategy>(
    _ strategy: borrowing S, _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) {
    if !strategy.isCurrent { _staleFrame(S.name) }
    var counter = NoCounter()
    var i = 0
    while i < points.count {
      results[i] = strategy.hitTest(points[i], counter: &counter)
      i &+= 1
    }
  }

  /// Answers every point and answers the total work tested.
  @inlinable
  public static func answerCounting<S: HitTestStrategy>(
    _ strategy: borrowing S, _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) -> Int {
    if !strategy.isCurrent { _staleFrame(S.name) }
    var counter = TallyCounter()
    var i = 0
    while i < points.count {
      results[i] = strategy.hitTest(points[i], counter: &counter)
      i &+= 1
    }
    return counter.count
  }
}

/// Something done with a concrete strategy type: the way to go from a runtime name to
/// specialised code (`StrategyKind.dispatch`), one method per family.
public protocol StrategyVisitor {
  associatedtype Result
  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> Result
  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> Result
}

/// Every strategy of this package, by CLI name.
public enum StrategyKind: String, CaseIterable, Sendable {
  case treeWalk = "tree-walk"
  case flatScan = "flat-scan"
  case flatTree = "flat-tree"
  case bvhSAH = "bvh-sah"
  case bvhLBVH = "bvh-lbvh"
  case bvhRefit = "bvh-refit"
  case grid = "grid"
  case lazyWalk = "lazy-walk"
  case windowGrid = "window-grid"
  case staggerGrid = "stagger-grid"
  case linearBVH = "linear-bvh"

  /// Calls `visitor` with the concrete type: the one dynamic dispatch.
  public func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result {
    switch self {
    case .treeWalk: visitor.visit(frameStrategy: TreeWalk.self)
    case .flatScan: visitor.visit(frameStrategy: FlatScan.self)
    case .flatTree: visitor.visit(frameStrategy: FlatTree.self)
    case .bvhSAH: visitor.visit(frameStrategy: BVH<SAHBuilder>.self)
    case .bvhLBVH: visitor.visit(frameStrategy: BVH<LinearBuilder>.self)
    case .bvhRefit: visitor.visit(frameStrategy: RefitBVH.self)
    case .grid: visitor.visit(frameStrategy: UniformGrid.self)
    case .lazyWalk: visitor.visit(sceneStrategy: LazyWalk.self)
    case .windowGrid: visitor.visit(sceneStrategy: WindowGrid.self)
    case .staggerGrid: visitor.visit(sceneStrategy: StaggerGrid.self)
    case .linearBVH: visitor.visit(sceneStrategy: LinearBoundsBVH.self)
    }
  }

  private struct _Describe: StrategyVisitor {
    func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> (String, StrategyFamily) { (S.summary, S.family) }
    func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> (String, StrategyFamily) { (S.summary, S.family) }
  }

  public var summary: String { dispatch(_Describe()).0 }
  public var family: StrategyFamily { dispatch(_Describe()).1 }
}

/// Runs one strategy type at a builder's last build over a list of points (tools and tests).
struct _AnswerAll: StrategyVisitor {
  let builder: PresentationFrameBuilder
  let animated: Bool
  let points: [Point]

  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> [LayerID?] {
    var s = S()
    s.update(with: builder.frame)
    return run(s)
  }

  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> [LayerID?] {
    var s = S()
    s.attach(to: builder.scene, semantics: builder.semantics)
    s.update(at: builder.frame.time, animated: animated)
    return run(s)
  }

  func run<S: HitTestStrategy>(_ s: S) -> [LayerID?] {
    var out = [LayerID?](repeating: nil, count: points.count)
    points.withUnsafeBufferPointer { ps in
      out.withUnsafeMutableBufferPointer { rs in QueryLoop.answer(s, ps, into: rs) }
    }
    return out
  }
}

extension StrategyKind {
  /// This strategy's answers for `points` at the time of `builder`'s last build (a fresh
  /// instance, updated once): frame strategies read the built frame (built with every column),
  /// scene strategies the builder's compiled scene.
  public func answers(_ builder: PresentationFrameBuilder, _ points: [Point], animated: Bool = true) -> [LayerID?] {
    dispatch(_AnswerAll(builder: builder, animated: animated, points: points))
  }
}
