import LayerModel
import Scenes

/// Random animations of every kind the model has, for checks that must cover all of them
/// (the compiled animations against the classes, the presentation build, the verifier): basic
/// animations of every key path with every combination of from, to and by; keyframes in every
/// calculation mode, with and without keyTimes and per-segment timing functions, of every value
/// kind; keyframe paths of every element kind with and without rotationMode; springs in each
/// damping regime; groups (nested, with their own timing); additive and cumulative variants;
/// timing functions; and media timing (begin, offset, speed, repeats, autoreverses, fills,
/// removal). Deterministic from the generator's state; O(keyframes) per animation.
public struct RandomAnimation {
  /// How deep groups may nest.
  public var maximumGroupDepth = 2
  /// Now and then timing at magnitudes Double can barely resolve (`RandomScene.hostileTiming`)
  /// and huge cumulative steps.
  public var hostile = false

  public init(maximumGroupDepth: Int = 2, hostile: Bool = false) {
    self.maximumGroupDepth = maximumGroupDepth
    self.hostile = hostile
  }

  /// The kinds `make` chooses among (each equally likely unless one is asked for).
  public enum Kind: CaseIterable, Sendable {
    case basic, keyframes, path, spring, group
  }

  /// One animation of the given kind (a random kind when nil).
  public func make(_ kind: Kind? = nil, _ rng: inout SplitMix64, depth: Int = 0) -> Animation {
    let k = kind ?? Kind.allCases[rng.below(depth < maximumGroupDepth ? 5 : 4)]
    let a: Animation
    switch k {
    case .basic: a = _basic(&rng)
    case .keyframes: a = _keyframes(&rng)
    case .path: a = _path(&rng)
    case .spring: a = _spring(&rng)
    case .group:
      let g = AnimationGroup((0..<(1 + rng.below(3))).map { _ in make(nil, &rng, depth: depth + 1) })
      a = g
    }
    _time(a, &rng)
    return a
  }

  // MARK: Values

  /// A value of the kind `keyPath` takes, sometimes far from the usual range.
  func _value(_ keyPath: AnimatableKeyPath, _ rng: inout SplitMix64) -> AnimatableValue {
    func n(_ lo: Double, _ hi: Double) -> Double {
      rng.chance(0.5) ? Double(Int(rng.uniform(lo, hi))) : rng.uniform(lo, hi)
    }
    switch keyPath.valueKind {
    case "point": return .point(Point(n(-100, 400), n(-100, 400)))
    case "size": return .size(Size(width: n(-20, 200), height: n(-20, 200)))
    case "rect": return .rect(Rect(x: n(-50, 50), y: n(-50, 50), width: n(-10, 200), height: n(-10, 200)))
    case "boolean": return .bool(rng.chance(0.5))
    case "transform": return .transform(_transform(&rng))
    default:
      switch keyPath {
      case .opacity: return .scalar([0, 0.005, 0.01, 0.5, 1, rng.unit()][rng.below(6)])
      case .rotation, .rotationZ: return .scalar(rng.uniform(-7, 7))
      case .scale, .scaleX, .scaleY: return .scalar(rng.chance(0.1) ? 0 : rng.uniform(-2, 3))
      case .zPosition: return .scalar(Double(rng.below(7)) - 3)
      case .anchorPointZ: return .scalar(rng.uniform(-20, 20))
      default: return .scalar(n(-100, 400))
      }
    }
  }

  func _transform(_ rng: inout SplitMix64) -> Transform3D {
    switch rng.below(6) {
    case 0: return .identity
    case 1: return .rotation(rng.uniform(-.pi, .pi), 0, 0, 1)
    case 2: return .scale(rng.uniform(-2, 3), rng.uniform(-2, 3), 1)
    case 3: return .translation(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-20, 20))
    case 4:
      // A flip about y with perspective: projective.
      return Transform3D.concat(.rotation(rng.uniform(-1.4, 1.4), 0, 1, 0), .perspective(rng.uniform(100, 900)))
    default: return .affine(a: 1, b: rng.uniform(-1, 1), c: rng.uniform(-1, 1), d: 1, tx: 0, ty: 0)
    }
  }

  func _keyPath(_ rng: inout SplitMix64) -> AnimatableKeyPath {
    AnimatableKeyPath.allCases[rng.below(AnimatableKeyPath.allCases.count)]
  }

  func _timingFunction(_ rng: inout SplitMix64) -> TimingFunction? {
    switch rng.below(6) {
    case 0: return nil
    case 1: return .easeIn
    case 2: return .easeOut
    case 3: return .easeInEaseOut
    case 4: return .default
    default: return TimingFunction(rng.unit(), rng.uniform(-1, 2), rng.unit(), rng.uniform(-1, 2))
    }
  }

  // MARK: Kinds

  func _basic(_ rng: inout SplitMix64) -> Animation {
    let keyPath = _keyPath(&rng)
    // Every combination of from, to and by, including none.
    let mask = rng.below(8)
    let a = BasicAnimation(
      keyPath: keyPath, from: mask & 1 != 0 ? _value(keyPath, &rng) : nil,
      to: mask & 2 != 0 ? _value(keyPath, &rng) : nil, by: mask & 4 != 0 ? _value(keyPath, &rng) : nil)
    _propertyFlags(a, &rng)
    return a
  }

  func _keyframes(_ rng: inout SplitMix64) -> Animation {
    let keyPath = _keyPath(&rng)
    let a = KeyframeAnimation(keyPath: keyPath)
    let count = 1 + rng.below(5)
    a.values = (0..<count).map { _ in _value(keyPath, &rng) }
    a.calculationMode = CalculationMode.allCases[rng.below(CalculationMode.allCases.count)]
    if rng.chance(0.4) {
      // Sorted key times from 0 to 1; sometimes one more or fewer than the values (ignored).
      var times = (0..<count).map { _ in rng.unit() }.sorted()
      if count > 1 {
        times[0] = 0
        times[count - 1] = 1
      }
      if rng.chance(0.15) { times.append(1) }
      a.keyTimes = times
    }
    if rng.chance(0.4) { a.timingFunctions = (0..<max(count - 1, 1)).map { _ in _timingFunction(&rng) ?? .default } }
    _propertyFlags(a, &rng)
    return a
  }

  func _path(_ rng: inout SplitMix64) -> Animation {
    let keyPath: AnimatableKeyPath = rng.chance(0.8) ? .position : [.anchorPoint, .boundsOrigin][rng.below(2)]
    let a = KeyframeAnimation(keyPath: keyPath)
    func p() -> Point { Point(rng.uniform(-50, 400), rng.uniform(-50, 400)) }
    var elements: [PathElement] = rng.chance(0.9) ? [.move(p())] : []
    for _ in 0..<(1 + rng.below(4)) {
      switch rng.below(3) {
      case 0: elements.append(.line(p()))
      case 1: elements.append(.quad(p(), p()))
      default: elements.append(.cubic(p(), p(), p()))
      }
    }
    a.path = elements
    a.calculationMode = [.linear, .paced, .cubicPaced, .discrete][rng.below(4)]
    a.rotationMode = [nil, .auto, .autoReverse][rng.below(3)]
    _propertyFlags(a, &rng)
    return a
  }

  func _spring(_ rng: inout SplitMix64) -> Animation {
    let keyPath = _keyPath(&rng)
    let a = SpringAnimation(keyPath: keyPath, to: _value(keyPath, &rng))
    if rng.chance(0.7) { a.fromValue = _value(keyPath, &rng) }
    a.mass = rng.uniform(0.5, 3)
    a.stiffness = rng.uniform(20, 400)
    // Under-, critically and over-damped.
    let critical = 2 * (a.stiffness * a.mass).squareRoot()
    a.damping = [critical * rng.uniform(0.05, 0.9), critical, critical * rng.uniform(1.1, 4)][rng.below(3)]
    a.initialVelocity = rng.chance(0.5) ? 0 : rng.uniform(-5, 5)
    _propertyFlags(a, &rng)
    return a
  }

  func _propertyFlags(_ a: PropertyAnimation, _ rng: inout SplitMix64) {
    a.isAdditive = rng.chance(0.25)
    a.isCumulative = rng.chance(0.2)
  }

  /// Random media timing, a timing function and removal.
  func _time(_ a: Animation, _ rng: inout SplitMix64) {
    a.timingFunction = _timingFunction(&rng)
    a.duration = [0, 0.3, rng.uniform(0.5, 3)][rng.below(3)]
    if rng.chance(0.4) { a.timing.beginTime = rng.uniform(-2, 3) }
    if rng.chance(0.4) { a.timing.timeOffset = rng.uniform(-2, 4) }
    if rng.chance(0.2) { a.timing.speed = [0.5, 2, 0, -1][rng.below(4)] }
    if rng.chance(0.6) { a.timing.repeatCount = [0.5, 0.75, 1, 2.25, .infinity][rng.below(5)] }
    if rng.chance(0.1) { a.timing.repeatDuration = rng.uniform(0.5, 4) }
    a.timing.autoreverses = rng.chance(0.4)
    a.timing.fillMode = FillMode.allCases[rng.below(4)]
    a.isRemovedOnCompletion = rng.chance(0.5)
    if hostile { RandomScene.hostileTiming(&a.timing, &rng) }
  }
}
