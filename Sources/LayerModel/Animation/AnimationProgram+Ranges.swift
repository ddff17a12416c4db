extension FrozenAnimationProgram {
  /// Widens `s` to hold every state records `range` can give a layer whose local time is in
  /// `times` (the animations apply in order; each may or may not be active at a given time, so
  /// each result is joined with what was there). Conservative: the true states at every time in
  /// `times` are inside the result, up to rounding (pad what is derived from it).
  package func widen(_ range: Range<Int32>, _ s: inout IntervalState, localTimes times: Interval) {
    _widen(range, &s, localTimes: times)
  }

  /// The same for a layer whose records change only its lean numbers (`changesLeanOnly`): no
  /// transform to carry (a state a third the size).
  package func widen(_ range: Range<Int32>, _ s: inout LeanIntervalState, localTimes times: Interval) {
    _widen(range, &s, localTimes: times)
  }

  /// Whether records `range` change only lean numbers, as `LeanIntervalState` holds them: no
  /// transform or transform component, no sublayerTransform, no path turning the layer by its
  /// tangent. O(records).
  package func changesLeanOnly(_ range: Range<Int32>) -> Bool {
    for k in Int(range.lowerBound)..<Int(range.upperBound) {
      let r = records[k]
      if r.kind == .group || r.kind == .none { continue }
      if r.keyPath == .transform || r.keyPath == .sublayerTransform || r.keyPath.isTransformComponent { return false }
      if r.kind == .keyframe && r.isPath && r.rotationMode != nil { return false }
    }
    return true
  }

  func _widen<State: _IntervalTarget>(_ range: Range<Int32>, _ s: inout State, localTimes times: Interval) {
    var k = Int(range.lowerBound)
    let end = Int(range.upperBound)
    while k < end && s.bounded {
      let r = records[k]
      let applies = r.kind == .none ? _Applies.never : _applies(k, times)
      if r.kind == .group {
        // The children's parent time is the group's local time within its iteration.
        if applies != .never {
          let d = durations[k].x
          let pieces = _progress(k, times)
          let y = _paced(
            r.timingFunction, progress: pieces.wrapped.map { pieces.progress.hull($0) } ?? pieces.progress)
          _apply(&s, always: applies == .always) { _widen(Int32(k + 1)..<r.end, &$0, localTimes: y * Interval(d)) }
        }
        k = Int(r.end)
        continue
      }
      if applies != .never { _apply(&s, always: applies == .always) { _widenProperty(k, r, &$0, times) } }
      k += 1
    }
  }

  /// Widens `s` by what a record (or group) can do: an animation applied at every time of the
  /// window hides what was under it, so it widens `s` in place (no copy of the state, about 400
  /// bytes: a tenth of a window build's instructions went to such copies, docs/optimisation-log.md
  /// entry 64); one applied only at some times widens a copy, joined with what was there.
  @inline(__always) func _apply<State: _IntervalTarget>(
    _ s: inout State, always: Bool, _ widen: (inout State) -> Void
  ) {
    if always { return widen(&s) }
    var applied = s
    widen(&applied)
    s = s.hull(applied)
  }

  /// Where in a window a record applies: at every time of it, at some, or at none.
  enum _Applies { case always, sometimes, never }

  /// Whether record k applies at every local time in `times` (inside its active period, or
  /// filling where it is outside), at none (every time before its start without a backwards
  /// fill, or after its end without a held end: it changes nothing in the window, which it then
  /// leaves as it is), or at some. The active times are computed as `MediaTiming._activeTime`
  /// computes them, from the window's ends: rounding is monotone, so every time inside maps
  /// between them, and a window whose ends are both before the start has every time before it.
  func _applies(_ k: Int, _ times: Interval) -> _Applies {
    let r = records[k]
    let t = r.timing
    let total = durations[k].y
    guard let (lo, hi) = _activeEnds(k, times) else { return .sometimes }
    // Not applied, as `_activeTime` decides it: before the start without a backwards fill,
    // after a finite end that is not held.
    let holdsEnd = t.fillMode.fillsForwards && !r.removedOnCompletion && total.isFinite
    if (hi < 0 && !t.fillMode.fillsBackwards) || (lo >= total && !holdsEnd) { return .never }
    // The fills, as `heldProgress` holds them (NaN: no such fill).
    let fills = heldProgress[k]
    return (lo >= 0 || !fills.x.isNaN) && (hi < total || !fills.y.isNaN) ? .always : .sometimes
  }

  /// Record k's active times (before the iteration rule) at the ends of `times`, in order, as
  /// `MediaTiming._activeTime` computes them: rounding is monotone, so every time inside maps
  /// between the two. Nil where `times` is unbounded or a product is NaN.
  @inline(__always) func _activeEnds(_ k: Int, _ times: Interval) -> (lo: Double, hi: Double)? {
    let t = records[k].timing
    guard times.isBounded else { return nil }
    let a = (times.lo - t.beginTime) * t.speed
    let b = (times.hi - t.beginTime) * t.speed
    guard !a.isNaN, !b.isNaN else { return nil }
    return (Swift.min(a, b), Swift.max(a, b))
  }

  /// Where records `range` give a layer one state at every local time in `times`: each
  /// record and group is outside its active period there (every time before its start, or
  /// every time after its end), where it applies one held progress or nothing whatever the
  /// time. Answers which side each top-level record is on (bit i set: record i of the range's
  /// top level is past its end), nil where one is active somewhere in `times` (or the range has
  /// more than 64 top-level records). Two windows with the same sides give the same state, and
  /// `applyLean` at any time of either gives it, bit for bit: the motion bounds keep it across
  /// windows (docs/optimisation-log.md entry 79). O(records).
  package func heldSides(_ range: Range<Int32>, localTimes times: Interval) -> UInt64? {
    var k = Int(range.lowerBound)
    let end = Int(range.upperBound)
    var sides: UInt64 = 0
    var i: UInt64 = 0
    while k < end {
      guard i < 64 else { return nil }
      let r = records[k]
      if r.kind != .none {
        guard let (lo, hi) = _activeEnds(k, times) else { return nil }
        if lo >= durations[k].y {
          sides |= 1 << i
        } else if !(hi < 0) {
          return nil
        }
      }
      // A group outside its active period holds its children at one local time (or none).
      k = r.kind == .group ? Int(r.end) : k + 1
      i += 1
    }
    return sides
  }

  /// Whether every top-level record of `range` ends (a finite active duration): a layer whose
  /// records all end holds one state before they start and after they end (`heldSides`).
  package func allEnd(_ range: Range<Int32>) -> Bool {
    var k = Int(range.lowerBound)
    while k < Int(range.upperBound) {
      let r = records[k]
      if r.kind != .none && !durations[k].y.isFinite { return false }
      k = r.kind == .group ? Int(r.end) : k + 1
    }
    return true
  }

  /// The progress (after the iteration rule, before pacing) a record can be at for local times
  /// in `times`, and its cycle index: a sub-interval when the times stay inside one iteration
  /// of the active period or cross one boundary between iterations (an autoreversed turn stays
  /// near one end; a plain wrap is two pieces, the second in `wrapped`), else all of [0, 1].
  func _progress(_ k: Int, _ times: Interval) -> (progress: Interval, wrapped: Interval?, cycles: Interval) {
    let t = records[k].timing
    let d = durations[k].x
    let total = durations[k].y
    let all = (Interval.unit, Interval?.none, Interval(0, .infinity))
    guard times.isBounded, d.isFinite, d > 0 else { return all }
    let a = (times.lo - t.beginTime) * t.speed
    let b = (times.hi - t.beginTime) * t.speed
    let ta = Interval(Swift.min(a, b), Swift.max(a, b))
    guard ta.isBounded else { return all }
    // Iterations Double can no longer count exactly (beyond 2^40 a unit of iteration is a few
    // ulps): any progress, and any cycle the evaluation can reach (it clamps the count to
    // 2^53; a cumulative step applies only to positive counts).
    let iterations = Swift.max(Swift.abs(ta.lo + t.timeOffset), Swift.abs(ta.hi + t.timeOffset)) / d
    guard iterations < 0x1p40 else { return (.unit, nil, Interval(0, 0x1p53)) }
    // The cycle count, for cumulative animations: of the times the evaluation reaches (before
    // the start a backwards fill sits at the offset; after the end a held end at offset +
    // total; the offset can carry either past total / cycle), with one cycle to spare on each
    // side for the rounding of the two ways of counting.
    let cycle = t.autoreverses ? 2 * d : d
    let lowT = ta.lo < 0 ? Swift.min(t.timeOffset, ta.lo + t.timeOffset) : ta.lo + t.timeOffset
    let highT = (total.isFinite ? Swift.min(ta.hi, total) : ta.hi) + t.timeOffset
    let k0 = Swift.max((Swift.min(lowT, highT) / cycle).rounded(.down) - 1, 0)
    let k1 = Swift.max((Swift.max(lowT, highT, t.timeOffset) / cycle).rounded(.down) + 1, 0)
    let cycles = Interval(k0, Swift.max(k0, k1))
    @inline(__always) func clamped(_ p: Interval) -> Interval {
      let q = p.padded
      return Interval(Swift.max(q.lo, 0), Swift.min(q.hi, 1))
    }
    // Times outside the active period apply one progress each (as `MediaTiming._activeTime`
    // evaluates them, computed once per record: `heldProgress`): before the start a backwards
    // fill holds the position at the offset, after the end a held end the last iteration's
    // end; without a fill they apply nothing. (A spring filling backwards before it starts, as
    // rows waiting to slide in, is at its start, not anywhere on its path.)
    var held: Interval?
    let fills = heldProgress[k]
    if ta.lo < 0 && !fills.x.isNaN { held = Interval(fills.x) }
    if ta.hi >= total && !fills.y.isNaN { held = held.map { $0.hull(fills.y) } ?? Interval(fills.y) }
    // The active times in the window: [lo, hi] (hi at most the end, where an iteration
    // boundary may fall: the pieces below then hold both sides of it).
    let lo = Swift.max(ta.lo, 0)
    let hi = Swift.min(ta.hi, total)
    guard lo <= hi, ta.hi >= 0, ta.lo < total else {
      // No active time: the held progress, or (applying nothing) any. Not padded: it is the
      // evaluation's own number, computed as the evaluation computes it (and a point takes
      // the cheap paths of the interval functions, one cosine instead of two).
      return (held ?? .unit, nil, cycles)
    }
    let t0 = lo + t.timeOffset
    let t1 = hi + t.timeOffset
    let i0 = (t0 / d).rounded(.down)
    let i1 = (t1 / d).rounded(.down)
    guard i0.magnitude < 9e15, i1 == i0 || i1 == i0 + 1 else { return (.unit, nil, cycles) }
    let f0 = (t0 - i0 * d) / d
    let f1 = (t1 - i1 * d) / d
    @inline(__always) func with(_ p: Interval) -> Interval { held.map { clamped(p).hull($0) } ?? clamped(p) }
    let reversed = t.autoreverses && i0.truncatingRemainder(dividingBy: 2) != 0
    if i0 == i1 {
      return (with(reversed ? Interval(1 - f1, 1 - f0) : Interval(f0, f1)), nil, cycles)
    }
    if t.autoreverses {
      // A turn: forwards to 1 and back (or backwards to 0 and forwards again).
      return (with(reversed ? Interval(0, Swift.max(1 - f0, f1)) : Interval(Swift.min(f0, 1 - f1), 1)), nil, cycles)
    }
    // A wrap: from f0 up to the end of one iteration, then from the start of the next to f1.
    return (with(Interval(f0, 1)), clamped(Interval(0, f1)), cycles)
  }

  /// What a timing function (index into `curves`, -1: none) makes of progress in `p`.
  func _paced(_ tf: Int32, progress p: Interval) -> Interval {
    guard tf >= 0 else { return p }
    let f = curves[Int(tf)]
    if f.c1y >= 0 && f.c1y <= f.c2y && f.c2y <= 1 && f.c1x >= 0 && f.c1x <= 1 && f.c2x >= 0 && f.c2x <= 1 {
      // Non-decreasing y control points: y is non-decreasing in x (up to the solver's error).
      return Interval(f(p.lo) - 1e-9, f(p.hi) + 1e-9)
    }
    // The curve stays in its control points' hull.
    return Interval(Swift.min(0, f.c1y, f.c2y), Swift.max(1, f.c1y, f.c2y)).padded
  }

  /// One property record applied: its value interval written into `s` (its key path's numbers,
  /// or the transform's decomposition).
  func _widenProperty<State: _IntervalTarget>(_ k: Int, _ r: AnimationRecord, _ s: inout State, _ times: Interval) {
    let (progress, wrapped, cycles) = _progress(k, times)
    let w = r.lane == .lean ? Int(r.width) : _componentCount(r.keyPath)
    guard w > 0 else {
      // hidden (only removes hits) and other value-less paths change no geometry.
      if r.keyPath == .sublayerTransform { s._movesSublayers() }
      if r.keyPath == .transform || r.keyPath.isTransformComponent { s.bounded = false }
      return
    }
    let under = _read(r.keyPath, s)
    guard var v = _value(k, r, progress, cycles: cycles, under: under, w) else {
      s.bounded = false
      return
    }
    if let wrapped {
      guard let second = _value(k, r, wrapped, cycles: cycles, under: under, w) else {
        s.bounded = false
        return
      }
      for i in 0..<w { v[i] = v[i].hull(second[i]) }
    }
    if r.cumulative {
      guard let (e0, e1) = _cycleEnds(k, r, under, w), cycles.isBounded else {
        s.bounded = false
        return
      }
      for i in 0..<w { v[i] = v[i] + (e1[i] - e0[i]) * cycles }
    }
    if r.additive { for i in 0..<w { v[i] = under[i] + v[i] } }
    _write(r.keyPath, v, &s)
    if r.kind == .keyframe && r.isPath && r.rotationMode != nil { s._turnsAnyWay() }
  }

  /// How many numbers a key path's value has in the interval state (0: none bounded here).
  func _componentCount(_ k: AnimatableKeyPath) -> Int {
    let l = LeanValues.layout(k)
    if l.width > 0 { return Int(l.width) }
    switch k {
    case .rotation, .rotationZ, .scale, .scaleX, .scaleY, .translationX, .translationY: return 1
    case .translation: return 2
    default: return 0
    }
  }

  /// The key path's current value in `s`, as up to 4 intervals.
  @inline(__always)
  func _read<State: _IntervalTarget>(_ k: AnimatableKeyPath, _ s: State) -> InlineArray<4, Interval> {
    let l = LeanValues.layout(k)
    guard l.width > 0 else { return s._transformValue(k) }
    var out = InlineArray<4, Interval>(repeating: Interval(0))
    for i in 0..<Int(l.width) { out[i] = s.lean[Int(l.offset) + i] }
    return out
  }

  @inline(__always)
  func _write<State: _IntervalTarget>(_ k: AnimatableKeyPath, _ v: InlineArray<4, Interval>, _ s: inout State) {
    let l = LeanValues.layout(k)
    guard l.width > 0 else { return s._setTransformValue(k, v) }
    for i in 0..<Int(l.width) { s.lean[Int(l.offset) + i] = v[i] }
  }

  /// The numbers of a record's stored value i (lean numbers, or a general value of a lean kind).
  func _numbers(_ r: AnimationRecord, _ i: Int, _ w: Int) -> InlineArray<4, Interval>? {
    var out = InlineArray<4, Interval>(repeating: Interval(0))
    if r.lane == .lean {
      let p = numbers.baseAddress! + Int(r.valueRange.start) + i * w
      for j in 0..<w { out[j] = Interval(p[j]) }
      return out
    }
    switch values[Int(r.valueRange.start) + i] {
    case .scalar(let x): out[0] = Interval(x)
    case .point(let p):
      out[0] = Interval(p.x)
      out[1] = Interval(p.y)
    case .size(let z):
      out[0] = Interval(z.width)
      out[1] = Interval(z.height)
    case .rect(let q):
      out[0] = Interval(q.origin.x)
      out[1] = Interval(q.origin.y)
      out[2] = Interval(q.size.width)
      out[3] = Interval(q.size.height)
    case .bool(let b): out[0] = Interval(b ? 1 : 0)
    case .transform: return nil
    }
    return out
  }

  /// The record's own value (before the cumulative and additive steps) over progress `p`.
  /// (`leanInPlace` false: every record through `_endpoints`, for the test that holds the two
  /// ways equal.)
  func _value(
    _ k: Int, _ r: AnimationRecord, _ p: Interval, cycles: Interval, under: InlineArray<4, Interval>, _ w: Int,
    leanInPlace: Bool = true
  ) -> InlineArray<4, Interval>? {
    switch r.kind {
    case .basic, .spring:
      @inline(__always) func pace() -> Interval {
        r.kind == .spring
          ? Interval(1) - springs[Int(r.spring)].displacement(over: p * Interval(durations[k].x))
          : _paced(r.timingFunction, progress: p)
      }
      if leanInPlace && r.lane == .lean && r.endpointMask & 3 == 3 {
        // From and to, lean numbers (a row sliding in, a spring on a position): read in place,
        // the same intervals as `_endpoints` gives (its arrays copied per record were a tenth
        // of a window build, docs/optimisation-log.md entry 70). Lanes past w are never read.
        let g = pace()
        let q = numbers.baseAddress! + Int(r.valueRange.start)
        var out = under
        for i in 0..<w { out[i] = Interval(q[i]) * (Interval(1) - g) + Interval(q[w + i]) * g }
        return out
      }
      guard let (a, b) = _endpoints(r, under, w) else { return under }
      let g = pace()
      var out = a
      for i in 0..<w { out[i] = a[i] * (Interval(1) - g) + b[i] * g }
      return out
    case .keyframe:
      return _keyframeValues(k, r, _paced(r.timingFunction, progress: p), w)
    default: return under
    }
  }

  /// Basic or spring endpoints, as `BasicAnimation.endpoints`, over an underlying interval.
  func _endpoints(_ r: AnimationRecord, _ u: InlineArray<4, Interval>, _ w: Int)
    -> (InlineArray<4, Interval>, InlineArray<4, Interval>)?
  {
    let m = r.endpointMask
    var i = 0
    var from: InlineArray<4, Interval>?
    var to: InlineArray<4, Interval>?
    var by: InlineArray<4, Interval>?
    if m & 1 != 0 {
      from = _numbers(r, i, w)
      i += 1
    }
    if m & 2 != 0 {
      to = _numbers(r, i, w)
      i += 1
    }
    if m & 4 != 0 { by = _numbers(r, i, w) }
    func plus(_ a: InlineArray<4, Interval>, _ b: InlineArray<4, Interval>, _ sign: Double) -> InlineArray<4, Interval>
    {
      var o = a
      for j in 0..<w { o[j] = a[j] + b[j] * sign }
      return o
    }
    switch (from, to, by) {
    case (let f?, let t?, _): return (f, t)
    case (let f?, nil, let b?): return (f, plus(f, b, 1))
    case (nil, let t?, let b?): return (plus(t, b, -1), t)
    case (let f?, nil, nil): return (f, u)
    case (nil, let t?, nil): return (u, t)
    case (nil, nil, let b?): return (u, plus(u, b, 1))
    default: return nil
    }
  }

  /// The value at the start and end of one cycle (for cumulative records).
  func _cycleEnds(_ k: Int, _ r: AnimationRecord, _ u: InlineArray<4, Interval>, _ w: Int)
    -> (InlineArray<4, Interval>, InlineArray<4, Interval>)?
  {
    switch r.kind {
    case .basic, .spring: return _endpoints(r, u, w)
    case .keyframe:
      guard let a = _keyframeValues(k, r, Interval(0), w), let b = _keyframeValues(k, r, Interval(1), w) else {
        return nil
      }
      return (a, b)
    default: return nil
    }
  }

  /// Every value a keyframe record takes for paced progress in `y`: the hull over the segments
  /// `y` covers of each segment's reachable values (its keys, or its curve's control hull),
  /// extrapolated where `y` leaves the key times. nil when the values are transforms (not bounded
  /// here).
  func _keyframeValues(_ k: Int, _ r: AnimationRecord, _ y: Interval, _ w: Int) -> InlineArray<4, Interval>? {
    let kt = times[range: r.keyRange]
    if r.isPath { return _pathValues(r, kt, y) }
    let n = Int(r.valueRange.count)
    guard n > 0, y.isBounded else { return nil }
    if n == 1 || kt.count < 2 { return _numbers(r, 0, w) }
    var out: InlineArray<4, Interval>?
    if r.mode == .discrete {
      var i = 0
      while i + 1 < kt.count && kt[i + 1] <= y.lo { i += 1 }
      var j = i
      while j + 1 < kt.count && kt[j + 1] <= y.hi { j += 1 }
      for q in i...j {
        guard let v = _numbers(r, Swift.min(q, n - 1), w) else { return nil }
        Self._join(&out, v, w)
      }
      return out
    }
    let (i0, u0) = KeyframeAnimation._segment(kt, y.lo)
    let (i1, u1) = KeyframeAnimation._segment(kt, y.hi)
    for i in i0...Swift.max(i0, i1) {
      guard i + 1 < n || r.mode == .cubic || r.mode == .cubicPaced else { break }
      var u = Interval(i == i0 ? u0 : 0, i == i1 ? u1 : 1)
      if u.lo > u.hi { u = Interval(u.hi, u.lo) }
      if (r.mode == .linear || r.mode == .cubic) && r.curveRange.isPresent && i < Int(r.curveRange.count) {
        u = _paced(r.curveRange.start + Int32(i), progress: Interval(Swift.max(u.lo, 0), Swift.min(u.hi, 1)))
      }
      if r.mode == .cubic || r.mode == .cubicPaced {
        guard let v = _catmullRomValues(r, i, u, n, w) else { return nil }
        Self._join(&out, v, w)
      } else {
        guard let a = _numbers(r, i, w), let b = _numbers(r, Swift.min(i + 1, n - 1), w) else { return nil }
        var v = a
        for j in 0..<w { v[j] = a[j] + (b[j] - a[j]) * u }
        Self._join(&out, v, w)
      }
    }
    return out
  }

  /// Widens `out` (nil: nothing yet) to hold `v`. (A static function with an inout parameter:
  /// a nested function capturing `out` would box it, one allocation per call.)
  @inline(__always)
  static func _join(_ out: inout InlineArray<4, Interval>?, _ v: InlineArray<4, Interval>, _ w: Int) {
    guard var h = out else {
      out = v
      return
    }
    for j in 0..<w { h[j] = h[j].hull(v[j]) }
    out = h
  }

  /// A Catmull-Rom segment over u: inside [0, 1] the hull of its Bezier control points, outside
  /// it interval arithmetic on the weights.
  func _catmullRomValues(_ r: AnimationRecord, _ i: Int, _ u: Interval, _ n: Int, _ w: Int) -> InlineArray<4, Interval>?
  {
    guard let p0 = _numbers(r, Swift.max(i - 1, 0), w), let p1 = _numbers(r, i, w),
      let p2 = _numbers(r, Swift.min(i + 1, n - 1), w), let p3 = _numbers(r, Swift.min(i + 2, n - 1), w)
    else { return nil }
    var out = p1
    if u.lo >= 0 && u.hi <= 1 {
      for j in 0..<w {
        let b1 = p1[j] + (p2[j] - p0[j]) * (1.0 / 6)
        let b2 = p2[j] - (p3[j] - p1[j]) * (1.0 / 6)
        out[j] = p1[j].hull(p2[j]).hull(b1).hull(b2).padded
      }
      return out
    }
    let u2 = u * u
    let u3 = u2 * u
    let w0 = (-u + u2 * 2 - u3) * 0.5
    let w1 = (Interval(2) - u2 * 5 + u3 * 3) * 0.5
    let w2 = (u + u2 * 4 - u3 * 3) * 0.5
    let w3 = (-u2 + u3) * 0.5
    for j in 0..<w { out[j] = (p0[j] * w0 + p1[j] * w1 + p2[j] * w2 + p3[j] * w3).padded }
    return out
  }

  /// The points a path reaches for paced progress in `y`: the control hulls of the segments it
  /// covers (interval arithmetic on the Bernstein weights where u leaves [0, 1]).
  func _pathValues(_ r: AnimationRecord, _ kt: UnsafeBufferPointer<Double>, _ y: Interval) -> InlineArray<4, Interval>?
  {
    let segs = segments[range: r.segmentRange]
    var out = InlineArray<4, Interval>(repeating: Interval(0))
    guard !segs.isEmpty, kt.count >= 2, y.isBounded else {
      guard let q = r.pathStart else { return nil }
      out[0] = Interval(q.x)
      out[1] = Interval(q.y)
      return out
    }
    let (i0, u0) = KeyframeAnimation._segment(kt, y.lo)
    let (i1, u1) = KeyframeAnimation._segment(kt, y.hi)
    var first = true
    for i in i0...Swift.max(i0, i1) where i < segs.count {
      let s = segs[i]
      var u = Interval(i == i0 ? u0 : 0, i == i1 ? u1 : 1)
      if u.lo > u.hi { u = Interval(u.hi, u.lo) }
      if r.mode == .discrete {
        u = Interval(0, 1)
      } else if (r.mode == .linear || r.mode == .cubic) && r.curveRange.isPresent && i < Int(r.curveRange.count) {
        u = _paced(r.curveRange.start + Int32(i), progress: Interval(Swift.max(u.lo, 0), Swift.min(u.hi, 1)))
      }
      var x: Interval
      var yy: Interval
      if s.isJump {
        x = Interval(s.end.x)
        yy = Interval(s.end.y)
      } else if u.lo >= 0 && u.hi <= 1 {
        x = Interval(s.start.x).hull(s.c1.x).hull(s.c2.x).hull(s.end.x)
        yy = Interval(s.start.y).hull(s.c1.y).hull(s.c2.y).hull(s.end.y)
        if r.mode == .discrete {
          x = Interval(s.start.x).hull(s.end.x)
          yy = Interval(s.start.y).hull(s.end.y)
        }
      } else {
        let v = Interval(1) - u
        let a = v * v * v
        let b = v * v * u * 3
        let c = v * u * u * 3
        let d = u * u * u
        x = a * s.start.x + b * s.c1.x + c * s.c2.x + d * s.end.x
        yy = a * s.start.y + b * s.c1.y + c * s.c2.y + d * s.end.y
      }
      if first {
        out[0] = x
        out[1] = yy
        first = false
      } else {
        out[0] = out[0].hull(x)
        out[1] = out[1].hull(yy)
      }
    }
    out[0] = out[0].padded
    out[1] = out[1].padded
    return out
  }
}

extension FrozenAnimationProgram {
  /// Whether records `range` drive opacity and nothing else (a group's own record drives
  /// nothing; a record of no kind, nothing): such animations change no box, no order and no
  /// hidden flag, so under semantics that never consult opacity they change no answer.
  package func drivesOnlyOpacity(_ range: Range<Int32>) -> Bool {
    for k in Int(range.lowerBound)..<Int(range.upperBound) {
      let r = records[k]
      if r.kind == .group || r.kind == .none { continue }
      if r.keyPath != .opacity { return false }
    }
    return true
  }
}
