/// What happens to an animation outside its active period (CAMediaTimingFillMode).
public enum FillMode: String, Sendable, CaseIterable {
  case removed, forwards, backwards, both

  @inline(__always) var fillsBackwards: Bool { self == .backwards || self == .both }
  @inline(__always) var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Where an object is within its active period: the iteration's progress in [0, 1] (already
/// mirrored on the reversed half of an autoreversing cycle), the cycle index (for cumulative
/// animations) and the same progress in seconds (for springs and groups).
public struct ActiveTime: Hashable, Sendable {
  public var progress: Double
  public var cycle: Int
  public var seconds: Double

  @inlinable public init(progress: Double, cycle: Int, seconds: Double) {
    (self.progress, self.cycle, self.seconds) = (progress, cycle, seconds)
  }
}

/// CAMediaTiming as a value: beginTime, timeOffset, speed, duration, repeatCount,
/// repeatDuration, autoreverses and fillMode. Every query is O(1). See docs/timing.md.
public struct MediaTiming: Hashable, Sendable {
  /// In the parent's time: when local time 0 happens.
  public var beginTime: Double = 0
  /// Added to local time after the speed: scrubs without moving the start.
  public var timeOffset: Double = 0
  /// Local seconds per parent second; 0 pauses at `timeOffset`.
  public var speed: Double = 1
  /// One iteration, in local seconds. 0 on an animation means Core Animation's default 0.25 s.
  public var duration: Double = 0
  /// Cycles to play (fractional allowed, `.infinity` forever); 0 plays one cycle.
  public var repeatCount: Double = 0
  /// When positive, the active duration, overriding `repeatCount`.
  public var repeatDuration: Double = 0
  /// Play each iteration forwards then backwards; one cycle then lasts twice `duration`.
  public var autoreverses: Bool = false
  public var fillMode: FillMode = .removed

  public init(
    beginTime: Double = 0, timeOffset: Double = 0, speed: Double = 1, duration: Double = 0,
    repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
    fillMode: FillMode = .removed
  ) {
    (self.beginTime, self.timeOffset, self.speed, self.duration) = (beginTime, timeOffset, speed, duration)
    (self.repeatCount, self.repeatDuration, self.autoreverses) = (repeatCount, repeatDuration, autoreverses)
    self.fillMode = fillMode
  }

  /// Core Animation's duration for an explicit animation whose duration is 0.
  public static let defaultAnimationDuration = 0.25

  /// `local = (parent - beginTime) * speed + timeOffset`.
  @inlinable public func localTime(fromParent parent: Double) -> Double {
    (parent - beginTime) * speed + timeOffset
  }

  /// The inverse of `localTime(fromParent:)`; with speed 0 every parent time maps to one local
  /// time, and this answers `beginTime`.
  @inlinable public func parentTime(fromLocal local: Double) -> Double {
    speed == 0 ? beginTime : (local - timeOffset) / speed + beginTime
  }

  /// One iteration's length, with the animation default applied when `isAnimation`.
  package func _iterationDuration(isAnimation: Bool) -> Double {
    isAnimation && duration == 0 ? Self.defaultAnimationDuration : duration
  }

  /// The active duration D: `repeatDuration` when positive, else `repeatCount` cycles when
  /// positive (a fraction below 1 plays that part of one cycle), else one cycle.
  public func activeDuration(isAnimation: Bool = true) -> Double {
    let d = _iterationDuration(isAnimation: isAnimation)
    let cycle = autoreverses ? 2 * d : d
    if repeatDuration > 0 { return repeatDuration }
    return (repeatCount > 0 ? repeatCount : 1) * cycle
  }

  /// Where the active period places parent time `parent`, before the iteration rule: the
  /// active time `ta = (parent - beginTime) * speed` decides (before the offset is added)
  /// whether the object is before its start, inside, or after its end; the answer is then the
  /// time the iteration rule maps (`timeOffset` before the start, `ta + timeOffset` inside,
  /// `timeOffset + D` after the end). See docs/timing.md.
  @usableFromInline enum _Phase {
    case before(Double)
    case active(Double)
    case after(Double)
    case undefined
  }

  @inlinable func _phase(atParentTime parent: Double, activeDuration total: Double) -> _Phase {
    let ta = (parent - beginTime) * speed
    if ta.isNaN { return .undefined }
    if ta < 0 { return .before(timeOffset) }
    if ta >= total { return .after(timeOffset + total) }
    return .active(ta + timeOffset)
  }

  /// Where an animation is at parent time `parent`, or nil when it is not applied then
  /// (before its start without a backwards fill; at or after its end unless it fills forwards
  /// and is not removed on completion). An offset shifts the time inside the active period and
  /// wraps around at the end of each iteration; it does not move the period. See
  /// docs/timing.md for each edge.
  public func activeTime(atParentTime parent: Double, removedOnCompletion: Bool) -> ActiveTime? {
    activeTime(
      atParentTime: parent, removedOnCompletion: removedOnCompletion,
      iterationDuration: _iterationDuration(isAnimation: true),
      activeDuration: activeDuration())
  }

  /// The same, with the iteration and active durations already computed (compiled records keep
  /// them).
  @inline(__always)
  package func activeTime(
    atParentTime parent: Double, removedOnCompletion: Bool, iterationDuration d: Double, activeDuration total: Double
  ) -> ActiveTime? {
    Self._activeTime(
      atParentTime: parent, beginTime: beginTime, speed: speed, timeOffset: timeOffset, iterationDuration: d,
      activeDuration: total, autoreverses: autoreverses, fillsBackwards: fillMode.fillsBackwards,
      holdsEnd: fillMode.fillsForwards && !removedOnCompletion)
  }

  /// The active-time rule on plain numbers: what `activeTime` and the compiled tracks
  /// (`LeanTrack`) both run. `holdsEnd`: fills forwards and is not removed on completion.
  @inline(__always)
  package static func _activeTime(
    atParentTime parent: Double, beginTime: Double, speed: Double, timeOffset: Double, iterationDuration d: Double,
    activeDuration total: Double, autoreverses: Bool, fillsBackwards: Bool, holdsEnd: Bool
  ) -> ActiveTime? {
    let ta = (parent - beginTime) * speed
    if ta.isNaN { return nil }
    if ta < 0 {
      guard fillsBackwards else { return nil }
      return _position(at: timeOffset, duration: d, autoreverses: autoreverses)
    }
    if ta >= total {
      guard holdsEnd, total.isFinite else { return nil }
      return _endOfIteration(at: timeOffset + total, duration: d, autoreverses: autoreverses)
    }
    return _position(at: ta + timeOffset, duration: d, autoreverses: autoreverses)
  }

  /// A layer's local time for its sublayers and animations: the linear map when the layer's
  /// duration is infinite (the default); with a finite duration, the active period and
  /// iteration rule of an animation, in seconds, holding both ends (layers are never removed).
  public func layerLocalTime(fromParent parent: Double) -> Double {
    guard duration.isFinite, duration > 0 else { return localTime(fromParent: parent) }
    let total = activeDuration(isAnimation: false)
    switch _phase(atParentTime: parent, activeDuration: total) {
    case .undefined: return .nan
    case .before(let t), .active(let t):
      return Self._position(at: t, duration: duration, autoreverses: autoreverses).seconds
    case .after(let t):
      guard total.isFinite else { return localTime(fromParent: parent) }
      return Self._endOfIteration(at: t, duration: duration, autoreverses: autoreverses).seconds
    }
  }

  /// The iteration rule at time t (offset included): iteration k = floor(t / d), progress
  /// mirrored on odd iterations when autoreversing. An exact boundary starts the next iteration.
  @inline(__always)
  package static func _position(at t: Double, duration d: Double, autoreverses: Bool) -> ActiveTime {
    guard d.isFinite, d > 0, t.isFinite else { return ActiveTime(progress: 0, cycle: 0, seconds: t.isFinite ? t : 0) }
    let k = (t / d).rounded(.down)
    var f = (t - k * d) / d
    let ki = Self._iterationIndex(k)
    if autoreverses && ki & 1 == 1 { f = 1 - f }
    f = Swift.min(Swift.max(f, 0), 1)
    return ActiveTime(progress: f, cycle: autoreverses ? ki >> 1 : ki, seconds: f * d)
  }

  /// The held state at time t = timeOffset + D (after the active period): an exact iteration
  /// boundary belongs to the iteration that ends there (progress 1, or 0 after a reversed half).
  @inline(__always)
  package static func _endOfIteration(at t: Double, duration d: Double, autoreverses: Bool) -> ActiveTime {
    guard d.isFinite, d > 0, t.isFinite else { return ActiveTime(progress: 1, cycle: 0, seconds: d.isFinite ? d : 0) }
    let k = (t / d).rounded(.up) - 1
    var f = Swift.min(Swift.max((t - k * d) / d, 0), 1)
    let ki = Self._iterationIndex(k)
    if autoreverses && ki & 1 == 1 { f = 1 - f }
    return ActiveTime(progress: f, cycle: autoreverses ? ki >> 1 : ki, seconds: f * d)
  }

  /// An iteration count as an Int, clamped to ±2^53 (beyond that the parity no longer matters:
  /// a Double that large cannot hold a fraction of an iteration).
  @inline(__always) static func _iterationIndex(_ k: Double) -> Int {
    let limit = 9_007_199_254_740_992.0
    return k >= limit ? Int(limit) : (k <= -limit ? -Int(limit) : Int(k))
  }
}
