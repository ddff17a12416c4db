import LayerModel
import Presentation

/// A 2D affine map whose entries are intervals: every map a moving layer can have over a
/// window. Composition and application by interval arithmetic (conservative, up to rounding:
/// boxes are padded).
struct IntervalAffine {
  var a: Interval, b: Interval, c: Interval, d: Interval, tx: Interval, ty: Interval

  /// `s` then `o` (as `AffineMap.concat`).
  static func concat(_ s: IntervalAffine, _ o: IntervalAffine) -> IntervalAffine {
    if s.linearIsExact && o.linearIsExact, let r = _concatExact(s, o) { return r }
    return _concatGeneral(s, o)
  }

  /// `concat` by the general interval products.
  static func _concatGeneral(_ s: IntervalAffine, _ o: IntervalAffine) -> IntervalAffine {
    IntervalAffine(
      a: s.a * o.a + s.b * o.c, b: s.a * o.b + s.b * o.d, c: s.c * o.a + s.d * o.c, d: s.c * o.b + s.d * o.d,
      tx: s.tx * o.a + s.ty * o.c + o.tx, ty: s.tx * o.b + s.ty * o.d + o.ty)
  }

  /// Whether the linear part is one map (every entry a point): a layer that only moves (a
  /// slide, a scroll, a spring on its position) under ancestors that only move, the common case
  /// in an interface, whose products then take one multiplication each.
  @inline(__always) var linearIsExact: Bool { a.lo == a.hi && b.lo == b.hi && c.lo == c.hi && d.lo == d.hi }

  /// Whether every map of the set only translates (the linear part exactly the identity): in
  /// an interface, most maps (a row, a section, a scroll view's content under its moving
  /// bounds).
  @inline(__always) var linearIsIdentity: Bool {
    a.lo == 1 && a.hi == 1 && d.lo == 1 && d.hi == 1 && b.lo == 0 && b.hi == 0 && c.lo == 0 && c.hi == 0
  }

  /// Whether every map of the set only translates, by a bounded translation: what
  /// `MotionBounds.shift` keeps as two intervals.
  @inline(__always) var onlyTranslates: Bool { linearIsIdentity && tx.isBounded && ty.isBounded }

  /// An interval times a point, as `Interval.*` computes it (its four products are two here):
  /// the same ends, bit for bit; nil where a product is NaN (where `*` answers the whole line).
  @inline(__always) static func _scaled(_ i: Interval, _ k: Double) -> Interval? {
    let p = i.lo * k
    let r = i.hi * k
    if p.isNaN || r.isNaN { return nil }
    return Interval(Swift.min(p, r), Swift.max(p, r))
  }

  /// `concat` of two maps whose linear parts are exact: the same intervals as the general
  /// products (a point times a point is their product, an interval times a point its two ends'
  /// products), about a fifth of the instructions; nil where a product is NaN, for the general
  /// path's answer.
  @inline(__always) static func _concatExact(_ s: IntervalAffine, _ o: IntervalAffine) -> IntervalAffine? {
    let a = s.a.lo * o.a.lo + s.b.lo * o.c.lo
    let b = s.a.lo * o.b.lo + s.b.lo * o.d.lo
    let c = s.c.lo * o.a.lo + s.d.lo * o.c.lo
    let d = s.c.lo * o.b.lo + s.d.lo * o.d.lo
    // A NaN product makes its sum NaN: then the general path answers (as it would).
    guard !(a.isNaN || b.isNaN || c.isNaN || d.isNaN), let xa = _scaled(s.tx, o.a.lo), let yc = _scaled(s.ty, o.c.lo),
      let xb = _scaled(s.tx, o.b.lo), let yd = _scaled(s.ty, o.d.lo)
    else { return nil }
    return IntervalAffine(
      a: Interval(a), b: Interval(b), c: Interval(c), d: Interval(d), tx: xa + yc + o.tx, ty: xb + yd + o.ty)
  }

  /// The box of a local box's image, padded for the interval arithmetic's rounding and, as
  /// `ConservativeBox` pads a frame's boxes, for the exact test's own rounding under any map of
  /// the set (componentwise, with each inverse entry bounded by its cofactor over the smallest
  /// determinant); the whole plane when some map of the set is singular.
  func box(of l: Box) -> Box {
    if let b = _translatedBox(of: l) { return b }
    return _box(of: l, _inverseBound())
  }

  /// `box(of:)` of two local boxes (an empty one's image is empty), the map's inverse bounded
  /// once: a group's root and the region of its members (docs/optimisation-log.md entry 79).
  func boxes(of l: Box, _ r: Box) -> (Box, Box) {
    if let bl = _translatedBox(of: l) {
      if r.isEmpty { return (bl, .nothing) }
      if let br = _translatedBox(of: r) { return (bl, br) }
    }
    let bound = _inverseBound()
    return (_box(of: l, bound), r.isEmpty ? .nothing : _box(of: r, bound))
  }

  /// `box(of:)` of a finite box under maps that only translate by a finite interval: the same
  /// box, worked out for that case (the image is the box moved by the translation's ends; the
  /// determinant is one, the inverse's entries the identity's and the translation's ends, so
  /// the exact test's rounding is 2^-49 of each axis's reach plus its translation's), about a
  /// third of the instructions; nil for any other map or box (`MotionBoundsTests`
  /// `exactLinearMapsComposeAsTheGeneralProducts` holds the two equal).
  @inline(__always) func _translatedBox(of l: Box) -> Box? {
    guard linearIsIdentity else { return nil }
    return Self.translatedBox(of: l, tx, ty)
  }

  /// `_translatedBox(of:)` of the map translating by `tx` and `ty` (nil where either is not
  /// bounded or the box is not finite).
  @inline(__always) static func translatedBox(of l: Box, _ tx: Interval, _ ty: Interval) -> Box? {
    guard tx.isBounded, ty.isBounded, l.minX.isFinite, l.maxX.isFinite, l.minY.isFinite, l.maxY.isFinite
    else { return nil }
    // (Ordered as the general image orders the ends of a reversed box.)
    let wx = (Interval(Swift.min(l.minX, l.maxX), Swift.max(l.minX, l.maxX)) + tx).padded
    let wy = (Interval(Swift.min(l.minY, l.maxY), Swift.max(l.minY, l.maxY)) + ty).padded
    guard wx.isBounded, wy.isBounded else { return .everything }
    @inline(__always) func big(_ i: Interval) -> Double { Swift.max(Swift.abs(i.lo), Swift.abs(i.hi)) }
    let ex = 0x1p-49 * (big(wx) + big(tx))
    let ey = 0x1p-49 * (big(wy) + big(ty))
    guard ex.isFinite, ey.isFinite else { return .everything }
    return Box(minX: wx.lo - ex, minY: wy.lo - ey, maxX: wx.hi + ex, maxY: wy.hi + ey)
  }

  /// `box(of:)` with the map's inverse bound given (nil: some map of the set is singular).
  @inline(__always) func _box(of l: Box, _ bound: (largest: AffineMap, inverse: AffineMap)?) -> Box {
    let (wx, wy) = _image(of: l, exactFirst: true)
    guard wx.isBounded, wy.isBounded, let bound else { return .everything }
    return Self._padded(wx, wy, bound)
  }

  /// The largest entries of the maps of the set and of their inverses (cofactor over the
  /// smallest determinant): what the exact test's rounding is bounded by. Nil when some map of
  /// the set is singular.
  @inline(__always) func _inverseBound() -> (largest: AffineMap, inverse: AffineMap)? {
    let det = _determinant(exactFirst: true)
    @inline(__always) func big(_ i: Interval) -> Double { Swift.max(Swift.abs(i.lo), Swift.abs(i.hi)) }
    guard det.lo > 0 || det.hi < 0 else { return nil }
    let smallest = Swift.min(Swift.abs(det.lo), Swift.abs(det.hi))
    // The inverse's entries: d, -b, -c, a over the determinant, translation -t times them.
    let ia = big(d) / smallest
    let ib = big(b) / smallest
    let ic = big(c) / smallest
    let id = big(a) / smallest
    let inverse = AffineMap(
      a: ia, b: ib, c: ic, d: id, tx: big(tx) * ia + big(ty) * ic, ty: big(tx) * ib + big(ty) * id)
    return (AffineMap(a: big(a), b: big(b), c: big(c), d: big(d), tx: 0, ty: 0), inverse)
  }

  /// An image's box moved out by the exact test's rounding under `bound`.
  @inline(__always) static func _padded(
    _ wx: Interval, _ wy: Interval, _ bound: (largest: AffineMap, inverse: AffineMap)
  )
    -> Box
  {
    @inline(__always) func big(_ i: Interval) -> Double { Swift.max(Swift.abs(i.lo), Swift.abs(i.hi)) }
    let slack = ConservativeBox.affineSlack(bound.largest, inverse: bound.inverse, reachX: big(wx), reachY: big(wy))
    guard slack.x.isFinite, slack.y.isFinite else { return .everything }
    return Box(minX: wx.lo - slack.x, minY: wy.lo - slack.y, maxX: wx.hi + slack.x, maxY: wy.hi + slack.y)
  }

  /// A local box's image per axis, padded: by two multiplications a product where the linear
  /// part is exact and `exactFirst`, else by the general products (the same intervals, which a
  /// test holds).
  @inline(__always) func _image(of l: Box, exactFirst: Bool) -> (x: Interval, y: Interval) {
    let x = Interval(l.minX, l.maxX)
    let y = Interval(l.minY, l.maxY)
    if exactFirst && linearIsExact, let xa = Self._scaled(x, a.lo), let yc = Self._scaled(y, c.lo),
      let xb = Self._scaled(x, b.lo), let yd = Self._scaled(y, d.lo)
    {
      return ((xa + yc + tx).padded, (xb + yd + ty).padded)
    }
    return ((x * a + y * c + tx).padded, (x * b + y * d + ty).padded)
  }

  /// The determinants of the maps of the set: by one product a term where the linear part is
  /// exact and `exactFirst`, else by the general products (the same interval).
  @inline(__always) func _determinant(exactFirst: Bool) -> Interval {
    if exactFirst && linearIsExact, let ad = Self._scaled(Interval(a.lo), d.lo),
      let bc = Self._scaled(Interval(b.lo), c.lo)
    {
      return ad - bc
    }
    return a * d - b * c
  }
}

extension IntervalAffine {
  /// The set holding `m` alone. (In an extension, so the memberwise initialiser stays.)
  init(_ m: AffineMap) {
    self.init(
      a: Interval(m.a), b: Interval(m.b), c: Interval(m.c), d: Interval(m.d), tx: Interval(m.tx), ty: Interval(m.ty))
  }
}
