/// A compiled program frozen into manually allocated buffers: what evaluations read. No
/// reference counting or bounds checks in the inner loops; `cursors` are the only state an
/// evaluation writes (each record's own, so threads evaluating different layers never share
/// one). Freed with its owner.
package final class FrozenAnimationProgram: @unchecked Sendable {
  package let records: UnsafeMutableBufferPointer<AnimationRecord>
  let times: UnsafeMutableBufferPointer<Double>
  let numbers: UnsafeMutableBufferPointer<Double>
  let values: UnsafeMutableBufferPointer<AnimatableValue>
  let segments: UnsafeMutableBufferPointer<PathSegment>
  let curves: UnsafeMutableBufferPointer<TimingFunction>
  let springs: UnsafeMutableBufferPointer<SpringCoefficients>
  let cursors: UnsafeMutableBufferPointer<Int32>
  /// Per record: the iteration and active durations (for the timing rule).
  let durations: UnsafeMutableBufferPointer<SIMD2<Double>>
  /// Per record: the progress a backwards fill holds before the start (x) and a held end after
  /// it (y), as the timing rule evaluates them; NaN where the record has no such fill. What the
  /// motion bounds read for a window outside the active period (`_progress`).
  let heldProgress: UnsafeMutableBufferPointer<SIMD2<Double>>

  package init(_ p: AnimationProgram) {
    assert(_isPOD(AnimationRecord.self) && _isPOD(AnimatableValue.self), "deinit only deallocates")
    func copy<T>(_ a: [T]) -> UnsafeMutableBufferPointer<T> {
      let b = UnsafeMutableBufferPointer<T>.allocate(capacity: Swift.max(a.count, 1))
      _ = b.initialize(from: a)
      return UnsafeMutableBufferPointer(rebasing: b[0..<a.count])
    }
    records = copy(p.records)
    times = copy(p.times)
    numbers = copy(p.numbers)
    values = copy(p.values)
    segments = copy(p.segments)
    curves = copy(p.curves)
    springs = copy(p.springs)
    cursors = copy(p.cursors)
    durations = copy(
      p.records.map { SIMD2($0.timing._iterationDuration(isAnimation: true), $0.timing.activeDuration()) })
    heldProgress = copy(
      zip(p.records, durations).map { r, lengths in
        let t = r.timing
        let (d, total) = (lengths.x, lengths.y)
        let start =
          t.fillMode.fillsBackwards
          ? MediaTiming._position(at: t.timeOffset, duration: d, autoreverses: t.autoreverses).progress : .nan
        let end =
          t.fillMode.fillsForwards && !r.removedOnCompletion && total.isFinite
          ? MediaTiming._endOfIteration(at: t.timeOffset + total, duration: d, autoreverses: t.autoreverses).progress
          : .nan
        return SIMD2(start, end)
      })
  }

  /// The program these buffers were frozen from, as arrays again (to append to it and freeze
  /// anew: the compiled scene keeps only the frozen form between edits). O(program).
  package var thawed: AnimationProgram {
    var p = AnimationProgram()
    p.records = Array(records)
    p.times = Array(times)
    p.numbers = Array(numbers)
    p.values = Array(values)
    p.segments = Array(segments)
    p.curves = Array(curves)
    p.springs = Array(springs)
    p.cursors = Array(cursors)
    return p
  }

  deinit {
    // Every element type here is trivial: deallocating is enough.
    records.baseAddress?.deallocate()
    times.baseAddress?.deallocate()
    numbers.baseAddress?.deallocate()
    values.baseAddress?.deallocate()
    segments.baseAddress?.deallocate()
    curves.baseAddress?.deallocate()
    springs.baseAddress?.deallocate()
    cursors.baseAddress?.deallocate()
    durations.baseAddress?.deallocate()
    heldProgress.baseAddress?.deallocate()
  }

  @inline(__always) func _active(_ k: Int, _ t: Double) -> ActiveTime? {
    let d = durations[k]
    let r = UnsafePointer(records.baseAddress! + k)
    return r.pointee.timing.activeTime(
      atParentTime: t, removedOnCompletion: r.pointee.removedOnCompletion, iterationDuration: d.x, activeDuration: d.y)
  }

  @inline(__always) func _paced(_ r: AnimationRecord, _ progress: Double) -> Double {
    r.timingFunction >= 0 ? curves[Int(r.timingFunction)](progress) : progress
  }

  // MARK: The lean lane

  /// Applies records `range` (all lean) at parent time `t` to `s`.
  package func applyLean(_ range: Range<Int32>, to s: inout LeanValues, atParentTime t: Double) {
    var k = Int(range.lowerBound)
    let end = Int(range.upperBound)
    let base = records.baseAddress!
    while k < end {
      let r = UnsafePointer(base + k)
      if r.pointee.kind == .group {
        if let at = _active(k, t) {
          let tf = r.pointee.timingFunction
          let local = tf >= 0 ? curves[Int(tf)](at.progress) * durations[k].x : at.seconds
          applyLean(Int32(k + 1)..<r.pointee.end, to: &s, atParentTime: local)
        }
        k = Int(r.pointee.end)
        continue
      }
      _applyLeanProperty(k, r, &s, t)
      k += 1
    }
  }

  /// One lean property animation: the steps of `PropertyAnimation.apply` on its 1, 2 or 4
  /// numbers of `s`.
  @inline(__always)
  func _applyLeanProperty(_ k: Int, _ r: UnsafePointer<AnimationRecord>, _ s: inout LeanValues, _ t: Double) {
    guard r.pointee.kind != .none, let at = _active(k, t) else { return }
    let p = r.pointee.leanProperty
    let o = Int(p.offset)
    let w = Int(p.width)
    if let v = _leanValue(k, p, at, under: s.load(o, w)) { s.store(v, o, w) }
  }

  /// A lean property animation's value at `at` over the underlying numbers `under` (nil: it
  /// has no value and leaves them): the keyframe fast path for position tracks, endpoints for
  /// basic and spring animations, then the cumulative and additive steps, lane by lane (the
  /// same IEEE operations as the class's scalar arithmetic). Shared by records and tracks.
  @inline(__always)
  func _leanValue(_ k: Int, _ p: LeanProperty, _ at: ActiveTime, under: SIMD4<Double>) -> SIMD4<Double>? {
    let w = Int(p.width)
    var v: SIMD4<Double>
    switch p.kind {
    case .keyframe:
      v = _leanKeyframeValue(k, p.keys, _paced(p.timingFunction, at.progress))
    case .basic, .spring:
      let f =
        p.kind == .spring
        ? 1 - springs[Int(p.spring)].displacement(at: at.seconds) : _paced(p.timingFunction, at.progress)
      guard let (a, b) = _leanEndpoints(p, under, w) else { return nil }
      v = a * SIMD4(repeating: 1 - f) + b * SIMD4(repeating: f)
    default: return nil
    }
    if p.cumulative && at.cycle > 0 {
      // The cycle's ends: the value at progress 0 and 1 (a spring's: its endpoints).
      var ends: (SIMD4<Double>, SIMD4<Double>)?
      switch p.kind {
      case .keyframe: ends = (_leanKeyframeValue(k, p.keys, 0), _leanKeyframeValue(k, p.keys, 1))
      case .spring: ends = _leanEndpoints(p, under, w)
      default:
        if let (a, b) = _leanEndpoints(p, under, w) {
          ends = (a * SIMD4(repeating: 1 - 0.0) + b * SIMD4(repeating: 0.0), a * SIMD4(repeating: 1 - 1.0) + b)
        }
      }
      if let (e0, e1) = ends {
        let n = SIMD4(repeating: Double(at.cycle))
        v = v * SIMD4(repeating: 1) + (e1 * SIMD4(repeating: 1) + e0 * SIMD4(repeating: -1)) * n
      }
    }
    if p.additive { v = under * SIMD4(repeating: 1) + v * SIMD4(repeating: 1) }
    return v
  }

  @inline(__always) func _paced(_ tf: Int32, _ progress: Double) -> Double {
    tf >= 0 ? curves[Int(tf)](progress) : progress
  }

  /// `w` (1, 2 or 4) numbers as the first lanes of a vector, built whole (see `LeanValues.load`).
  @inline(__always) func _loadNumbers(_ at: Int, _ w: Int) -> SIMD4<Double> {
    Self._lanes(numbers.baseAddress! + at, w)
  }

  /// `w` (1, 2 or 4) numbers from `p` as the first lanes of a vector.
  @inline(__always) static func _lanes(_ p: UnsafePointer<Double>, _ w: Int) -> SIMD4<Double> {
    switch w {
    case 1: return SIMD4(p[0], 0, 0, 0)
    case 2: return SIMD4(p[0], p[1], 0, 0)
    default: return SIMD4(p[0], p[1], p[2], p[3])
    }
  }

  /// The basic or spring endpoints for the underlying value (the `endpoints` rules), or nil
  /// when the animation has none.
  @inline(__always)
  func _leanEndpoints(_ p: LeanProperty, _ under: SIMD4<Double>, _ w: Int) -> (SIMD4<Double>, SIMD4<Double>)? {
    let m = p.endpointMask
    let base = Int(p.keys.valueRange.start)
    let hasFrom = m & 1 != 0
    let hasTo = m & 2 != 0
    let from = hasFrom ? _loadNumbers(base, w) : SIMD4()
    let to = hasTo ? _loadNumbers(base + (hasFrom ? w : 0), w) : SIMD4()
    let by = m & 4 != 0 ? _loadNumbers(base + (hasFrom ? w : 0) + (hasTo ? w : 0), w) : SIMD4()
    let one = SIMD4<Double>(repeating: 1)
    switch m {
    case 3, 7: return (from, to)
    case 5: return (from, from * one + by * one)
    case 6: return (to * one + by * SIMD4(repeating: -1), to)
    case 1: return (from, under)
    case 2: return (under, to)
    case 4: return (under, under * one + by * one)
    default: return nil
    }
  }

  /// A lean keyframe's value at paced progress f (the class's `_evaluate`, or its position fast
  /// path, on plain numbers). `k` is the record (its cursor).
  @inline(__always)
  func _leanKeyframeValue(_ k: Int, _ keys: LeanKeys, _ f: Double) -> SIMD4<Double> {
    let w = Int(keys.width)
    let n = Int(keys.valueRange.count)
    let kt = times[range: keys.keyRange]
    let vals = Int(keys.valueRange.start)
    if keys.isDiscrete {
      var i = 0
      while i + 1 < kt.count && kt[i + 1] <= f { i += 1 }
      return _loadNumbers(vals + Swift.min(i, n - 1) * w, w)
    }
    var (lo, u) = _segment(k, kt, f)
    if keys.isLinear && keys.curveRange.isPresent && lo < Int(keys.curveRange.count) {
      u = curves[Int(keys.curveRange.start) + lo](u)
    }
    let a = _loadNumbers(vals + lo * w, w)
    let b = _loadNumbers(vals + (lo + 1) * w, w)
    let uu = SIMD4<Double>(repeating: u)
    if keys.positionTrack { return a + (b - a) * uu }
    return a * SIMD4(repeating: 1 - u) + b * uu
  }

  /// `KeyframeAnimation._segment` (the last key time <= f, and the progress within it), starting
  /// from the record's cursor: forward playback finds its segment in one or two compares; any
  /// other answer falls back to the binary search. The same segment and progress either way.
  @inline(__always) func _segment(_ k: Int, _ kt: UnsafeBufferPointer<Double>, _ f: Double) -> (Int, Double) {
    let last = kt.count - 2
    var lo = Int(cursors[k])
    @inline(__always) func fits(_ i: Int) -> Bool {
      i >= 0 && i <= last && kt[i] <= f && (i == last || !(kt[i + 1] <= f))
    }
    if !fits(lo) {
      if fits(lo + 1) {
        lo += 1
      } else if fits(lo - 1) {
        lo -= 1
      } else {
        lo = KeyframeAnimation._segment(kt, f).0
      }
      cursors[k] = Int32(lo)
    }
    let width = kt[lo + 1] - kt[lo]
    return (lo, width > 0 ? (f - kt[lo]) / width : 1)
  }
}

extension FrozenAnimationProgram {
  // MARK: The general lane

  /// Applies records `range` (any lane) at parent time `t` to a whole layer state: the steps of
  /// `Animation.apply` for every kind. Lean records run on the state's lean numbers.
  package func applyGeneral(_ range: Range<Int32>, to s: inout LayerState, atParentTime t: Double) {
    var k = Int(range.lowerBound)
    let end = Int(range.upperBound)
    while k < end {
      let r = records[k]
      if r.kind == .group {
        if let at = _active(k, t) {
          let local = r.timingFunction >= 0 ? curves[Int(r.timingFunction)](at.progress) * durations[k].x : at.seconds
          applyGeneral(Int32(k + 1)..<r.end, to: &s, atParentTime: local)
        }
        k = Int(r.end)
        continue
      }
      if r.lane == .lean {
        var lean = LeanValues(s)
        _applyLeanProperty(k, UnsafePointer(records.baseAddress! + k), &lean, t)
        lean.write(into: &s)
      } else {
        _applyGeneralProperty(k, &s, t)
      }
      k += 1
    }
  }

  func _applyGeneralProperty(_ k: Int, _ s: inout LayerState, _ t: Double) {
    let r = records[k]
    guard r.kind != .none else { return }
    if r.kind == .keyframe && _keyframeFastPathApplies(r) {
      // The class's fast path for number keyframes: the general arithmetic, written directly.
      guard let at = _active(k, t) else { return }
      guard let v = _keyframeValue(k, r, _paced(r, at.progress))?.value else { return }
      r.keyPath.write(v, into: &s)
      return
    }
    guard let at = _active(k, t) else { return }
    let f = r.kind == .spring ? at.progress : _paced(r, at.progress)
    let underlying = r.keyPath.read(s)
    guard var v = _generalValue(k, r, f, at.seconds, underlying) else { return }
    if r.cumulative, at.cycle > 0, let (a, b) = _generalCycleEnds(k, r, underlying) {
      v = b.subtracting(a)._accumulated(at.cycle, onto: v)
    }
    if r.additive { v = underlying.adding(v) }
    r.keyPath.write(v, into: &s)
    if r.kind == .keyframe, r.rotationMode != nil, r.isPath {
      if let angle = _keyframeValue(k, r, _paced(r, at.progress))?.angle {
        s.transform = Transform3D.concat(s.transform, .rotation(angle, 0, 0, 1))
      }
    }
  }

  /// Whether `KeyframeAnimation._applyFast` handles this record in the class: number values in
  /// a simple mode, neither additive nor cumulative, no path.
  func _keyframeFastPathApplies(_ r: AnimationRecord) -> Bool {
    guard !r.additive, !r.cumulative, !r.isPath, r.valueRange.count >= 2,
      r.mode == .linear || r.mode == .paced || r.mode == .discrete, r.keyPath.valueKind == "number"
    else { return false }
    for i in 0..<Int(r.valueRange.count) {
      guard case .scalar = values[Int(r.valueRange.start) + i] else { return false }
    }
    return true
  }

  func _keyframeValue(_ k: Int, _ r: AnimationRecord, _ f: Double) -> (value: AnimatableValue, angle: Double?)? {
    let kt = times[range: r.keyRange]
    let vs = values[range: r.valueRange]
    let segs = segments[range: r.segmentRange]
    let fs: UnsafeBufferPointer<TimingFunction>? =
      r.curveRange.isPresent
      ? curves[range: r.curveRange]
      : nil
    return KeyframeAnimation._evaluate(
      f, mode: r.mode, keyTimes: kt, values: vs, segments: segs, isPath: r.isPath,
      pathStart: r.pathStart.map { .move($0) }, timingFunctions: fs, rotationMode: r.rotationMode)
  }

  /// The basic or spring endpoints, as `BasicAnimation.endpoints`.
  func _generalEndpoints(_ r: AnimationRecord, _ u: AnimatableValue) -> (AnimatableValue, AnimatableValue)? {
    let m = r.endpointMask
    let base = Int(r.valueRange.start)
    let from = m & 1 != 0 ? values[base] : nil
    let to = m & 2 != 0 ? values[base + (m & 1 != 0 ? 1 : 0)] : nil
    let by = m & 4 != 0 ? values[base + (m & 1 != 0 ? 1 : 0) + (m & 2 != 0 ? 1 : 0)] : nil
    switch (from, to, by) {
    case (let f?, let t?, _): return (f, t)
    case (let f?, nil, let b?): return (f, f.adding(b))
    case (nil, let t?, let b?): return (t.subtracting(b), t)
    case (let f?, nil, nil): return (f, u)
    case (nil, let t?, nil): return (u, t)
    case (nil, nil, let b?): return (u, u.adding(b))
    case (nil, nil, nil): return nil
    }
  }

  func _generalValue(_ k: Int, _ r: AnimationRecord, _ f: Double, _ seconds: Double, _ u: AnimatableValue)
    -> AnimatableValue?
  {
    switch r.kind {
    case .keyframe: return _keyframeValue(k, r, f)?.value
    case .basic:
      guard let (a, b) = _generalEndpoints(r, u) else { return nil }
      return a.interpolated(to: b, f)
    case .spring:
      guard let (a, b) = _generalEndpoints(r, u) else { return nil }
      return a.interpolated(to: b, 1 - springs[Int(r.spring)].displacement(at: seconds))
    default: return nil
    }
  }

  func _generalCycleEnds(_ k: Int, _ r: AnimationRecord, _ u: AnimatableValue) -> (AnimatableValue, AnimatableValue)? {
    if r.kind == .spring { return _generalEndpoints(r, u) }
    guard let a = _generalValue(k, r, 0, 0, u), let b = _generalValue(k, r, 1, durations[k].x, u) else { return nil }
    return (a, b)
  }
}
