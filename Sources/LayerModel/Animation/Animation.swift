/// An animation (CAAnimation): timing, a pacing curve and what happens on completion.
/// A class, as in Core Animation; `Layer.add(_:forKey:)` stores a copy. Subclasses say what
/// the animation does to a layer's state at a time; evaluating one is O(1) (keyframes:
/// O(log keyframes)) and allocates nothing.
public class Animation: MediaTimed {
  /// beginTime, duration, speed, repeats, autoreverses and fill (duration 0 means 0.25 s).
  public var timing = MediaTiming()
  /// When true (the default) the animation stops applying once its active period ends,
  /// whatever its fill mode.
  public var isRemovedOnCompletion = true
  /// The pacing of each iteration; nil is linear, as for an explicit animation in CA.
  public var timingFunction: TimingFunction?

  public init() {}

  /// Where the animation is at `parentTime` (its layer's local time), or nil when not applied.
  public func activeTime(atParentTime parentTime: Double) -> ActiveTime? {
    timing.activeTime(atParentTime: parentTime, removedOnCompletion: isRemovedOnCompletion)
  }

  /// Applies the animation to `state` at `parentTime`, the layer's local time.
  public func apply(to state: inout LayerState, atParentTime parentTime: Double) {}

  /// Computes whatever the animation derives from its fields on first evaluation, so that
  /// evaluating it later allocates nothing (the frame builder calls this when it compiles).
  package func _prepareForEvaluation() {}

  /// A deep copy (subclasses copy their own fields).
  public func copy() -> Animation {
    let a = Animation()
    _copyBase(into: a)
    return a
  }

  func _copyBase(into a: Animation) {
    a.timing = timing
    a.isRemovedOnCompletion = isRemovedOnCompletion
    a.timingFunction = timingFunction
  }
}

/// An animation of one key path (CAPropertyAnimation), optionally additive (on top of the
/// underlying value) and cumulative (each cycle starts where the last one ended).
public class PropertyAnimation: Animation {
  public var keyPath: AnimatableKeyPath
  public var isAdditive = false
  public var isCumulative = false

  public init(keyPath: AnimatableKeyPath) {
    self.keyPath = keyPath
  }

  /// The animation's own value at progress `f` (after pacing), `seconds` into the iteration,
  /// given the underlying value; nil when it has nothing to say. Subclasses override.
  func _value(at f: Double, seconds: Double, underlying: AnimatableValue) -> AnimatableValue? { nil }

  /// The value at the start and end of one cycle, for cumulative animations.
  func _cycleEnds(underlying: AnimatableValue) -> (AnimatableValue, AnimatableValue)? {
    guard let a = _value(at: 0, seconds: 0, underlying: underlying),
      let b = _value(at: 1, seconds: timing._iterationDuration(isAnimation: true), underlying: underlying)
    else { return nil }
    return (a, b)
  }

  /// Whether the timing function paces this animation (springs run on their own clock).
  var _usesTimingFunction: Bool { true }

  public override func apply(to state: inout LayerState, atParentTime parentTime: Double) {
    guard let at = activeTime(atParentTime: parentTime) else { return }
    let f = _usesTimingFunction ? (timingFunction?(at.progress) ?? at.progress) : at.progress
    let underlying = keyPath.read(state)
    guard var v = _value(at: f, seconds: at.seconds, underlying: underlying) else { return }
    if isCumulative, at.cycle > 0, let (a, b) = _cycleEnds(underlying: underlying) {
      v = b.subtracting(a)._accumulated(at.cycle, onto: v)
    }
    if isAdditive { v = underlying.adding(v) }
    keyPath.write(v, into: &state)
  }

  func _copyProperty(into a: PropertyAnimation) {
    _copyBase(into: a)
    a.isAdditive = isAdditive
    a.isCumulative = isCumulative
  }
}
