/// How a keyframe animation moves between its keyframes (kCAAnimation...).
public enum CalculationMode: String, Sendable, CaseIterable {
  /// Straight interpolation between keyframes at `keyTimes`.
  case linear
  /// Each value held until the next key time (one more key time than values).
  case discrete
  /// Linear, with key times spread so the speed is constant; keyTimes and timingFunctions ignored.
  case paced
  /// A Catmull-Rom spline through the values at `keyTimes`.
  case cubic
  /// The spline, paced by its arc length; keyTimes and timingFunctions ignored.
  case cubicPaced
}

/// Whether a path animation also turns the layer to the path's tangent.
public enum RotationMode: String, Sendable, CaseIterable {
  case auto
  case autoReverse
}

/// One element of a keyframe path: a move (a jump), a straight line, or a cubic Bezier.
public enum PathElement: Hashable, Sendable {
  case move(Point)
  case line(Point)
  case quad(Point, Point)
  case cubic(Point, Point, Point)
}

/// One segment of a keyframe path as a cubic Bezier (lines and quads raised to cubics); a
/// jump is a later `move`.
package struct PathSegment: Sendable {
  package var start: Point
  package var c1: Point
  package var c2: Point
  package var end: Point
  package var isJump: Bool
}

/// A keyframe animation (CAKeyframeAnimation): `values` at `keyTimes`, each segment paced by
/// its own timing function, in one of five calculation modes; or a `path` of lines and cubic
/// segments for a point property, with an optional rotation to the tangent. Derived key times
/// (paced modes, paths) are computed once, when first evaluated after a change; an evaluation
/// is a binary search plus O(1) and allocates nothing.
public final class KeyframeAnimation: PropertyAnimation {
  public var values: [AnimatableValue] = [] { didSet { _prepared = nil } }
  /// Overrides `values` when set; the property must be a point.
  public var path: [PathElement]? { didSet { _prepared = nil } }
  /// In [0, 1], non-decreasing; one per value (discrete: one more), one per path vertex.
  public var keyTimes: [Double]? { didSet { _prepared = nil } }
  /// One per segment, pacing that segment's local progress.
  public var timingFunctions: [TimingFunction]?
  public var calculationMode: CalculationMode = .linear { didSet { _prepared = nil } }
  public var rotationMode: RotationMode?

  package typealias Segment = PathSegment
  /// Derived keyframe data, computed once per change; a class so a frame's evaluation takes
  /// one reference instead of copying four arrays. The frame builder copies it into its flat
  /// blocks.
  package final class Prepared {
    package var keyTimes: [Double]
    package var segments: [PathSegment]
    init(keyTimes: [Double], segments: [PathSegment]) {
      self.keyTimes = keyTimes
      self.segments = segments
    }
    /// The values as plain points or numbers when they all are (the fast path: no enum copies).
    package var points: [Point] = []
    package var scalars: [Double] = []
  }
  private var _prepared: Prepared?

  /// Checks the keyframes; nil when valid, else what is wrong.
  public var validationError: String? {
    if let path {
      if path.isEmpty { return "a path needs at least one element" }
      if let kt = keyTimes, kt.count != _pathSegments(path).count + 1 {
        return "keyTimes needs one entry per path vertex (\(_pathSegments(path).count + 1))"
      }
    } else if let kt = keyTimes {
      let n = values.count
      let ok = calculationMode == .discrete ? (kt.count == n || kt.count == n + 1) : kt.count == n
      if !ok { return "keyTimes has \(kt.count) entries for \(n) values" }
    }
    if let kt = keyTimes {
      for (i, t) in kt.enumerated() {
        if !(t >= 0 && t <= 1) { return "keyTimes[\(i)] is \(t), outside [0, 1]" }
        if i > 0 && t < kt[i - 1] { return "keyTimes must not decrease (keyTimes[\(i)])" }
      }
    }
    if let first = values.first, values.contains(where: { $0.kindName != first.kindName }) {
      return "values mix kinds"
    }
    return nil
  }

  private func _pathSegments(_ path: [PathElement]) -> [Segment] {
    var out: [Segment] = []
    var current: Point?
    for e in path {
      switch e {
      case .move(let p):
        if let c = current { out.append(Segment(start: c, c1: p, c2: p, end: p, isJump: true)) }
        current = p
      case .line(let p):
        let s = current ?? p
        out.append(Segment(start: s, c1: s, c2: p, end: p, isJump: false))
        current = p
      case .quad(let c, let p):
        let s = current ?? c
        let c1 = Point(x: s.x + 2 / 3 * (c.x - s.x), y: s.y + 2 / 3 * (c.y - s.y))
        let c2 = Point(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
        out.append(Segment(start: s, c1: c1, c2: c2, end: p, isJump: false))
        current = p
      case .cubic(let c1, let c2, let p):
        out.append(Segment(start: current ?? c1, c1: c1, c2: c2, end: p, isJump: false))
        current = p
      }
    }
    return out
  }

  private static func _evenly(_ count: Int) -> [Double] {
    count <= 1 ? [0] : (0..<count).map { Double($0) / Double(count - 1) }
  }

  /// Cumulative lengths normalised to [0, 1]; evenly spread when the total is 0.
  private static func _paced(_ lengths: [Double]) -> [Double] {
    let total = lengths.reduce(0, +)
    guard total > 0, total.isFinite else { return _evenly(lengths.count + 1) }
    var out = [0.0]
    var acc = 0.0
    for l in lengths {
      acc += l
      out.append(acc / total)
    }
    out[out.count - 1] = 1
    return out
  }

  /// `keyTimes` when they fit: `count` entries (or, for discrete values, one more), each in
  /// [0, 1], none decreasing. Anything else is ignored, as if no keyTimes were given, so that no
  /// evaluation can read past the values (a scene file with such keyTimes is refused instead).
  private func _usableKeyTimes(_ count: Int, discrete: Bool) -> [Double]? {
    guard let kt = keyTimes, kt.count == count || (discrete && kt.count == count + 1) else { return nil }
    for i in kt.indices where !(kt[i] >= 0 && kt[i] <= 1) || (i > 0 && kt[i] < kt[i - 1]) { return nil }
    return kt
  }

  package func _prepare() -> Prepared {
    if let p = _prepared { return p }
    var prepared: Prepared
    if let path {
      let segs = _pathSegments(path)
      let lengths = segs.map { s in s.isJump ? 0 : Self._arcLength(16) { Self._bezierPoint(s, $0) } }
      let paced = calculationMode == .paced || calculationMode == .cubicPaced
      let given = _usableKeyTimes(segs.count + 1, discrete: false)
      prepared = Prepared(
        keyTimes: paced ? Self._paced(lengths) : (given ?? Self._evenly(segs.count + 1)), segments: segs)
    } else {
      let n = values.count
      switch calculationMode {
      case .discrete:
        prepared = Prepared(
          keyTimes: _usableKeyTimes(n, discrete: true) ?? (0...n).map { Double($0) / Double(Swift.max(n, 1)) },
          segments: [])
      case .paced:
        prepared = Prepared(
          keyTimes: Self._paced((0..<Swift.max(n - 1, 0)).map { values[$0].distance(to: values[$0 + 1]) }),
          segments: [])
      case .cubicPaced:
        let lengths = (0..<Swift.max(n - 1, 0)).map { i in
          Self._arcLength(16) { u -> Point in
            let v = self._catmullRom(i, u)._components
            return Point(x: v.count > 0 ? v[0] : 0, y: v.count > 1 ? v[1] : 0)
          }
        }
        prepared = Prepared(keyTimes: Self._paced(lengths), segments: [])
      case .linear, .cubic:
        prepared = Prepared(keyTimes: _usableKeyTimes(n, discrete: false) ?? Self._evenly(n), segments: [])
      }
    }
    if path == nil {
      prepared.points = values.compactMap { if case .point(let p) = $0 { p } else { nil } }
      if prepared.points.count != values.count { prepared.points = [] }
      prepared.scalars = values.compactMap { if case .scalar(let v) = $0 { v } else { nil } }
      if prepared.scalars.count != values.count { prepared.scalars = [] }
    }
    _prepared = prepared
    return prepared
  }

  /// The keyframe point at paced progress `f`: the one function both the class fast path and
  /// the frame builder's compiled tracks use, so both give identical bits.
  @inline(__always)
  package static func _pointAt(
    _ f: Double, discrete: Bool, keyTimes kt: UnsafeBufferPointer<Double>, points: UnsafeBufferPointer<Point>,
    segmentFunctions: [TimingFunction]?
  ) -> Point {
    let n = points.count
    if discrete {
      var i = 0
      while i + 1 < kt.count && kt[i + 1] <= f { i += 1 }
      return points[Swift.min(i, n - 1)]
    }
    var (lo, u) = _segment(kt, f)
    if let tf = segmentFunctions, lo < tf.count { u = tf[lo](u) }
    let a = points[lo]
    let b = points[lo + 1]
    return Point(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u)
  }

  /// A compiled form of this animation for the frame builder, when it is a plain point
  /// keyframe animation of `position` (else nil).
  package var _pointTrack: (keyTimes: [Double], points: [Point], discrete: Bool, segmentFunctions: [TimingFunction]?)? {
    guard !isAdditive, !isCumulative, path == nil, values.count >= 2, keyPath == .position, rotationMode == nil,
      calculationMode == .linear || calculationMode == .paced || calculationMode == .discrete
    else { return nil }
    let p = _prepare()
    guard !p.points.isEmpty else { return nil }
    return (
      p.keyTimes, p.points, calculationMode == .discrete, calculationMode == .linear ? timingFunctions : nil
    )
  }

  /// Position or number keyframes in linear, paced or discrete mode, neither additive nor
  /// cumulative: interpolated from plain arrays and written straight into the state. Same
  /// answers as the general path, without copying 130-byte enum values. False when it does not
  /// apply.
  private func _applyFast(to state: inout LayerState, atParentTime parentTime: Double) -> Bool {
    guard !isAdditive, !isCumulative, path == nil, values.count >= 2,
      calculationMode == .linear || calculationMode == .paced || calculationMode == .discrete
    else { return false }
    let p = _prepare()
    let isPoint = !p.points.isEmpty && keyPath == .position
    let isScalar = !p.scalars.isEmpty && keyPath.valueKind == "number"
    guard isPoint || isScalar else { return false }
    guard let at = activeTime(atParentTime: parentTime) else { return true }
    let f = timingFunction?(at.progress) ?? at.progress
    if isPoint {
      state.position = p.keyTimes.withUnsafeBufferPointer { kts in
        p.points.withUnsafeBufferPointer { pts in
          Self._pointAt(
            f, discrete: calculationMode == .discrete, keyTimes: kts, points: pts,
            segmentFunctions: calculationMode == .linear ? timingFunctions : nil)
        }
      }
      return true
    }
    let kt = p.keyTimes
    let n = values.count
    var i: Int
    var u: Double
    if calculationMode == .discrete {
      i = 0
      while i + 1 < kt.count && kt[i + 1] <= f { i += 1 }
      i = Swift.min(i, n - 1)
      u = 0
    } else {
      (i, u) = Self._segment(kt, f)
      if calculationMode == .linear, let tf = timingFunctions, i < tf.count { u = tf[i](u) }
    }
    do {
      let a = p.scalars[i]
      let v = calculationMode == .discrete ? a : a * (1 - u) + p.scalars[i + 1] * u
      keyPath.write(.scalar(v), into: &state)
    }
    return true
  }

  private static func _arcLength(_ steps: Int, _ f: (Double) -> Point) -> Double {
    var prev = f(0)
    var total = 0.0
    for k in 1...steps {
      let p = f(Double(k) / Double(steps))
      total += ((p.x - prev.x) * (p.x - prev.x) + (p.y - prev.y) * (p.y - prev.y)).squareRoot()
      prev = p
    }
    return total
  }

  package static func _bezierPoint(_ s: Segment, _ u: Double) -> Point {
    if s.isJump { return s.end }
    let v = 1 - u
    let a = v * v * v
    let b = 3 * v * v * u
    let c = 3 * v * u * u
    let d = u * u * u
    return Point(
      x: a * s.start.x + b * s.c1.x + c * s.c2.x + d * s.end.x,
      y: a * s.start.y + b * s.c1.y + c * s.c2.y + d * s.end.y)
  }

  package static func _bezierTangent(_ s: Segment, _ u: Double) -> Point {
    let v = 1 - u
    var t = Point(
      x: 3 * v * v * (s.c1.x - s.start.x) + 6 * v * u * (s.c2.x - s.c1.x) + 3 * u * u * (s.end.x - s.c2.x),
      y: 3 * v * v * (s.c1.y - s.start.y) + 6 * v * u * (s.c2.y - s.c1.y) + 3 * u * u * (s.end.y - s.c2.y))
    if t.x == 0 && t.y == 0 { t = Point(x: s.end.x - s.start.x, y: s.end.y - s.start.y) }
    return t
  }

  /// The Catmull-Rom point between values i and i+1 at u (ends repeat their neighbour).
  package static func _catmullRom(_ values: UnsafeBufferPointer<AnimatableValue>, _ i: Int, _ u: Double)
    -> AnimatableValue
  {
    let n = values.count
    let p0 = values[Swift.max(i - 1, 0)]
    let p1 = values[i]
    let p2 = values[Swift.min(i + 1, n - 1)]
    let p3 = values[Swift.min(i + 2, n - 1)]
    let u2 = u * u
    let u3 = u2 * u
    let w0 = 0.5 * (-u + 2 * u2 - u3)
    let w1 = 0.5 * (2 - 5 * u2 + 3 * u3)
    let w2 = 0.5 * (u + 4 * u2 - 3 * u3)
    let w3 = 0.5 * (-u2 + u3)
    return p0._combine(w0, p1, w1)._combine(1, p2, w2)._combine(1, p3, w3)
  }

  private func _catmullRom(_ i: Int, _ u: Double) -> AnimatableValue {
    values.withUnsafeBufferPointer { Self._catmullRom($0, i, u) }
  }

  /// The segment holding progress f and the local progress within it.
  private static func _segment(_ kt: [Double], _ f: Double) -> (Int, Double) {
    kt.withUnsafeBufferPointer { _segment($0, f) }
  }

  /// The same, over a buffer: a binary search for the last key time <= f.
  @inline(__always)
  package static func _segment(_ kt: UnsafeBufferPointer<Double>, _ f: Double) -> (Int, Double) {
    let last = kt.count - 2
    var lo = 0
    var hi = last
    while lo < hi {
      let mid = (lo + hi + 1) >> 1
      if kt[mid] <= f { lo = mid } else { hi = mid - 1 }
    }
    let width = kt[lo + 1] - kt[lo]
    return (lo, width > 0 ? (f - kt[lo]) / width : 1)
  }

  override func _value(at f: Double, seconds: Double, underlying: AnimatableValue) -> AnimatableValue? {
    _evaluate(f).map { $0.value }
  }

  /// The value at progress f, and the path tangent angle when a path drives the animation.
  private func _evaluate(_ f: Double) -> (value: AnimatableValue, angle: Double?)? {
    let p = _prepare()
    return p.keyTimes.withUnsafeBufferPointer { kt in
      values.withUnsafeBufferPointer { vs in
        p.segments.withUnsafeBufferPointer { segs in
          (timingFunctions ?? []).withUnsafeBufferPointer { fs in
            Self._evaluate(
              f, mode: calculationMode, keyTimes: kt, values: vs, segments: segs, isPath: path != nil,
              pathStart: path?.first, timingFunctions: timingFunctions == nil ? nil : fs, rotationMode: rotationMode)
          }
        }
      }
    }
  }

  /// A keyframe animation's value at paced progress f over its prepared data: the one function
  /// the class and the frame builder's compiled records both use.
  package static func _evaluate(
    _ f: Double, mode calculationMode: CalculationMode, keyTimes kt: UnsafeBufferPointer<Double>,
    values: UnsafeBufferPointer<AnimatableValue>, segments segs: UnsafeBufferPointer<PathSegment>, isPath: Bool,
    pathStart: PathElement?, timingFunctions: UnsafeBufferPointer<TimingFunction>?, rotationMode: RotationMode?
  ) -> (value: AnimatableValue, angle: Double?)? {
    func angle(_ t: Point) -> Double? {
      guard let mode = rotationMode else { return nil }
      return _atan2(t.y, t.x) + (mode == .autoReverse ? Double.pi : 0)
    }
    if isPath {
      guard !segs.isEmpty else {
        if case .move(let q)? = pathStart { return (.point(q), nil) }
        return nil
      }
      if calculationMode == .discrete {
        let (i, u) = _segment(kt, f)
        let s = segs[i]
        return (.point(u >= 1 ? s.end : s.start), angle(_bezierTangent(s, 0)))
      }
      var (i, u) = _segment(kt, f)
      if calculationMode == .linear || calculationMode == .cubic, let tf = timingFunctions, i < tf.count {
        u = tf[i](u)
      }
      let s = segs[i]
      return (.point(_bezierPoint(s, u)), angle(_bezierTangent(s, u)))
    }
    let n = values.count
    guard n > 0 else { return nil }
    if n == 1 { return (values[0], nil) }
    if calculationMode == .discrete {
      var i = 0
      while i + 1 < kt.count && kt[i + 1] <= f { i += 1 }
      return (values[Swift.min(i, n - 1)], nil)
    }
    var (i, u) = _segment(kt, f)
    if calculationMode == .linear || calculationMode == .cubic, let tf = timingFunctions, i < tf.count {
      u = tf[i](u)
    }
    switch calculationMode {
    case .cubic, .cubicPaced: return (_catmullRom(values, i, u), nil)
    default: return (values[i].interpolated(to: values[i + 1], u), nil)
    }
  }

  public override func apply(to state: inout LayerState, atParentTime parentTime: Double) {
    if _applyFast(to: &state, atParentTime: parentTime) { return }
    super.apply(to: &state, atParentTime: parentTime)
    guard rotationMode != nil, path != nil, let at = activeTime(atParentTime: parentTime) else { return }
    let f = timingFunction?(at.progress) ?? at.progress
    if let angle = _evaluate(f)?.angle {
      state.transform = Transform3D.concat(state.transform, .rotation(angle, 0, 0, 1))
    }
  }

  package override func _prepareForEvaluation() { _ = _prepare() }

  public override func copy() -> Animation {
    let a = KeyframeAnimation(keyPath: keyPath)
    _copyProperty(into: a)
    (a.values, a.path, a.keyTimes) = (values, path, keyTimes)
    (a.timingFunctions, a.calculationMode, a.rotationMode) = (timingFunctions, calculationMode, rotationMode)
    return a
  }
}
