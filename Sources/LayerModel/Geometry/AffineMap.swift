/// A 2D affine map with row vectors, as CGAffineTransform: `x' = x·a + y·c + tx`,
/// `y' = x·b + y·d + ty`. The affine rows of a presentation frame use it instead of a 3x3
/// homography: 48 bytes, composition in 12 flops, application in 4 multiplies and no divide
/// (w is 1). A `Homography` with m14 = m24 = 0 and m44 = 1 is the same map.
public struct AffineMap: Hashable, Sendable {
  public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

  @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  @inlinable public static var identity: AffineMap { AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

  /// The map of an affine homography (its projective entries are ignored).
  @inlinable public init(_ h: Homography) {
    self.init(a: h.m11, b: h.m12, c: h.m21, d: h.m22, tx: h.m41, ty: h.m42)
  }

  @inlinable public var homography: Homography {
    Homography(m11: a, m12: b, m14: 0, m21: c, m22: d, m24: 0, m41: tx, m42: ty, m44: 1)
  }

  /// `self` then `o`.
  @inlinable @inline(__always) public static func concat(_ s: AffineMap, _ o: AffineMap) -> AffineMap {
    AffineMap(
      a: s.a * o.a + s.b * o.c, b: s.a * o.b + s.b * o.d, c: s.c * o.a + s.d * o.c, d: s.c * o.b + s.d * o.d,
      tx: s.tx * o.a + s.ty * o.c + o.tx, ty: s.tx * o.b + s.ty * o.d + o.ty)
  }

  /// The inverse (`k = 1 / det` times the adjugate), or nil when the map is singular or an entry
  /// of the inverse is not finite.
  @inlinable @inline(__always) public var inverted: AffineMap? {
    let det = a * d - b * c
    let k = 1 / det
    let r = AffineMap(
      a: d * k, b: -b * k, c: -c * k, d: a * k, tx: (c * ty - d * tx) * k, ty: (b * tx - a * ty) * k)
    // One sum of the entries times zero is 0 exactly when every entry is finite.
    let finite = (r.a * 0 + r.b * 0) + (r.c * 0 + r.d * 0) + (r.tx * 0 + r.ty * 0) == 0
    return det != 0 && det.isFinite && finite ? r : nil
  }

  @inlinable @inline(__always) public func apply(_ p: Point) -> Point {
    Point(x: p.x * a + p.y * c + tx, y: p.x * b + p.y * d + ty)
  }
}
