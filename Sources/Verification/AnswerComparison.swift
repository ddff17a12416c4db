import HitTesting
import LayerModel
import Presentation

#if canImport(Glibc)
  import Glibc
#endif

/// How a strategy's answer compares with the reference's (`tree-walk`) at one point.
public enum AnswerComparison: Sendable, Equatable {
  case agree
  /// Different, and the oracle accepts both: the point is within rounding of a decision
  /// boundary, where two correct Double computations may differ.
  case tolerated
  /// Different, and at least one of the two is wrong beyond rounding; `referenceWrong` says
  /// whether tree-walk's own answer is one the oracle rejects.
  case disagree(referenceWrong: Bool)

  /// The largest share of tolerated comparisons a verification may report and pass, for each
  /// strategy, preset and tree on its own: points are placed on and near edges on purpose, but
  /// a tolerance that covers more than 1% of them is hiding something.
  public static let toleratedShareLimit = 0.01

  /// Whether `tolerated` of `comparisons` shows a tolerated share above the limit: the share is
  /// above it and a one-sided binomial test at the limit rejects it (p < 0.001), so that a tally
  /// of a few hundred comparisons with three or four tolerated (a share of 1-2% by chance) does
  /// not fail a verification, while any real excess over thousands does.
  public static func toleratedShareExceedsLimit(tolerated: Int, comparisons: Int) -> Bool {
    guard comparisons > 0, Double(tolerated) > toleratedShareLimit * Double(comparisons) else { return false }
    return _binomialUpperTail(tolerated, comparisons, toleratedShareLimit) < 1e-3
  }

  /// P(X >= k) for X ~ Binomial(n, p), summed in log space from k up while the terms matter
  /// (they fall geometrically above the mean).
  static func _binomialUpperTail(_ k: Int, _ n: Int, _ p: Double) -> Double {
    @inline(__always) func logFactorial(_ x: Int) -> Double { Glibc.lgamma(Double(x) + 1) }
    let lp = Glibc.log(p)
    let lq = Glibc.log1p(-p)
    let ln = logFactorial(n)
    var total = 0.0
    var i = k
    while i <= n {
      let term = Glibc.exp(ln - logFactorial(i) - logFactorial(n - i) + Double(i) * lp + Double(n - i) * lq)
      total += term
      if term < total * 1e-15 || term == 0 { break }
      i += 1
    }
    return total
  }

  /// Compares `answer` with `expected` (tree-walk's answer at `p`), asking `oracle` (for the same
  /// scene, time, tree and semantics) only when they differ.
  public static func compare(_ answer: LayerID?, _ expected: LayerID?, at p: Point, oracle: ReferenceOracle)
    -> AnswerComparison
  {
    if answer == expected { return .agree }
    let strategyOK = oracle.accepts(answer, at: p)
    let referenceOK = oracle.accepts(expected, at: p)
    return strategyOK && referenceOK ? .tolerated : .disagree(referenceWrong: !referenceOK)
  }

  public var isDisagreement: Bool {
    if case .disagree = self { return true }
    return false
  }
}
