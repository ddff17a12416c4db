/// What a layer's presentation numbers can be over a span of time: an interval per lean number
/// (position, bounds, anchorPoint, anchorPointZ, zPosition, opacity) and the transform, exact
/// while no animation touches it, else as intervals of its 2D decomposition (translation,
/// angle, scales, shear). `bounded` is false when some animation could not be bounded (then the
/// layer's box is the whole plane). No allocation.
package struct IntervalState: Sendable {
  package var lean: InlineArray<11, Interval>
  package var transformExact: Transform3D?
  /// tx, ty, angle, sx, sy, shear (`AffineDecomposition`), when the transform is animated.
  package var decomposition: InlineArray<6, Interval>
  /// A path's rotationMode turns the layer by its tangent: any angle.
  package var anyRotation = false
  package var bounded = true
  /// An animation can change the sublayerTransform (the sublayers' maps then move).
  package var sublayerTransformMoves = false

  package init(_ s: LayerState) {
    self.init(lean: LeanValues(s), transform: s.transform)
  }

  /// The state holding exactly the lean numbers `v` and `transform` (what a layer state gives
  /// them, without building one: the motion bounds' per-layer path).
  @inline(__always) package init(lean v: LeanValues, transform: Transform3D) {
    lean = InlineArray { Interval(v.v[$0]) }
    transformExact = transform
    decomposition = InlineArray(repeating: Interval(0))
  }

  /// The smallest state holding both.
  package func hull(_ o: IntervalState) -> IntervalState {
    var r = self
    for i in 0..<11 { r.lean[i] = lean[i].hull(o.lean[i]) }
    r.bounded = bounded && o.bounded
    r.anyRotation = anyRotation || o.anyRotation
    r.sublayerTransformMoves = sublayerTransformMoves || o.sublayerTransformMoves
    if let a = transformExact, let b = o.transformExact, a == b { return r }
    guard let da = _decomposition, let db = o._decomposition else {
      r.bounded = false
      return r
    }
    r.transformExact = nil
    for i in 0..<6 { r.decomposition[i] = da[i].hull(db[i]) }
    return r
  }

  /// The transform's decomposition as intervals (nil: a transform that is not 2D affine).
  package var _decomposition: InlineArray<6, Interval>? {
    guard let m = transformExact else { return decomposition }
    guard m.isAffine else { return nil }
    let d = AffineDecomposition(m)
    return [Interval(d.tx), Interval(d.ty), Interval(d.angle), Interval(d.sx), Interval(d.sy), Interval(d.shear)]
  }

  /// The transform's 2D affine entries (a, b, c, d, tx, ty) as intervals, or nil when it is not
  /// 2D affine.
  package var affineEntries: InlineArray<6, Interval>? {
    var e: InlineArray<6, Interval>
    if let m = transformExact {
      guard m.isAffine else { return nil }
      e = [Interval(m.m11), Interval(m.m12), Interval(m.m21), Interval(m.m22), Interval(m.m41), Interval(m.m42)]
    } else {
      let d = decomposition
      let c = d[2].cosine
      let s = d[2].sine
      e = [d[3] * c, d[3] * s, d[4] * (-s + d[5] * c), d[4] * (c + d[5] * s), d[0], d[1]]
    }
    if anyRotation {
      // concat(T, rotation(theta)) for any theta: [a b; c d] times [cos sin; -sin cos], and the
      // translation rotated too.
      let c = Interval(-1, 1)
      let s = Interval(-1, 1)
      e = [
        e[0] * c - e[1] * s, e[0] * s + e[1] * c, e[2] * c - e[3] * s, e[2] * s + e[3] * c, e[4] * c - e[5] * s,
        e[4] * s + e[5] * c,
      ]
    }
    return e
  }
}
