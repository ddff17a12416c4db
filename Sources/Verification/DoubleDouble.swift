/// An unevaluated sum of two Doubles (`hi + lo`, |lo| <= ulp(hi) / 2): about 106 significant
/// bits, with Double's exponent range. Error-free transformations (Knuth's two-sum, a fused
/// multiply-add for the product's error) give each operation a relative error near 2^-104, so a
/// computation of a few dozen operations is exact to far below the rounding of the same
/// computation in Double. The verifier's exact oracle uses it to decide which of two differing
/// Double answers is right. Not for hot paths: every operation is 10-20 flops.
struct DoubleDouble: Comparable, CustomStringConvertible {
  var hi: Double
  var lo: Double

  init(_ v: Double) {
    hi = v
    lo = 0
  }

  init(hi: Double, lo: Double) {
    self.hi = hi
    self.lo = lo
  }

  static let zero = DoubleDouble(0)
  static let one = DoubleDouble(1)

  var isFinite: Bool { hi.isFinite && lo.isFinite }
  var isNaN: Bool { hi.isNaN || lo.isNaN }
  /// The nearest Double.
  var double: Double { hi + lo }
  var magnitude: DoubleDouble { hi < 0 || (hi == 0 && lo < 0) ? -self : self }

  var description: String { "\(hi) + \(lo)" }

  @inline(__always) static func _twoSum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    let bb = s - a
    let e = (a - (s - bb)) + (b - bb)
    return DoubleDouble(hi: s, lo: e)
  }

  @inline(__always) static func _quickTwoSum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    return DoubleDouble(hi: s, lo: b - (s - a))
  }

  static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(hi: -a.hi, lo: -a.lo) }

  static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let s = _twoSum(a.hi, b.hi)
    guard s.hi.isFinite else { return DoubleDouble(s.hi) }
    let t = _twoSum(a.lo, b.lo)
    var r = _quickTwoSum(s.hi, s.lo + t.hi)
    r = _quickTwoSum(r.hi, r.lo + t.lo)
    return r
  }

  static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + (-b) }

  static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let p = a.hi * b.hi
    guard p.isFinite, p != 0 else { return DoubleDouble(p) }
    // The product's rounding error, exactly, by a fused multiply-add.
    let e = (-p).addingProduct(a.hi, b.hi)
    let lo = e + (a.hi * b.lo + a.lo * b.hi)
    return _quickTwoSum(p, lo)
  }

  static func / (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let q1 = a.hi / b.hi
    guard q1.isFinite, q1 != 0 else { return DoubleDouble(q1) }
    var r = a - b * DoubleDouble(q1)
    let q2 = r.hi / b.hi
    r = r - b * DoubleDouble(q2)
    let q3 = r.hi / b.hi
    return _quickTwoSum(q1, q2) + DoubleDouble(q3)
  }

  static func < (a: DoubleDouble, b: DoubleDouble) -> Bool { a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }
  static func == (a: DoubleDouble, b: DoubleDouble) -> Bool { a.hi == b.hi && a.lo == b.lo }
}
