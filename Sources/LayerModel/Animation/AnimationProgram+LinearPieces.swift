extension FrozenAnimationProgram {
  /// Whether record k's value is a linear function of its layer's local time between
  /// breakpoints (iteration ends and key times): a lean basic animation, or a lean linear or
  /// paced keyframe track, without timing functions, not cumulative.
  package func isPiecewiseLinear(_ k: Int) -> Bool {
    let r = records[k]
    guard r.lane == .lean, r.timingFunction < 0, !r.cumulative else { return false }
    switch r.kind {
    case .basic: return true
    case .keyframe: return !r.isPath && (r.mode == .linear || r.mode == .paced) && !r.curveRange.isPresent
    default: return false
    }
  }

  /// The progress values record k reaches at local times strictly inside (t0, t1) where its
  /// value stops being linear in time, with those times: iteration boundaries (both ends of the
  /// iteration, 0 and 1: the value may jump there) and key times. Written to `times` and
  /// `progress` (at most `capacity`); answers how many, or nil when the record is not inside its
  /// active period at every time of [t0, t1] (a fill or a removal could change its value in ways
  /// the pieces do not describe) or there are more breakpoints than `capacity`.
  package func breakpoints(
    _ k: Int, from t0: Double, to t1: Double, times out: UnsafeMutablePointer<Double>,
    progress: UnsafeMutablePointer<Double>, capacity: Int
  ) -> Int? {
    let r = records[k]
    let t = r.timing
    let d = durations[k].x
    let total = durations[k].y
    guard d.isFinite, d > 0, t0.isFinite, t1.isFinite else { return nil }
    let a = (t0 - t.beginTime) * t.speed
    let b = (t1 - t.beginTime) * t.speed
    guard Swift.min(a, b) >= 0, Swift.max(a, b) < total else { return nil }
    if t.speed == 0 { return 0 }
    let kt: UnsafeBufferPointer<Double> = r.kind == .keyframe ? times[range: r.keyRange] : .init(start: nil, count: 0)
    guard
      let walk = _LocalTimeWalk(
        tau0: Swift.min(a, b) + t.timeOffset, tau1: Swift.max(a, b) + t.timeOffset, duration: d, timing: t,
        capacity: capacity)
    else { return nil }
    var sink = _ProgressBreakpoints(out: out, progress: progress, capacity: capacity)
    guard walk.walk(keyTimes: kt, &sink) else { return nil }
    return sink.count
  }

  /// A lean piecewise-linear record's motion over [t0, t1] in closed form, for a record that
  /// changes at most its layer's position (`changesPositionOnly`): the position at t0, at every
  /// breakpoint strictly inside (key times; at an iteration boundary, the iteration's end and
  /// the next one's start, at one time: a jump, or with autoreverses one value twice) and at t1,
  /// in ascending clock time, into `times`
  /// and `positions` (at most `capacity` each). `under` is the layer's model position. Between
  /// consecutive knots the position is the straight line through them. The ends' progress is
  /// the evaluation's (`MediaTiming._position` on the same local time); every value is the
  /// evaluation's interpolation or a key value read, so within a few ulps of the positions'
  /// magnitude of what the frame computes (a caller pads for that). Answers how many knots,
  /// or nil where `breakpoints` does (outside the active period somewhere, too many knots, an
  /// iteration count Double cannot count by ones). About 20 instructions a knot.
  /// With `truncating` (time running forwards only; nil when it runs backwards), a full
  /// capacity is not a failure: the knots that fit are the answer, without one at t1 (the motion
  /// is known only up to the last of them), and the iterations the window spans are not limited.
  package func positionKnots(
    _ k: Int, from t0: Double, to t1: Double, under: SIMD2<Double>, times out: UnsafeMutablePointer<Double>,
    positions: UnsafeMutablePointer<SIMD2<Double>>, capacity: Int, truncating: Bool = false
  ) -> Int? {
    let r = UnsafePointer(records.baseAddress! + k)
    let d = durations[k].x
    let total = durations[k].y
    let begin = r.pointee.timing.beginTime
    let speed = r.pointee.timing.speed
    let offset = r.pointee.timing.timeOffset
    let autoreverses = r.pointee.timing.autoreverses
    guard d.isFinite, d > 0, t0.isFinite, t1.isFinite, t0 <= t1, capacity >= 2, !truncating || speed >= 0 else {
      return nil
    }
    let a = (t0 - begin) * speed
    let b = (t1 - begin) * speed
    guard Swift.min(a, b) >= 0, Swift.max(a, b) < total else { return nil }
    if r.pointee.offset >= 2 {
      // anchorPointZ, zPosition or opacity: the position stays the model's.
      out[0] = t0
      positions[0] = under
      out[1] = t1
      positions[1] = under
      return 2
    }
    let curve = _PositionCurve(self, r, under)
    guard curve.valid else { return nil }
    // The ends at the evaluation's progress (`MediaTiming._activeTime` inside the active period).
    let start = curve.value(MediaTiming._position(at: a + offset, duration: d, autoreverses: autoreverses).progress)
    let end = curve.value(MediaTiming._position(at: b + offset, duration: d, autoreverses: autoreverses).progress)
    if speed == 0 {
      out[0] = t0
      positions[0] = start
      out[1] = t1
      positions[1] = end
      return 2
    }
    // Knots in ascending local time from tau0; reversed at the end when time runs backwards.
    let timing = r.pointee.timing
    guard
      let walk = _LocalTimeWalk(
        tau0: Swift.min(a, b) + offset, tau1: Swift.max(a, b) + offset, duration: d, timing: timing,
        capacity: truncating ? Int.max : capacity)
    else { return nil }
    let forwards = speed > 0
    out[0] = forwards ? t0 : t1
    positions[0] = forwards ? start : end
    var sink = _PositionKnots(times: out, positions: positions, curve: curve, capacity: capacity)
    // The walk stops only when the sink is full.
    guard walk.walk(keyTimes: curve.keyTimes, &sink) else { return truncating ? sink.count : nil }
    var n = sink.count
    guard n < capacity else { return truncating ? n : nil }
    out[n] = forwards ? t1 : t0
    positions[n] = forwards ? end : start
    n += 1
    if !forwards {
      // Local time ran from t1 down to t0: the knots are in descending clock time.
      var lo = 0
      var hi = n - 1
      while lo < hi {
        swap(&out[lo], &out[hi])
        swap(&positions[lo], &positions[hi])
        lo += 1
        hi -= 1
      }
    }
    return n
  }

  /// The mean clock time between record k's breakpoints (iteration ends and inner key times):
  /// its duration over its speed, over its keyframe segments (one for a basic animation).
  /// Infinite when time stands still. A few instructions, no key read.
  package func meanBreakpointSpacing(_ k: Int) -> Double {
    let r = UnsafePointer(records.baseAddress! + k)
    let segments = r.pointee.kind == .keyframe ? Swift.max(Int(r.pointee.keyRange.count) - 1, 1) : 1
    return durations[k].x / Swift.abs(r.pointee.timing.speed) / Double(segments)
  }

  /// How far, in clock time, a Double evaluation of record k's local time over [t0, t1] (and a
  /// breakpoint's clock time computed back from it) can be from the exact one: a few ulps of
  /// the clock and of the local time, over the speed. Infinite when not finite.
  package func clockTimeError(_ k: Int, from t0: Double, to t1: Double) -> Double {
    let t = records[k].timing
    guard t.speed != 0 else { return 0 }
    let s = Swift.abs(t.speed)
    let a = (t0 - t.beginTime) * t.speed + t.timeOffset
    let b = (t1 - t.beginTime) * t.speed + t.timeOffset
    let local = Swift.max(Swift.abs(a), Swift.abs(b), Swift.abs(t.timeOffset))
    let clock = Swift.max(Swift.abs(t0), Swift.abs(t1), Swift.abs(t.beginTime))
    let e = 4 * (clock.ulp + 2 * local.ulp / s)
    return e.isFinite ? e : .infinity
  }

  /// Whether a lean record k changes, of the numbers a layer's 2D box depends on, at most its
  /// position (`LeanValues` 0 and 1; anchorPointZ, zPosition and opacity move no box): its box
  /// at any value is then one box translated (`MotionBounds`' closed form).
  package func changesPositionOnly(_ k: Int) -> Bool {
    let r = records[k]
    guard r.lane == .lean else { return false }
    return r.offset + r.width <= 2 || r.offset >= 8
  }

  /// A lean record's value at progress f, written over `v` (the evaluation's own arithmetic,
  /// `_leanValue`).
  package func leanValue(_ k: Int, progress f: Double, _ v: inout LeanValues) {
    let p = records[k].leanProperty
    let o = Int(p.offset)
    let w = Int(p.width)
    let at = ActiveTime(progress: f, cycle: 0, seconds: f * durations[k].x)
    if let value = _leanValue(k, p, at, under: v.load(o, w)) { v.store(value, o, w) }
  }

  /// Record k's progress at local time t (the timing rule), or nil when not applied.
  package func progress(_ k: Int, atLocalTime t: Double) -> Double? {
    _active(k, t)?.progress
  }
}

/// A piecewise-linear position record's values as `positionKnots` reads them: `_leanValue`'s
/// arithmetic for a basic animation (its endpoints, found once) or linear keyframes without
/// timing functions (without the keyframe cursor: a binary search over a few key times), then
/// the additive step, placed over the model position. Plain numbers and pointers into the
/// program's arrays (no reference: nothing to retain per use).
struct _PositionCurve {
  let numbers: UnsafePointer<Double>
  let width: Int
  let offset: Int
  let additive: Bool
  let positionTrack: Bool
  let under: SIMD2<Double>
  let lanes: SIMD4<Double>
  /// A keyframe track's key times (empty for a basic animation) and where its values start.
  let keyTimes: UnsafeBufferPointer<Double>
  let values: Int
  /// A basic animation's endpoints.
  var from = SIMD4<Double>()
  var to = SIMD4<Double>()
  /// False when the record has no value (a basic animation without endpoints) or more key
  /// times than values.
  var valid = true

  // Borrowed: an initialiser's arguments are owned by default, a retain and a release a call.
  @inline(__always) init(
    _ program: borrowing FrozenAnimationProgram, _ r: UnsafePointer<AnimationRecord>, _ under: SIMD2<Double>
  ) {
    numbers = UnsafePointer(program.numbers.baseAddress!)
    width = Int(r.pointee.width)
    offset = Int(r.pointee.offset)
    additive = r.pointee.additive
    positionTrack = r.pointee.positionTrack
    self.under = under
    lanes = offset == 1 ? SIMD4(under.y, 0, 0, 0) : SIMD4(under.x, under.y, 0, 0)
    values = Int(r.pointee.valueRange.start)
    if r.pointee.kind == .keyframe {
      keyTimes = program.times[range: r.pointee.keyRange]
      valid = keyTimes.count >= 2 && keyTimes.count <= Int(r.pointee.valueRange.count)
    } else {
      keyTimes = UnsafeBufferPointer(start: nil, count: 0)
      if let (a, b) = program._leanEndpoints(r.pointee.leanProperty, lanes, width) {
        from = a
        to = b
      } else {
        valid = false
      }
    }
  }

  /// `width` numbers from `at` as the first lanes of a vector.
  @inline(__always) func _load(_ at: Int) -> SIMD4<Double> { FrozenAnimationProgram._lanes(numbers + at, width) }

  /// The value at progress f.
  @inline(__always) func value(_ f: Double) -> SIMD2<Double> {
    var v: SIMD4<Double>
    if keyTimes.count >= 2 {
      let (lo, u) = KeyframeAnimation._segment(keyTimes, f)
      let a = _load(values + lo * width)
      let b = _load(values + (lo + 1) * width)
      let uu = SIMD4<Double>(repeating: u)
      v = positionTrack ? a + (b - a) * uu : a * SIMD4(repeating: 1 - u) + b * uu
    } else {
      v = from * SIMD4(repeating: 1 - f) + to * SIMD4(repeating: f)
    }
    return _placed(v)
  }

  /// Key j's value (the value at its key time: the segment from it at u = 0).
  @inline(__always) func key(_ j: Int) -> SIMD2<Double> { _placed(_load(values + j * width)) }

  @inline(__always) func _placed(_ value: SIMD4<Double>) -> SIMD2<Double> {
    var v = value
    if additive { v = lanes * SIMD4(repeating: 1) + v * SIMD4(repeating: 1) }
    if width == 2 { return SIMD2(v.x, v.y) }
    return offset == 0 ? SIMD2(v.x, under.y) : SIMD2(under.x, v.x)
  }
}

/// Position knots (`positionKnots`): a boundary as the previous iteration's end and this one's
/// start (progress 1, or 0 when the previous one ran backwards; then 0, or 1 when this one
/// runs backwards: with autoreverses the two are one value, no jump), a key time as its key
/// value. The first knot, at the window's start, is the caller's.
struct _PositionKnots: _BreakpointSink {
  let times: UnsafeMutablePointer<Double>
  let positions: UnsafeMutablePointer<SIMD2<Double>>
  let curve: _PositionCurve
  let capacity: Int
  var count = 1

  @inline(__always) mutating func boundary(at clock: Double, mirrored: Bool, previousMirrored: Bool) -> Bool {
    guard count + 2 <= capacity else { return false }
    times[count] = clock
    positions[count] = curve.value(previousMirrored ? 0 : 1)
    times[count + 1] = clock
    positions[count + 1] = curve.value(mirrored ? 1 : 0)
    count += 2
    return true
  }

  @inline(__always) mutating func key(_ j: Int, keyTime: Double, at clock: Double) -> Bool {
    guard count < capacity else { return false }
    times[count] = clock
    positions[count] = curve.key(j)
    count += 1
    return true
  }
}
