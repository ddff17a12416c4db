/// What a layer's presentation numbers can be over a span of time: an interval per lean number
/// (position, bounds, anchorPoint, anchorPointZ, zPosition, opacity) and the transform, exact
/// while no animation touches it, else as intervals of its 2D decomposition (translation,
/// angle, scales, shear). `bounded` is false when some animation could not be bounded (then the
/// layer's box is the whole plane). No allocation.
package struct IntervalState: _IntervalTarget, Sendable {
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

/// What `FrozenAnimationProgram.widen` widens: a layer's values as intervals. The lean numbers
/// are read and written in place; the rest (the transform's components, a path's rotation, the
/// sublayerTransform) through the requirements, which a state that cannot hold them answers by
/// giving up (`bounded` false: the whole plane, never wrong).
protocol _IntervalTarget {
  var lean: InlineArray<11, Interval> { get set }
  var bounded: Bool { get set }
  /// The smallest state holding both.
  func hull(_ o: Self) -> Self
  /// A key path without lean numbers (a transform component): its value, as up to 4 intervals.
  func _transformValue(_ k: AnimatableKeyPath) -> InlineArray<4, Interval>
  mutating func _setTransformValue(_ k: AnimatableKeyPath, _ v: InlineArray<4, Interval>)
  /// A path's rotationMode turns the layer by its tangent.
  mutating func _turnsAnyWay()
  /// An animation can change the sublayerTransform.
  mutating func _movesSublayers()
}

/// A layer's lean numbers as intervals (position, bounds, anchorPoint, anchorPointZ, zPosition,
/// opacity): what `widen` needs of a layer whose animations change nothing else
/// (`FrozenAnimationProgram.changesLeanOnly`), its transform then the model's, exact. 177
/// bytes against `IntervalState`'s about 410, which `widen` copies where an animation applies only
/// at some times of the window, and which a layer that only moves need not build.
package struct LeanIntervalState: _IntervalTarget, Sendable {
  package var lean: InlineArray<11, Interval>
  package var bounded = true

  @inline(__always) package init(_ v: LeanValues) {
    lean = InlineArray { Interval(v.v[$0]) }
  }

  package func hull(_ o: LeanIntervalState) -> LeanIntervalState {
    var r = self
    for i in 0..<11 { r.lean[i] = lean[i].hull(o.lean[i]) }
    r.bounded = bounded && o.bounded
    return r
  }

  // Not reached for the layers this is for (their animations change lean numbers only); were
  // one, the state gives up rather than miss the motion.
  func _transformValue(_ k: AnimatableKeyPath) -> InlineArray<4, Interval> { InlineArray(repeating: .everything) }
  mutating func _setTransformValue(_ k: AnimatableKeyPath, _ v: InlineArray<4, Interval>) { bounded = false }
  mutating func _turnsAnyWay() { bounded = false }
  mutating func _movesSublayers() { bounded = false }
}

extension IntervalState {
  func _transformValue(_ k: AnimatableKeyPath) -> InlineArray<4, Interval> {
    var out = InlineArray<4, Interval>(repeating: Interval(0))
    guard let d = _decomposition else { return InlineArray(repeating: .everything) }
    switch k {
    case .rotation, .rotationZ: out[0] = d[2]
    case .scale, .scaleX: out[0] = d[3]
    case .scaleY: out[0] = d[4]
    case .translationX: out[0] = d[0]
    case .translationY: out[0] = d[1]
    case .translation:
      out[0] = d[0]
      out[1] = d[1]
    default: break
    }
    return out
  }

  mutating func _setTransformValue(_ k: AnimatableKeyPath, _ v: InlineArray<4, Interval>) {
    guard var d = _decomposition else {
      bounded = false
      return
    }
    switch k {
    case .rotation, .rotationZ: d[2] = v[0]
    case .scale:
      d[3] = v[0]
      d[4] = v[0]
    case .scaleX: d[3] = v[0]
    case .scaleY: d[4] = v[0]
    case .translationX: d[0] = v[0]
    case .translationY: d[1] = v[0]
    case .translation:
      d[0] = v[0]
      d[1] = v[1]
    default: return
    }
    transformExact = nil
    decomposition = d
  }

  mutating func _turnsAnyWay() { anyRotation = true }
  mutating func _movesSublayers() { sublayerTransformMoves = true }
}
