/// A damped spring from one value to another (CASpringAnimation): the closed form of
/// `m x'' + c x' + k x = 0` with x(0) = 1 (the whole distance still to go) and
/// x'(0) = -initialVelocity (in distances per second, positive toward the target). The value at
/// `s` seconds into the iteration is `from + (to - from) * (1 - x(s))`. The spring runs on its
/// own clock: the timing function does not pace it. O(1) per evaluation.
public final class SpringAnimation: BasicAnimation {
  public var mass = 1.0
  public var stiffness = 100.0
  public var damping = 10.0
  public var initialVelocity = 0.0

  /// The remaining displacement x(s), in units of the distance (1 at rest at the start, 0 at
  /// the target). A non-positive mass or stiffness answers 0: the spring is at the target.
  public func displacement(at s: Double) -> Double {
    guard mass > 0, stiffness > 0, damping >= 0 else { return 0 }
    let w0 = (stiffness / mass).squareRoot()
    let zeta = damping / (2 * (stiffness * mass).squareRoot())
    let v = initialVelocity
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let b = (zeta * w0 - v) / wd
      return _exp(-zeta * w0 * s) * (_cos(wd * s) + b * _sin(wd * s))
    }
    if zeta == 1 {
      return (1 + (w0 - v) * s) * _exp(-w0 * s)
    }
    let root = (zeta * zeta - 1).squareRoot()
    let r1 = -w0 * (zeta - root)
    let r2 = -w0 * (zeta + root)
    let a = (-v - r2) / (r1 - r2)
    return a * _exp(r1 * s) + (1 - a) * _exp(r2 * s)
  }

  /// The time after which |x| stays below 0.001: from the decay envelope
  /// (`|x(s)| <= envelope(s)`, which decreases), solved by stepping 1 ms at a time.
  public var settlingDuration: Double {
    guard mass > 0, stiffness > 0, damping > 0 else { return damping == 0 ? .infinity : 0 }
    let w0 = (stiffness / mass).squareRoot()
    let zeta = damping / (2 * (stiffness * mass).squareRoot())
    let v = initialVelocity
    let epsilon = 0.001
    let envelope: (Double) -> Double
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let b = (zeta * w0 - v) / wd
      let amplitude = (1 + b * b).squareRoot()
      envelope = { amplitude * _exp(-zeta * w0 * $0) }
    } else if zeta == 1 {
      envelope = { (1 + abs(w0 - v) * $0) * _exp(-w0 * $0) }
    } else {
      let root = (zeta * zeta - 1).squareRoot()
      let r1 = -w0 * (zeta - root)
      let r2 = -w0 * (zeta + root)
      let a = (-v - r2) / (r1 - r2)
      envelope = { abs(a) * _exp(r1 * $0) + abs(1 - a) * _exp(r2 * $0) }
    }
    var s = 0.0
    while envelope(s) >= epsilon && s < 3600 { s += 0.001 }
    return s
  }

  override var _usesTimingFunction: Bool { false }

  override func _value(at f: Double, seconds: Double, underlying: AnimatableValue) -> AnimatableValue? {
    guard let (a, b) = endpoints(underlying: underlying) else { return nil }
    return a.interpolated(to: b, 1 - displacement(at: seconds))
  }

  override func _cycleEnds(underlying: AnimatableValue) -> (AnimatableValue, AnimatableValue)? {
    endpoints(underlying: underlying)
  }

  public override func copy() -> Animation {
    let a = SpringAnimation(keyPath: keyPath, from: fromValue, to: toValue, by: byValue)
    _copyProperty(into: a)
    a.mass = mass
    a.stiffness = stiffness
    a.damping = damping
    a.initialVelocity = initialVelocity
    return a
  }
}
