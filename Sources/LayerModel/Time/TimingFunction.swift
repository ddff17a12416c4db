/// A cubic Bezier pacing curve through (0,0), c1, c2, (1,1) (CAMediaTimingFunction). Inputs are
/// clamped to [0, 1]; `callAsFunction` solves x(t) = input by Newton's method with a bisection
/// fallback to 1e-9 and answers y(t). About 5 Newton steps, no allocation.
public struct TimingFunction: Hashable, Sendable {
  public var c1x: Double, c1y: Double, c2x: Double, c2y: Double

  /// Control points; x coordinates are clamped to [0, 1] so the curve is a function of x.
  public init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
    self.c1x = Swift.min(Swift.max(c1x, 0), 1)
    self.c1y = c1y
    self.c2x = Swift.min(Swift.max(c2x, 0), 1)
    self.c2y = c2y
  }

  public static let linear = TimingFunction(0, 0, 1, 1)
  public static let easeIn = TimingFunction(0.42, 0, 1, 1)
  public static let easeOut = TimingFunction(0, 0, 0.58, 1)
  public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)
  public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1)

  /// The named curves under Core Animation's names (kCAMediaTimingFunction...).
  public static let named: [(name: String, function: TimingFunction)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInEaseOut", .easeInEaseOut), ("default", .default),
  ]

  public init?(named name: String) {
    guard let f = Self.named.first(where: { $0.name == name }) else { return nil }
    self = f.function
  }

  /// The curve's name when it is one of the named ones.
  public var name: String? { Self.named.first(where: { $0.function == self })?.name }

  @inlinable static func _bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
  }

  @inlinable static func _bezierSlope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
  }

  /// The curve parameter whose x is `x` (x in [0, 1]).
  public func solveParameter(forX x: Double) -> Double {
    if c1x == c1y && c2x == c2y { return x }
    var t = x
    for _ in 0..<8 {
      let err = Self._bezier(t, c1x, c2x) - x
      if abs(err) < 1e-12 { return t }
      let slope = Self._bezierSlope(t, c1x, c2x)
      if abs(slope) < 1e-9 { break }
      let next = t - err / slope
      if !(next >= 0 && next <= 1) { break }
      t = next
    }
    if abs(Self._bezier(t, c1x, c2x) - x) < 1e-12 { return t }
    // Bisection: x(t) is monotone in t for control x in [0, 1].
    var lo = 0.0
    var hi = 1.0
    t = x
    for _ in 0..<64 {
      let v = Self._bezier(t, c1x, c2x)
      if abs(v - x) < 1e-12 { break }
      if v < x { lo = t } else { hi = t }
      t = (lo + hi) / 2
    }
    return t
  }

  /// The paced progress for input progress `x`, clamped to [0, 1] first.
  public func callAsFunction(_ x: Double) -> Double {
    guard !x.isNaN else { return x }
    let x = Swift.min(Swift.max(x, 0), 1)
    if self == .linear { return x }
    return Self._bezier(solveParameter(forX: x), c1y, c2y)
  }
}
