/// The 3x3 projective map of a plane (row vectors): `x' = (x*m11 + y*m21 + m41) / w`,
/// `y' = (x*m12 + y*m22 + m42) / w`, `w = x*m14 + y*m24 + m44`. This is how a layer flattens
/// its subtree into its superlayer's plane. 72 bytes; apply is 9 multiplies and 2 divides.
public struct Homography: Hashable, Sendable {
  public var m11: Double, m12: Double, m14: Double
  public var m21: Double, m22: Double, m24: Double
  public var m41: Double, m42: Double, m44: Double

  @inlinable public init(
    m11: Double, m12: Double, m14: Double, m21: Double, m22: Double, m24: Double,
    m41: Double, m42: Double, m44: Double
  ) {
    (self.m11, self.m12, self.m14) = (m11, m12, m14)
    (self.m21, self.m22, self.m24) = (m21, m22, m24)
    (self.m41, self.m42, self.m44) = (m41, m42, m44)
  }

  @inlinable public static var identity: Homography {
    Homography(m11: 1, m12: 0, m14: 0, m21: 0, m22: 1, m24: 0, m41: 0, m42: 0, m44: 1)
  }

  /// A pure translation.
  @inlinable public static func translation(_ tx: Double, _ ty: Double) -> Homography {
    Homography(m11: 1, m12: 0, m14: 0, m21: 0, m22: 1, m24: 0, m41: tx, m42: ty, m44: 1)
  }

  /// True when the map has no projective part (w is 1 everywhere).
  @inlinable public var isAffine: Bool { m14 == 0 && m24 == 0 && m44 == 1 }

  /// `a` then `b`.
  @inlinable public static func concat(_ a: Homography, _ b: Homography) -> Homography {
    Homography(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m14 * b.m41,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m14 * b.m42,
      m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m14 * b.m44,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m24 * b.m41,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m24 * b.m42,
      m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m24 * b.m44,
      m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m44 * b.m41,
      m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m44 * b.m42,
      m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m44 * b.m44)
  }

  @inlinable public var determinant: Double {
    m11 * (m22 * m44 - m24 * m42) - m12 * (m21 * m44 - m24 * m41) + m14 * (m21 * m42 - m22 * m41)
  }

  /// The inverse map, or nil when the map is singular or the inverse is not finite. Singular
  /// includes a determinant within rounding of zero (at most 8 units of roundoff of the terms
  /// that make it): a level composed in Double from an exactly singular 4x4 (a sublayerTransform
  /// that scales x by 0 under a perspective transform) keeps a determinant of a few ulps, and its
  /// "inverse" would send points on the image line into the layer (docs/semantics.md, section 5, decision 4).
  @inlinable public var inverted: Homography? {
    let c11 = m22 * m44 - m24 * m42
    let c12 = m24 * m41 - m21 * m44
    let c14 = m21 * m42 - m22 * m41
    let det = m11 * c11 + m12 * c12 + m14 * c14
    let terms =
      Swift.abs(m11) * (Swift.abs(m22 * m44) + Swift.abs(m24 * m42))
      + Swift.abs(m12) * (Swift.abs(m24 * m41) + Swift.abs(m21 * m44))
      + Swift.abs(m14) * (Swift.abs(m21 * m42) + Swift.abs(m22 * m41))
    guard det != 0, det.isFinite, Swift.abs(det) > 8 * (Double.ulpOfOne / 2) * terms else { return nil }
    let k = 1 / det
    let r = Homography(
      m11: c11 * k, m12: (m14 * m42 - m12 * m44) * k, m14: (m12 * m24 - m14 * m22) * k,
      m21: c12 * k, m22: (m11 * m44 - m14 * m41) * k, m24: (m14 * m21 - m11 * m24) * k,
      m41: c14 * k, m42: (m12 * m41 - m11 * m42) * k, m44: (m11 * m22 - m12 * m21) * k)
    guard r.isFinite else { return nil }
    return r
  }

  @inlinable public var isFinite: Bool {
    m11.isFinite && m12.isFinite && m14.isFinite && m21.isFinite && m22.isFinite && m24.isFinite
      && m41.isFinite && m42.isFinite && m44.isFinite
  }

  /// Maps a point; nil where `w <= 0` (behind the viewer) or not a number. Applied with the exact
  /// inverse of a forward map `H`, the third coordinate is `1 / w` of the forward map at the answer
  /// (`[p, 1] * H⁻¹ = [q, 1] / w(q)`), so the same test also rejects points whose preimage is behind
  /// the viewer: converting a point down a level is `inverse.apply(p)`.
  @inlinable public func apply(_ p: Point) -> Point? {
    let w = p.x * m14 + p.y * m24 + m44
    guard w > 0 else { return nil }
    return Point(x: (p.x * m11 + p.y * m21 + m41) / w, y: (p.x * m12 + p.y * m22 + m42) / w)
  }
}
