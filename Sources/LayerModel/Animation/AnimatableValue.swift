/// A value an animation interpolates: the types of CALayer's animatable properties that matter
/// for hit testing. An enum with inline payloads: no allocation to copy or interpolate.
public enum AnimatableValue: Hashable, Sendable {
  case scalar(Double)
  case point(Point)
  case size(Size)
  case rect(Rect)
  case transform(Transform3D)
  case bool(Bool)

  /// The kind's name, for error messages.
  public var kindName: String {
    switch self {
    case .scalar: "number"
    case .point: "point"
    case .size: "size"
    case .rect: "rect"
    case .transform: "transform"
    case .bool: "boolean"
    }
  }

  /// The value's components, for arithmetic and pacing distances.
  @inlinable var _components: [Double] {
    switch self {
    case .scalar(let v): [v]
    case .point(let p): [p.x, p.y]
    case .size(let s): [s.width, s.height]
    case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
    case .transform(let m): m.elements
    case .bool(let b): [b ? 1 : 0]
    }
  }

  /// Componentwise `self * a + other * b`, keeping `self`'s kind (a mismatched kind answers self).
  package func _combine(_ a: Double, _ other: AnimatableValue, _ b: Double) -> AnimatableValue {
    switch (self, other) {
    case (.scalar(let x), .scalar(let y)): return .scalar(x * a + y * b)
    case (.point(let p), .point(let q)): return .point(Point(x: p.x * a + q.x * b, y: p.y * a + q.y * b))
    case (.size(let p), .size(let q)):
      return .size(Size(width: p.width * a + q.width * b, height: p.height * a + q.height * b))
    case (.rect(let p), .rect(let q)):
      return .rect(
        Rect(
          x: p.origin.x * a + q.origin.x * b, y: p.origin.y * a + q.origin.y * b,
          width: p.size.width * a + q.size.width * b, height: p.size.height * a + q.size.height * b))
    case (.transform(let p), .transform(let q)): return .transform(Transform3D._combine(p, a, q, b))
    case (.bool(let p), .bool(let q)): return .bool((p ? a : 0) + (q ? b : 0) >= 0.5)
    default: return self
    }
  }

  /// `self + other`; transforms concatenate (`other` first, then `self`), booleans OR.
  public func adding(_ other: AnimatableValue) -> AnimatableValue {
    switch (self, other) {
    case (.transform(let a), .transform(let b)): return .transform(Transform3D.concat(b, a))
    case (.bool(let a), .bool(let b)): return .bool(a || b)
    default: return _combine(1, other, 1)
    }
  }

  /// `self - other` componentwise (transforms: `other⁻¹` then `self`).
  public func subtracting(_ other: AnimatableValue) -> AnimatableValue {
    switch (self, other) {
    case (.transform(let a), .transform(let b)):
      return .transform(Transform3D.concat(b.inverted ?? .identity, a))
    case (.bool(let a), _): return .bool(a)
    default: return _combine(1, other, -1)
    }
  }

  /// `self` repeated `n` times on top of `base`: `base + n * self` (transforms: `base` then
  /// `self` n times).
  package func _accumulated(_ n: Int, onto base: AnimatableValue) -> AnimatableValue {
    guard n > 0 else { return base }
    switch (self, base) {
    case (.transform(let step), .transform(let b)):
      var power = Transform3D.identity
      var square = step
      var k = n
      while k > 0 {
        if k & 1 == 1 { power = Transform3D.concat(power, square) }
        square = Transform3D.concat(square, square)
        k >>= 1
      }
      return .transform(Transform3D.concat(b, power))
    case (.bool, _): return base
    default: return base._combine(1, self, Double(n))
    }
  }

  /// Linear interpolation at `f` (0 answers self, 1 answers `to`). Two 2D-affine transforms
  /// interpolate their decomposition (translation, rotation by the shorter way, scale, shear),
  /// as Core Animation does; other transforms interpolate elementwise. Booleans switch at 0.5.
  public func interpolated(to: AnimatableValue, _ f: Double) -> AnimatableValue {
    switch (self, to) {
    case (.transform(let a), .transform(let b)) where a.isAffine && b.isAffine:
      return .transform(AffineDecomposition(a).interpolated(to: AffineDecomposition(b), f).transform)
    case (.bool(let a), .bool(let b)): return .bool(f >= 0.5 ? b : a)
    default: return _combine(1 - f, to, f)
    }
  }

  /// The Euclidean distance between two values of one kind, for paced keyframes.
  public func distance(to other: AnimatableValue) -> Double {
    let a = _components
    let b = other._components
    guard a.count == b.count else { return 0 }
    var s = 0.0
    for i in a.indices { s += (a[i] - b[i]) * (a[i] - b[i]) }
    return s.squareRoot()
  }
}

/// A 2D affine matrix as translation, rotation, scale and shear, so that interpolating the
/// parts turns a rotation into a rotation rather than a shrink through zero.
package struct AffineDecomposition {
  package var tx: Double, ty: Double, angle: Double, sx: Double, sy: Double, shear: Double

  package init(_ m: Transform3D) {
    var a = m.m11
    var b = m.m12
    var c = m.m21
    var d = m.m22
    tx = m.m41
    ty = m.m42
    sx = (a * a + b * b).squareRoot()
    if sx != 0 {
      a /= sx
      b /= sx
    }
    var sh = a * c + b * d
    c -= a * sh
    d -= b * sh
    sy = (c * c + d * d).squareRoot()
    if sy != 0 {
      c /= sy
      d /= sy
      sh /= sy
    }
    if a * d - b * c < 0 {
      a = -a
      b = -b
      sx = -sx
      sh = -sh
    }
    shear = sh
    angle = _atan2(b, a)
  }

  package func interpolated(to o: AffineDecomposition, _ f: Double) -> AffineDecomposition {
    var r = self
    var da = o.angle - angle
    let twoPi = 2 * Double.pi
    da = da - twoPi * (da / twoPi).rounded()
    r.tx += (o.tx - tx) * f
    r.ty += (o.ty - ty) * f
    r.angle += da * f
    r.sx += (o.sx - sx) * f
    r.sy += (o.sy - sy) * f
    r.shear += (o.shear - shear) * f
    return r
  }

  package var transform: Transform3D {
    let c = _cos(angle)
    let s = _sin(angle)
    return .affine(
      a: sx * c, b: sx * s, c: sy * (-s + shear * c), d: sy * (c + shear * s), tx: tx, ty: ty)
  }
}
