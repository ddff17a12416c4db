/// A from/to/by animation (CABasicAnimation). Any two of the three fix both ends; one alone
/// interpolates from or to the underlying value: from+to, from+by (to = from + by),
/// by+to (from = to - by), from only (to the underlying value), to only (from the underlying
/// value), by only (underlying to underlying + by). None: no effect.
public class BasicAnimation: PropertyAnimation {
  public var fromValue: AnimatableValue?
  public var toValue: AnimatableValue?
  public var byValue: AnimatableValue?

  public init(
    keyPath: AnimatableKeyPath, from: AnimatableValue? = nil, to: AnimatableValue? = nil,
    by: AnimatableValue? = nil
  ) {
    self.fromValue = from
    self.toValue = to
    self.byValue = by
    super.init(keyPath: keyPath)
  }

  /// The two ends of the interpolation for this underlying value.
  public func endpoints(underlying u: AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue)? {
    switch (fromValue, toValue, byValue) {
    case (let f?, let t?, _): (f, t)
    case (let f?, nil, let b?): (f, f.adding(b))
    case (nil, let t?, let b?): (t.subtracting(b), t)
    case (let f?, nil, nil): (f, u)
    case (nil, let t?, nil): (u, t)
    case (nil, nil, let b?): (u, u.adding(b))
    case (nil, nil, nil): nil
    }
  }

  override func _value(at f: Double, seconds: Double, underlying: AnimatableValue) -> AnimatableValue? {
    guard let (a, b) = endpoints(underlying: underlying) else { return nil }
    return a.interpolated(to: b, f)
  }

  public override func copy() -> Animation {
    let a = BasicAnimation(keyPath: keyPath, from: fromValue, to: toValue, by: byValue)
    _copyProperty(into: a)
    return a
  }
}
