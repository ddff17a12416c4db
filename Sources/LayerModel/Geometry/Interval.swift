/// A closed interval of reals, for bounding what an animation can do over a span of time
/// (motion bounds). Arithmetic is the natural interval arithmetic in round-to-nearest: results
/// can miss the true range by a few units in the last place, so users pad what they derive
/// from it (`padded`). An interval with a NaN or infinite end is `unbounded`.
public struct Interval: Hashable, Sendable {
  public var lo: Double
  public var hi: Double

  @inlinable public init(_ lo: Double, _ hi: Double) {
    self.lo = lo
    self.hi = hi
  }

  @inlinable public init(_ x: Double) {
    lo = x
    hi = x
  }

  @inlinable public static var unit: Interval { Interval(0, 1) }
  @inlinable public static var everything: Interval { Interval(-.infinity, .infinity) }

  /// Whether both ends are finite numbers.
  @inlinable public var isBounded: Bool { lo.isFinite && hi.isFinite && lo <= hi }
  @inlinable public var isPoint: Bool { lo == hi }
  @inlinable public var width: Double { hi - lo }

  @inlinable public func contains(_ x: Double) -> Bool { x >= lo && x <= hi }

  /// The smallest interval holding both.
  @inlinable @inline(__always) public func hull(_ o: Interval) -> Interval {
    Interval(Self._min(lo, o.lo), Self._max(hi, o.hi))
  }
  @inlinable @inline(__always) public func hull(_ x: Double) -> Interval {
    Interval(Self._min(lo, x), Self._max(hi, x))
  }

  /// `Swift.min` and `Swift.max` of two numbers, spelled as the standard library spells them
  /// (the same choice for NaN and signed zeros): in the bounds' widening loops their generic
  /// specialisations stayed calls, six an interval product (docs/optimisation-log.md entry 79).
  @inlinable @inline(__always) static func _min(_ x: Double, _ y: Double) -> Double { y < x ? y : x }
  @inlinable @inline(__always) static func _max(_ x: Double, _ y: Double) -> Double { y >= x ? y : x }

  /// Widened by a relative 1e-9 of its ends' magnitude (and a tiny absolute amount): covers
  /// the rounding of a few dozen operations that produced it.
  @inlinable public var padded: Interval {
    let p = (Swift.abs(lo) + Swift.abs(hi)) * 1e-9 + 1e-12
    return Interval(lo - p, hi + p)
  }

  @inlinable public static func + (a: Interval, b: Interval) -> Interval { Interval(a.lo + b.lo, a.hi + b.hi) }
  @inlinable public static func - (a: Interval, b: Interval) -> Interval { Interval(a.lo - b.hi, a.hi - b.lo) }
  @inlinable public static prefix func - (a: Interval) -> Interval { Interval(-a.hi, -a.lo) }

  @inlinable @inline(__always) public static func * (a: Interval, b: Interval) -> Interval {
    let p = a.lo * b.lo
    let q = a.lo * b.hi
    let r = a.hi * b.lo
    let s = a.hi * b.hi
    // 0 * inf is NaN: an unbounded factor makes an unbounded product.
    if p.isNaN || q.isNaN || r.isNaN || s.isNaN { return .everything }
    return Interval(_min(_min(p, q), _min(r, s)), _max(_max(p, q), _max(r, s)))
  }

  /// `a * Interval(k)`, the same ends bit for bit: a point's two products are its ends'.
  @inlinable @inline(__always) public static func * (a: Interval, k: Double) -> Interval {
    let p = a.lo * k
    let r = a.hi * k
    if p.isNaN || r.isNaN { return .everything }
    return Interval(_min(p, r), _max(p, r))
  }

  /// `a * b`, by `a * b.lo`'s two products where b is a point (the same ends), else four.
  @inlinable @inline(__always) public func times(_ b: Interval) -> Interval {
    b.lo == b.hi ? self * b.lo : self * b
  }

  /// cos over the interval (exact ends, extremes where a multiple of pi falls inside). Beyond
  /// 2^40 radians (where Double no longer resolves a millionth of a turn, and cos itself loses
  /// its digits) the whole of [-1, 1].
  public var cosine: Interval {
    guard isBounded, Swift.max(Swift.abs(lo), Swift.abs(hi)) < 0x1p40 else { return Interval(-1, 1) }
    if hi - lo >= 2 * Double.pi { return Interval(-1, 1) }
    // (A point, as a spring's held start is, takes one cosine.)
    var r = lo == hi ? Interval(_cos(lo)) : Interval(_cos(lo)).hull(_cos(hi))
    // Extremes of cos at k pi: +1 for even k, -1 for odd k (at most three below 2 pi of width).
    var k = (lo / Double.pi).rounded(.up)
    while k * Double.pi <= hi {
      // (The parity by an integer: |k| < 2^40 here, and a remainder is a call to fmod.)
      r = r.hull(Int64(k) & 1 == 0 ? 1 : -1)
      k += 1
    }
    return Interval(Swift.max(r.lo, -1), Swift.min(r.hi, 1))
  }

  /// sin over the interval.
  public var sine: Interval {
    (self - Interval(Double.pi / 2)).cosine
  }
}
