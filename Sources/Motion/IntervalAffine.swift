import LayerModel
import Presentation

/// A 2D affine map whose entries are intervals: every map a moving layer can have over a
/// window. Composition and application by interval arithmetic (conservative, up to rounding:
/// boxes are padded).
struct IntervalAffine {
  var a: Interval, b: Interval, c: Interval, d: Interval, tx: Interval, ty: Interval

  /// `s` then `o` (as `AffineMap.concat`).
  static func concat(_ s: IntervalAffine, _ o: IntervalAffine) -> IntervalAffine {
    IntervalAffine(
      a: s.a * o.a + s.b * o.c, b: s.a * o.b + s.b * o.d, c: s.c * o.a + s.d * o.c, d: s.c * o.b + s.d * o.d,
      tx: s.tx * o.a + s.ty * o.c + o.tx, ty: s.tx * o.b + s.ty * o.d + o.ty)
  }

  /// The box of a local box's image, padded for the interval arithmetic's rounding and, as
  /// `ConservativeBox` pads a frame's boxes, for the exact test's own rounding under any map of
  /// the set (componentwise, with each inverse entry bounded by its cofactor over the smallest
  /// determinant); the whole plane when some map of the set is singular.
  func box(of l: Box) -> Box {
    let x = Interval(l.minX, l.maxX)
    let y = Interval(l.minY, l.maxY)
    let wx = (x * a + y * c + tx).padded
    let wy = (x * b + y * d + ty).padded
    guard wx.isBounded, wy.isBounded else { return .everything }
    @inline(__always) func big(_ i: Interval) -> Double { Swift.max(Swift.abs(i.lo), Swift.abs(i.hi)) }
    let det = a * d - b * c
    guard det.lo > 0 || det.hi < 0 else { return .everything }
    let smallest = Swift.min(Swift.abs(det.lo), Swift.abs(det.hi))
    // The inverse's entries: d, -b, -c, a over the determinant, translation -t times them.
    let ia = big(d) / smallest
    let ib = big(b) / smallest
    let ic = big(c) / smallest
    let id = big(a) / smallest
    let inverse = AffineMap(
      a: ia, b: ib, c: ic, d: id, tx: big(tx) * ia + big(ty) * ic, ty: big(tx) * ib + big(ty) * id)
    let largest = AffineMap(a: big(a), b: big(b), c: big(c), d: big(d), tx: 0, ty: 0)
    let slack = ConservativeBox.affineSlack(largest, inverse: inverse, reachX: big(wx), reachY: big(wy))
    guard slack.x.isFinite, slack.y.isFinite else { return .everything }
    return Box(minX: wx.lo - slack.x, minY: wy.lo - slack.y, maxX: wx.hi + slack.x, maxY: wy.hi + slack.y)
  }
}

extension IntervalAffine {
  /// The set holding `m` alone. (In an extension, so the memberwise initialiser stays.)
  init(_ m: AffineMap) {
    self.init(
      a: Interval(m.a), b: Interval(m.b), c: Interval(m.c), d: Interval(m.d), tx: Interval(m.tx), ty: Interval(m.ty))
  }
}
