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
    let tau0 = Swift.min(a, b) + t.timeOffset
    let tau1 = Swift.max(a, b) + t.timeOffset
    let kt = times[range: r.keyRange]
    var acc = _Breakpoints(
      out: out, progress: progress, capacity: capacity, tau0: tau0, tau1: tau1, begin: t.beginTime,
      offset: t.timeOffset, speed: t.speed)
    let first = (tau0 / d).rounded(.down)
    let last = (tau1 / d).rounded(.down)
    // Iteration counts Double still counts one by one, and few enough of them.
    guard first.magnitude < 0x1p40, last.magnitude < 0x1p40, last - first < Double(capacity) else { return nil }
    var i = first
    while i <= last {
      let start = i * d
      // Every iteration after the first the ends reach begins inside the window, by the
      // evaluation's own rounding (`MediaTiming._position`).
      guard i == first || acc.addBoundary(start) else { return nil }
      if r.kind == .keyframe && kt.count > 2 {
        let mirrored = t.autoreverses && i.truncatingRemainder(dividingBy: 2) != 0
        for j in 1..<(kt.count - 1) {
          guard acc.add(start + (mirrored ? 1 - kt[j] : kt[j]) * d, kt[j]) else { return nil }
        }
      }
      i += 1
    }
    return acc.count
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
