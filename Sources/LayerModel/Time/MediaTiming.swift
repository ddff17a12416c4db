/// What happens to an animation outside its active period (CAMediaTimingFillMode).
public enum FillMode: String, Sendable, CaseIterable {
  case removed, forwards, backwards, both

  var fillsBackwards: Bool { self == .backwards || self == .both }
  var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Where an object is within its active period: the iteration's progress in [0, 1] (already
/// mirrored on the reversed half of an autoreversing cycle), the cycle index (for cumulative
/// animations) and the same progress in seconds (for springs and groups).
public struct ActiveTime: Hashable, Sendable {
  public var progress: Double
  public var cycle: Int
  public var seconds: Double
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
    self.beginTime = beginTime
    self.timeOffset = timeOffset
    self.speed = speed
    self.duration = duration
    self.repeatCount = repeatCount
    self.repeatDuration = repeatDuration
    self.autoreverses = autoreverses
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
  func _iterationDuration(isAnimation: Bool) -> Double {
    isAnimation && duration == 0 ? Self.defaultAnimationDuration : duration
  }

  /// The active duration: `repeatDuration` when positive, else `max(repeatCount, 1)` cycles.
  public func activeDuration(isAnimation: Bool = true) -> Double {
    let d = _iterationDuration(isAnimation: isAnimation)
    let cycle = autoreverses ? 2 * d : d
    return repeatDuration > 0 ? repeatDuration : Swift.max(repeatCount, 1) * cycle
  }

  /// Where an animation is at parent time `parent`, or nil when it is not applied then
  /// (before its start without a backwards fill; at or after its end unless it fills forwards
  /// and is not removed on completion). See docs/timing.md for each edge.
  public func activeTime(atParentTime parent: Double, removedOnCompletion: Bool) -> ActiveTime? {
    let t = localTime(fromParent: parent)
    guard !t.isNaN else { return nil }
    let d = _iterationDuration(isAnimation: true)
    let total = activeDuration()
    if t < 0 {
      guard fillMode.fillsBackwards else { return nil }
      return ActiveTime(progress: 0, cycle: 0, seconds: 0)
    }
    if t >= total {
      guard fillMode.fillsForwards && !removedOnCompletion, total.isFinite else { return nil }
      return _endOfIteration(at: total, duration: d)
    }
    return _position(at: t, duration: d)
  }

  /// A layer's local time for its sublayers and animations: the linear map, then the iteration
  /// mapping when the layer has a finite duration (layers are never removed or filled).
  public func layerLocalTime(fromParent parent: Double) -> Double {
    let t = localTime(fromParent: parent)
    guard duration.isFinite, duration > 0, t.isFinite else { return t }
    let total = activeDuration(isAnimation: false)
    if t < 0 { return 0 }
    if t >= total { return _endOfIteration(at: total, duration: duration).seconds }
    return _position(at: t, duration: duration).seconds
  }

  /// Inside the active period: iteration k = floor(t / d), progress mirrored on odd iterations.
  func _position(at t: Double, duration d: Double) -> ActiveTime {
    guard d.isFinite, d > 0 else { return ActiveTime(progress: 0, cycle: 0, seconds: t) }
    let k = (t / d).rounded(.down)
    var f = (t - k * d) / d
    let ki = k < 9e15 ? Int(k) : Int(9e15)
    if autoreverses && ki & 1 == 1 { f = 1 - f }
    f = Swift.min(Swift.max(f, 0), 1)
    return ActiveTime(progress: f, cycle: autoreverses ? ki >> 1 : ki, seconds: f * d)
  }

  /// The held state at the end of the active period: an exact iteration boundary belongs to
  /// the iteration that ends there (progress 1, or 0 after a reversed half).
  func _endOfIteration(at total: Double, duration d: Double) -> ActiveTime {
    guard d.isFinite, d > 0 else { return ActiveTime(progress: 1, cycle: 0, seconds: total) }
    let k = Swift.max((total / d).rounded(.up) - 1, 0)
    var f = Swift.min((total - k * d) / d, 1)
    let ki = k < 9e15 ? Int(k) : Int(9e15)
    if autoreverses && ki & 1 == 1 { f = 1 - f }
    return ActiveTime(progress: f, cycle: autoreverses ? ki >> 1 : ki, seconds: f * d)
  }
}
