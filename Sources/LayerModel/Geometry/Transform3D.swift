/// A 4x4 matrix with CATransform3D's conventions: row vectors (`p' = p * M`), translation in
/// m41...m43, `concat(a, b)` applies `a` then `b`, and `m34 = -1/d` for perspective.
/// 128 bytes, a value; every operation is a fixed number of flops.
public struct Transform3D: Hashable, Sendable {
  public var m11: Double, m12: Double, m13: Double, m14: Double
  public var m21: Double, m22: Double, m23: Double, m24: Double
  public var m31: Double, m32: Double, m33: Double, m34: Double
  public var m41: Double, m42: Double, m43: Double, m44: Double

  @inlinable public init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    self.m11 = m11
    self.m12 = m12
    self.m13 = m13
    self.m14 = m14
    self.m21 = m21
    self.m22 = m22
    self.m23 = m23
    self.m24 = m24
    self.m31 = m31
    self.m32 = m32
    self.m33 = m33
    self.m34 = m34
    self.m41 = m41
    self.m42 = m42
    self.m43 = m43
    self.m44 = m44
  }

  /// Sixteen numbers, m11...m44 row by row.
  public init?(elements e: [Double]) {
    guard e.count == 16 else { return nil }
    self.init(
      m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
      m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
  }

  public var elements: [Double] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  @inlinable public static var identity: Transform3D {
    Transform3D(
      m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
  }

  public var isIdentity: Bool { self == .identity }

  public static func translation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
    var m = identity
    m.m41 = tx
    m.m42 = ty
    m.m43 = tz
    return m
  }

  public static func scale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
    var m = identity
    m.m11 = sx
    m.m22 = sy
    m.m33 = sz
    return m
  }

  /// CATransform3DMakeRotation: `angle` radians about the axis (x, y, z), normalised;
  /// a zero-length axis gives the identity, as Core Animation does.
  public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
    let len = (x * x + y * y + z * z).squareRoot()
    guard len > 0, len.isFinite else { return identity }
    let (x, y, z) = (x / len, y / len, z / len)
    let c = _cos(angle)
    let s = _sin(angle)
    let t = 1 - c
    return Transform3D(
      m11: c + t * x * x, m12: t * x * y + s * z, m13: t * x * z - s * y, m14: 0,
      m21: t * x * y - s * z, m22: c + t * y * y, m23: t * y * z + s * x, m24: 0,
      m31: t * x * z + s * y, m32: t * y * z - s * x, m33: c + t * z * z, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// A perspective transform seen from distance `d`: `m34 = -1/d`.
  public static func perspective(_ d: Double) -> Transform3D {
    var m = identity
    m.m34 = -1 / d
    return m
  }

  /// CATransform3DConcat: `a` then `b` (the matrix product `a * b`).
  @inlinable public static func concat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
    Transform3D(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
      m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
      m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
      m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
      m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
      m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
      m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
      m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
      m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
      m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
      m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
      m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
      m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
  }

  /// CATransform3DTranslate: the translation first, then `self`.
  public func translated(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
    Transform3D.concat(.translation(tx, ty, tz), self)
  }

  /// CATransform3DScale: the scale first, then `self`.
  public func scaled(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
    Transform3D.concat(.scale(sx, sy, sz), self)
  }

  /// CATransform3DRotate: the rotation first, then `self`.
  public func rotated(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
    Transform3D.concat(.rotation(angle, x, y, z), self)
  }

  /// True when the matrix is a 2D affine map (CATransform3DIsAffine).
  public var isAffine: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
      && m43 == 0 && m44 == 1
  }

  /// The 2D affine part (a, b, c, d, tx, ty) as CATransform3DGetAffineTransform reads it.
  public var affineTransform: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    (m11, m12, m21, m22, m41, m42)
  }

  /// CATransform3DMakeAffineTransform.
  public static func affine(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) -> Transform3D {
    var m = identity
    (m.m11, m.m12, m.m21, m.m22, m.m41, m.m42) = (a, b, c, d, tx, ty)
    return m
  }

  /// Elementwise `p * a + q * b`, for interpolating matrices that are not 2D affine.
  @inlinable static func _combine(_ p: Transform3D, _ a: Double, _ q: Transform3D, _ b: Double) -> Transform3D {
    Transform3D(
      m11: p.m11 * a + q.m11 * b, m12: p.m12 * a + q.m12 * b, m13: p.m13 * a + q.m13 * b, m14: p.m14 * a + q.m14 * b,
      m21: p.m21 * a + q.m21 * b, m22: p.m22 * a + q.m22 * b, m23: p.m23 * a + q.m23 * b, m24: p.m24 * a + q.m24 * b,
      m31: p.m31 * a + q.m31 * b, m32: p.m32 * a + q.m32 * b, m33: p.m33 * a + q.m33 * b, m34: p.m34 * a + q.m34 * b,
      m41: p.m41 * a + q.m41 * b, m42: p.m42 * a + q.m42 * b, m43: p.m43 * a + q.m43 * b, m44: p.m44 * a + q.m44 * b)
  }

  /// Whether every entry is the identity's, bit for bit (a negative zero or a NaN is not).
  var _isExactlyIdentity: Bool {
    let i = Transform3D.identity
    return m11.bitPattern == i.m11.bitPattern && m12.bitPattern == i.m12.bitPattern
      && m13.bitPattern == i.m13.bitPattern
      && m14.bitPattern == i.m14.bitPattern && m21.bitPattern == i.m21.bitPattern && m22.bitPattern == i.m22.bitPattern
      && m23.bitPattern == i.m23.bitPattern && m24.bitPattern == i.m24.bitPattern && m31.bitPattern == i.m31.bitPattern
      && m32.bitPattern == i.m32.bitPattern && m33.bitPattern == i.m33.bitPattern && m34.bitPattern == i.m34.bitPattern
      && m41.bitPattern == i.m41.bitPattern && m42.bitPattern == i.m42.bitPattern && m43.bitPattern == i.m43.bitPattern
      && m44.bitPattern == i.m44.bitPattern
  }

  /// The 2x2 minors of the top two rows (`top`) and of the bottom two (`bottom`), from which
  /// the determinant and the inverse follow (Laplace expansion by complementary minors).
  var _minors:
    (
      top: (Double, Double, Double, Double, Double, Double), bottom: (Double, Double, Double, Double, Double, Double),
      determinant: Double
    )
  {
    let s0 = m11 * m22 - m21 * m12
    let s1 = m11 * m23 - m21 * m13
    let s2 = m11 * m24 - m21 * m14
    let s3 = m12 * m23 - m22 * m13
    let s4 = m12 * m24 - m22 * m14
    let s5 = m13 * m24 - m23 * m14
    let c5 = m33 * m44 - m43 * m34
    let c4 = m32 * m44 - m42 * m34
    let c3 = m32 * m43 - m42 * m33
    let c2 = m31 * m44 - m41 * m34
    let c1 = m31 * m43 - m41 * m33
    let c0 = m31 * m42 - m41 * m32
    return (
      (s0, s1, s2, s3, s4, s5), (c0, c1, c2, c3, c4, c5),
      s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    )
  }

  /// The determinant, by cofactor expansion.
  public var determinant: Double { _minors.determinant }

  /// CATransform3DInvert, except that a singular or non-finite matrix answers nil
  /// (Core Animation returns the matrix unchanged; nil keeps that mistake out of hit testing).
  public var inverted: Transform3D? {
    let minors = _minors
    let (s0, s1, s2, s3, s4, s5) = minors.top
    let (c0, c1, c2, c3, c4, c5) = minors.bottom
    let det = minors.determinant
    guard det != 0, det.isFinite else { return nil }
    let k = 1 / det
    let r = Transform3D(
      m11: (m22 * c5 - m23 * c4 + m24 * c3) * k,
      m12: (-m12 * c5 + m13 * c4 - m14 * c3) * k,
      m13: (m42 * s5 - m43 * s4 + m44 * s3) * k,
      m14: (-m32 * s5 + m33 * s4 - m34 * s3) * k,
      m21: (-m21 * c5 + m23 * c2 - m24 * c1) * k,
      m22: (m11 * c5 - m13 * c2 + m14 * c1) * k,
      m23: (-m41 * s5 + m43 * s2 - m44 * s1) * k,
      m24: (m31 * s5 - m33 * s2 + m34 * s1) * k,
      m31: (m21 * c4 - m22 * c2 + m24 * c0) * k,
      m32: (-m11 * c4 + m12 * c2 - m14 * c0) * k,
      m33: (m41 * s4 - m42 * s2 + m44 * s0) * k,
      m34: (-m31 * s4 + m32 * s2 - m34 * s0) * k,
      m41: (-m21 * c3 + m22 * c1 - m23 * c0) * k,
      m42: (m11 * c3 - m12 * c1 + m13 * c0) * k,
      m43: (-m41 * s3 + m42 * s1 - m43 * s0) * k,
      m44: (m31 * s3 - m32 * s1 + m33 * s0) * k)
    for e in r.elements where !e.isFinite { return nil }
    return r
  }

  /// The plane map hit testing uses: rows and columns 1, 2 and 4 (docs/semantics.md section 1).
  @inlinable public var homography: Homography {
    Homography(m11: m11, m12: m12, m14: m14, m21: m21, m22: m22, m24: m24, m41: m41, m42: m42, m44: m44)
  }

  /// Maps a 3D point (x, y, z, 1) and returns the homogeneous result.
  public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double, w: Double) {
    (
      x * m11 + y * m21 + z * m31 + m41, x * m12 + y * m22 + z * m32 + m42,
      x * m13 + y * m23 + z * m33 + m43, x * m14 + y * m24 + z * m34 + m44
    )
  }
}

extension Transform3D: CustomStringConvertible {
  public var description: String { "Transform3D(\(elements))" }
}
