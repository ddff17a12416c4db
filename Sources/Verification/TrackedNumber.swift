import LayerModel

/// A number known to about 106 bits (`DoubleDouble`), with the magnitude of the computation that
/// produced it: the same expression evaluated on the absolute values of its inputs (sums of
/// absolute terms, products of absolute factors; for a quotient, the first-order propagation of
/// both operands' magnitudes). Any Double evaluation of the same sums and products, in any order,
/// differs from the exact value by at most about (operations x unit roundoff x magnitude), the
/// classic running bound (Higham, *Accuracy and Stability of Numerical Algorithms*, ch. 3): what
/// `ReferenceOracle` uses as its tolerance instead of reading one from the computation it judges.
struct TrackedNumber {
  var value: DoubleDouble
  var magnitude: Double

  init(_ x: Double) {
    value = DoubleDouble(x)
    magnitude = Swift.abs(x)
  }

  init(value: DoubleDouble, magnitude: Double) {
    self.value = value
    self.magnitude = magnitude
  }

  static let zero = TrackedNumber(0)
  static let one = TrackedNumber(1)

  /// Whether the exact value is zero (a structural zero of a matrix stays exact).
  var isZero: Bool { value == .zero }
  var isFinite: Bool { value.isFinite && magnitude.isFinite }

  static func + (a: TrackedNumber, b: TrackedNumber) -> TrackedNumber {
    if a.isZero && a.magnitude == 0 { return b }
    if b.isZero && b.magnitude == 0 { return a }
    return TrackedNumber(value: a.value + b.value, magnitude: a.magnitude + b.magnitude)
  }

  static prefix func - (a: TrackedNumber) -> TrackedNumber { TrackedNumber(value: -a.value, magnitude: a.magnitude) }

  static func - (a: TrackedNumber, b: TrackedNumber) -> TrackedNumber { a + (-b) }

  static func * (a: TrackedNumber, b: TrackedNumber) -> TrackedNumber {
    // Exact zeros (a matrix's structural zeros) contribute nothing to either part, but as in
    // IEEE arithmetic a zero times a NaN or an infinity is NaN (a NaN zPosition reaches the
    // flattened map through a sublayerTransform that way, in every Double computation).
    if (a.isZero && a.magnitude == 0 && b.value.isFinite) || (b.isZero && b.magnitude == 0 && a.value.isFinite) {
      return .zero
    }
    return TrackedNumber(value: a.value * b.value, magnitude: a.magnitude * b.magnitude)
  }

  /// The quotient, its magnitude to first order: (|a| + |a / b| |b|) / |b|, in magnitudes.
  static func / (a: TrackedNumber, b: TrackedNumber) -> TrackedNumber {
    let q = a.value / b.value
    let d = b.value.magnitude.double
    return TrackedNumber(value: q, magnitude: (a.magnitude + q.magnitude.double * b.magnitude) / d)
  }
}

/// A 3x3 homography (rows and columns 1, 2 and 4 of a CATransform3D, row vectors) of tracked
/// entries, or the 4x4 matrices it is made from.
struct TrackedMatrix4 {
  var m: [TrackedNumber]  // 16 entries, row-major

  init(_ t: Transform3D) { m = t.elements.map { TrackedNumber($0) } }

  init(translation x: TrackedNumber, _ y: TrackedNumber, _ z: TrackedNumber) {
    m = Transform3D.identity.elements.map { TrackedNumber($0) }
    m[12] = x
    m[13] = y
    m[14] = z
  }

  /// `a` then `b`.
  static func concat(_ a: TrackedMatrix4, _ b: TrackedMatrix4) -> TrackedMatrix4 {
    var r = a
    for i in 0..<4 {
      for j in 0..<4 {
        var acc = TrackedNumber.zero
        for k in 0..<4 { acc = acc + a.m[i * 4 + k] * b.m[k * 4 + j] }
        r.m[i * 4 + j] = acc
      }
    }
    return r
  }
}

/// The 3x3 flattening of a 4x4 map, `x' = (x m11 + y m21 + m41) / w`, `w = x m14 + y m24 + m44`.
struct TrackedHomography {
  var m11, m12, m14, m21, m22, m24, m41, m42, m44: TrackedNumber

  init(_ t: TrackedMatrix4) {
    (m11, m12, m14) = (t.m[0], t.m[1], t.m[3])
    (m21, m22, m24) = (t.m[4], t.m[5], t.m[7])
    (m41, m42, m44) = (t.m[12], t.m[13], t.m[15])
  }

  init(
    m11: TrackedNumber, m12: TrackedNumber, m14: TrackedNumber, m21: TrackedNumber, m22: TrackedNumber,
    m24: TrackedNumber, m41: TrackedNumber, m42: TrackedNumber, m44: TrackedNumber
  ) {
    (self.m11, self.m12, self.m14) = (m11, m12, m14)
    (self.m21, self.m22, self.m24) = (m21, m22, m24)
    (self.m41, self.m42, self.m44) = (m41, m42, m44)
  }

  var entries: [TrackedNumber] { [m11, m12, m14, m21, m22, m24, m41, m42, m44] }

  /// No projective part: w is 1 everywhere.
  var isAffine: Bool { m14.isZero && m24.isZero && m44.value == .one }

  /// `self` then `o`.
  static func concat(_ s: TrackedHomography, _ o: TrackedHomography) -> TrackedHomography {
    TrackedHomography(
      m11: s.m11 * o.m11 + s.m12 * o.m21 + s.m14 * o.m41, m12: s.m11 * o.m12 + s.m12 * o.m22 + s.m14 * o.m42,
      m14: s.m11 * o.m14 + s.m12 * o.m24 + s.m14 * o.m44, m21: s.m21 * o.m11 + s.m22 * o.m21 + s.m24 * o.m41,
      m22: s.m21 * o.m12 + s.m22 * o.m22 + s.m24 * o.m42, m24: s.m21 * o.m14 + s.m22 * o.m24 + s.m24 * o.m44,
      m41: s.m41 * o.m11 + s.m42 * o.m21 + s.m44 * o.m41, m42: s.m41 * o.m12 + s.m42 * o.m22 + s.m44 * o.m42,
      m44: s.m41 * o.m14 + s.m42 * o.m24 + s.m44 * o.m44)
  }

  /// The adjugate (the inverse times the determinant) and the determinant.
  var adjugateAndDeterminant: (TrackedHomography, TrackedNumber) {
    let c11 = m22 * m44 - m24 * m42
    let c12 = m24 * m41 - m21 * m44
    let c14 = m21 * m42 - m22 * m41
    let det = m11 * c11 + m12 * c12 + m14 * c14
    let adj = TrackedHomography(
      m11: c11, m12: m14 * m42 - m12 * m44, m14: m12 * m24 - m14 * m22,
      m21: c12, m22: m11 * m44 - m14 * m41, m24: m14 * m21 - m11 * m24,
      m41: c14, m42: m12 * m41 - m11 * m42, m44: m11 * m22 - m12 * m21)
    return (adj, det)
  }
}
