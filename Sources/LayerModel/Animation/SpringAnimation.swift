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
    coefficients.displacement(at: s)
  }

  /// The closed form's constants for these parameters (what a compiled record keeps).
  package var coefficients: SpringCoefficients {
    SpringCoefficients(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
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

/// The constants of a spring's closed form, computed once from mass, stiffness, damping and
/// initial velocity; `displacement(at:)` is then one exp (and a sine and cosine when
/// underdamped), `displacement(over:)` two exps (and an interval cosine). The class and the
/// compiled records share it, so both give identical bits.
package struct SpringCoefficients: Sendable {
  /// 0 at rest (invalid parameters), 1 underdamped, 2 critically damped, 3 overdamped.
  var regime: UInt8
  var c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0
  /// Underdamped: cos(c1 s) + c2 sin(c1 s) as one cosine, `amplitude` cos(c1 s - `phase`).
  var amplitude = 0.0, phase = 0.0
  /// `displacement(at: 0)`, the same bits (1, but for rounding in the overdamped form and 0 at
  /// rest): what a spring held at its start by a backwards fill is displaced by.
  var atStart = 0.0

  package init(mass: Double, stiffness: Double, damping: Double, initialVelocity v: Double) {
    guard mass > 0, stiffness > 0, damping >= 0 else {
      regime = 0
      return
    }
    let w0 = (stiffness / mass).squareRoot()
    let zeta = damping / (2 * (stiffness * mass).squareRoot())
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      regime = 1
      c0 = -zeta * w0
      c1 = wd
      c2 = (zeta * w0 - v) / wd
      amplitude = (1 + c2 * c2).squareRoot()
      phase = _atan2(c2, 1)
    } else if zeta == 1 {
      regime = 2
      c0 = w0 - v
      c1 = -w0
    } else {
      let root = (zeta * zeta - 1).squareRoot()
      let r1 = -w0 * (zeta - root)
      let r2 = -w0 * (zeta + root)
      regime = 3
      c0 = (-v - r2) / (r1 - r2)
      c1 = r1
      c2 = 1 - c0
      c3 = r2
    }
    atStart = displacement(at: 0)
  }

  @inlinable package func displacement(at s: Double) -> Double {
    switch regime {
    case 1: return _exp(c0 * s) * (_cos(c1 * s) + c2 * _sin(c1 * s))
    case 2: return (1 + c0 * s) * _exp(c1 * s)
    case 3: return c0 * _exp(c1 * s) + c2 * _exp(c3 * s)
    default: return 0
    }
  }

  /// Every displacement over the seconds `s`, by interval arithmetic on the closed form. The
  /// underdamped oscillation is one cosine of a shifted angle: a cosine and a sine bounded
  /// apart cost twice the calls and add up to more than their sum can reach.
  package func displacement(over s: Interval) -> Interval {
    // At its start (a spring held there by a backwards fill, before it begins): the one value,
    // without the envelope's calls.
    if s.lo == 0 && s.hi == 0 { return Interval(atStart) }
    func exp(_ x: Interval) -> Interval { x.lo == x.hi ? Interval(_exp(x.lo)) : Interval(_exp(x.lo), _exp(x.hi)) }
    switch regime {
    case 1:
      // Padded for the two forms' rounding: `displacement(at:)`'s cos + c2 sin and this cosine
      // are a few ulps of the angle apart, times the amplitude.
      let angle = s * Interval(c1) - Interval(phase)
      let o = angle.cosine * Interval(amplitude)
      let pad = amplitude * (Swift.max(Swift.abs(angle.lo), Swift.abs(angle.hi)) + 4) * 0x1p-48
      return exp(s * Interval(c0)) * Interval(o.lo - pad, o.hi + pad)
    case 2: return (Interval(1) + s * Interval(c0)) * exp(s * Interval(c1))
    case 3: return Interval(c0) * exp(s * Interval(c1)) + Interval(c2) * exp(s * Interval(c3))
    default: return Interval(0)
    }
  }
}
