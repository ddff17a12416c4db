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
/// specialised code (`StrategyKind.dispatch`).
public protocol StrategyVisitor {
  associatedtype Result
  func visit<S: HitTestStrategy>(_ type: S.Type) -> Result
}

/// Every strategy, by CLI name.
public enum StrategyKind: String, CaseIterable, Sendable {
  case treeWalk = "tree-walk"
  case flatScan = "flat-scan"
  case flatTree = "flat-tree"
  case bvhSAH = "bvh-sah"
  case bvhLBVH = "bvh-lbvh"
  case bvhRefit = "bvh-refit"
  case grid = "grid"

  /// Calls `visitor` with the concrete type: the one dynamic dispatch.
  public func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result {
    switch self {
    case .treeWalk: visitor.visit(TreeWalk.self)
    case .flatScan: visitor.visit(FlatScan.self)
    case .flatTree: visitor.visit(FlatTree.self)
    case .bvhSAH: visitor.visit(BVH<SAHBuilder>.self)
    case .bvhLBVH: visitor.visit(BVH<LinearBuilder>.self)
    case .bvhRefit: visitor.visit(RefitBVH.self)
    case .grid: visitor.visit(UniformGrid.self)
    }
  }

  public var summary: String {
    struct Summary: StrategyVisitor {
      func visit<S: HitTestStrategy>(_ type: S.Type) -> String { S.summary }
    }
    return dispatch(Summary())
  }
}

/// Runs one strategy type over a frame and a list of points (the generic half of the verifier).
struct _AnswerAll: StrategyVisitor {
  let frame: PresentationFrame
  let points: [Point]

  func visit<S: HitTestStrategy>(_ type: S.Type) -> [LayerID?] {
    var s = S()
    s.update(with: frame)
    var out = [LayerID?](repeating: nil, count: points.count)
    points.withUnsafeBufferPointer { ps in
      out.withUnsafeMutableBufferPointer { rs in QueryLoop.answer(s, ps, into: rs) }
    }
    return out
  }
}

extension StrategyKind {
  /// This strategy's answers for `points` on `frame` (a fresh instance, updated once).
  public func answers(_ frame: PresentationFrame, _ points: [Point]) -> [LayerID?] {
    dispatch(_AnswerAll(frame: frame, points: points))
  }
}
