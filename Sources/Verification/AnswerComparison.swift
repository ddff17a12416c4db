import HitTesting
import LayerModel
import Presentation

/// How a strategy's answer compares with the reference's (`tree-walk`) at one point.
public enum AnswerComparison: Sendable, Equatable {
  case agree
  /// Different, and the exact oracle accepts both: the point is within the measured rounding
  /// of a decision boundary, where two correct Double computations may differ.
  case tolerated
  /// Different, and at least one of the two is wrong beyond rounding; `referenceWrong` says
  /// whether tree-walk's own answer is one the oracle rejects.
  case disagree(referenceWrong: Bool)

  /// The largest share of tolerated comparisons a verification may report and pass: points
  /// are placed on and near edges on purpose, but a tolerance that covers more than 1% of them
  /// is hiding something.
  public static let toleratedShareLimit = 0.01

  /// Compares `answer` with `expected` (tree-walk's answer at `p`), asking `oracle` (built for
  /// the same frame) only when they differ.
  public static func compare(_ answer: LayerID?, _ expected: LayerID?, at p: Point, oracle: ExactOracle)
    -> AnswerComparison
  {
    if answer == expected { return .agree }
    let strategyOK = oracle.accepts(answer, at: p, by: .flat)
    let referenceOK = oracle.accepts(expected, at: p, by: .walk)
    return strategyOK && referenceOK ? .tolerated : .disagree(referenceWrong: !referenceOK)
  }

  public var isDisagreement: Bool {
    if case .disagree = self { return true }
    return false
  }
}
