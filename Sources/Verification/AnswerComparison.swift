import HitTesting
import LayerModel
import Presentation

/// How a strategy's answer compares with the reference's at one point.
public enum AnswerComparison: Sendable, Equatable {
  case agree
  /// Different, but the point is provably within floating-point tolerance of a decision
  /// boundary of one of the two answers' rows (or a witness within a tiny offset exists).
  case tolerated
  case disagree

  /// Compares `answer` with `expected` (the tree walk's answer at `p` on `frame`).
  public static func compare(
    _ answer: LayerID?, _ expected: LayerID?, at p: Point, frame: PresentationFrame, reference: TreeWalk
  ) -> AnswerComparison {
    if answer == expected { return .agree }
    for id in [answer, expected] {
      if let id, let row = frame.row(of: id), frame.isNearDecisionBoundary(row: row, p) { return .tolerated }
    }
    // A witness: the reference itself gives `answer` within a relative 1e-15 ... 1e-7 of p.
    var scale = 1e-15
    while scale <= 1.5e-7 {
      let d = scale * (1 + abs(p.x) + abs(p.y))
      for dx in [-d, 0, d] {
        for dy in [-d, 0, d] where reference.hitTest(Point(x: p.x + dx, y: p.y + dy)) == answer {
          return .tolerated
        }
      }
      scale *= 100
    }
    return .disagree
  }
}
