import LayerModel
import Presentation
import Scenes

/// Random layer trees for differential testing: random topology (bushy or chained), every
/// geometric property, masks, hidden, zPosition ties and NaN, UIView flags, and animations of
/// position, rotation, zPosition (reordering siblings), bounds, hidden and opacity. With
/// `hostile`, also zero and negative sizes, NaN and infinity, singular, skewed and perspective
/// transforms, and huge coordinates. Deterministic from the seed; O(layers).
public struct RandomScene {
  public var layerCount: ClosedRange<Int> = 1...60
  public var hostile = true
  public var animatedFraction = 0.3

  public init(layerCount: ClosedRange<Int> = 1...60, hostile: Bool = true, animatedFraction: Double = 0.3) {
    self.layerCount = layerCount
    self.hostile = hostile
    self.animatedFraction = animatedFraction
  }

  public func make(seed: UInt64) -> Layer {
    var rng = SplitMix64(seed: seed)
    let n = layerCount.lowerBound + rng.below(layerCount.count)
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 400, height: 400), position: Point(200, 200))
    if rng.chance(0.2) { _decorate(root, &rng, isRoot: true) }
    var all = [root]
    for i in 1..<max(n, 1) {
      let parent = rng.chance(0.3) ? all[all.count - 1] : all[rng.below(all.count)]
      let l = Layer(name: "L\(i)")
      _decorate(l, &rng, isRoot: false)
      if rng.chance(0.15) && !parent.sublayers.isEmpty {
        parent.insertSublayer(l, at: rng.below(parent.sublayers.count + 1))
      } else {
        parent.addSublayer(l)
      }
      all.append(l)
    }
    return root
  }

  /// A clock time for a scene: mostly within the first six seconds (where the animations are
  /// busy); with `hostile`, now and then a time whose magnitude Double can barely resolve.
  public static func time(_ rng: inout SplitMix64, hostile: Bool) -> Double {
    if hostile && rng.chance(0.08) { return _hugeTimes[rng.below(_hugeTimes.count)] }
    return rng.uniform(0, 6)
  }

  private func _coord(_ rng: inout SplitMix64) -> Double {
    // Integers make exact edge coincidences common; fractions exercise rounding.
    rng.chance(0.6) ? Double(rng.below(400)) - 50 : rng.uniform(-60, 420)
  }

  private func _size(_ rng: inout SplitMix64) -> Double {
    if hostile {
      if rng.chance(0.05) { return 0 }
      if rng.chance(0.05) { return -Double(5 + rng.below(100)) }
      if rng.chance(0.01) { return .infinity }
      if rng.chance(0.01) { return .nan }
      if rng.chance(0.01) { return 1e-9 }
    }
    return rng.chance(0.5) ? Double(5 + rng.below(200)) : rng.uniform(1, 250)
  }

  private func _decorate(_ l: Layer, _ rng: inout SplitMix64, isRoot: Bool) {
    if !isRoot {
      let ox = rng.chance(0.8) ? 0 : Double(rng.below(40)) - 20
      let oy = rng.chance(0.8) ? 0 : Double(rng.below(40)) - 20
      l.bounds = Rect(x: ox, y: oy, width: _size(&rng), height: _size(&rng))
      l.position = Point(_coord(&rng), _coord(&rng))
      if hostile && rng.chance(0.02) { l.position = Point(rng.chance(0.5) ? 1e12 : -1e12, _coord(&rng)) }
      if hostile && rng.chance(0.01) { l.position = Point(.nan, 0) }
    }
    if rng.chance(0.3) {
      l.anchorPoint = rng.chance(0.5) ? Point(0, 0) : Point(rng.uniform(-0.5, 1.5), rng.uniform(-0.5, 1.5))
    }
    l.transform = _transform(&rng)
    if rng.chance(0.12) { l.sublayerTransform = _transform(&rng) }
    if rng.chance(0.2) {
      l.zPosition = hostile && rng.chance(0.1) ? .nan : Double(rng.below(5)) - 2
    }
    if rng.chance(0.05) { l.anchorPointZ = Double(rng.below(40)) - 20 }
    l.masksToBounds = rng.chance(0.25)
    l.isHidden = rng.chance(0.06)
    if rng.chance(0.1) { l.opacity = [0, 0.005, 0.01, 0.0101, 0.5][rng.below(5)] }
    l.isUserInteractionEnabled = !rng.chance(0.07)
    if rng.chance(animatedFraction) { _animate(l, &rng) }
    if rng.chance(0.08) { _retime(&l.timing, &rng, layer: true) }
  }

  /// Random media timing on top of an animation's (or a layer's): offsets inside and beyond
  /// a cycle, fractional and finite repeat counts, fills, begin times and speeds, so the active
  /// period rules (docs/timing.md) are exercised by every check that uses these scenes.
  private func _retime(_ t: inout MediaTiming, _ rng: inout SplitMix64, layer: Bool) {
    if layer { t.duration = rng.uniform(0.5, 3) }
    if rng.chance(0.6) { t.timeOffset = rng.uniform(-2, 4) }
    if rng.chance(0.6) { t.repeatCount = [0.5, 0.75, 1, 1.5, 2.25, .infinity][rng.below(6)] }
    if rng.chance(0.2) { t.autoreverses.toggle() }
    if rng.chance(0.4) { t.beginTime = rng.uniform(-1, 3) }
    if rng.chance(0.2) { t.speed = [0.5, 2, 0][rng.below(3)] }
    if !layer { t.fillMode = FillMode.allCases[rng.below(4)] }
    if hostile { Self.hostileTiming(&t, &rng) }
  }

  /// Now and then, timing values at magnitudes Double can barely resolve: offsets and begin
  /// times up to 1e300 of either sign, speeds up to 1e300, huge repeat counts. Every strategy
  /// must answer such scenes at once (motion it cannot bound becomes unbounded).
  public static func hostileTiming(_ t: inout MediaTiming, _ rng: inout SplitMix64) {
    if rng.chance(0.1) { t.timeOffset = _hugeTimes[rng.below(_hugeTimes.count)] }
    if rng.chance(0.04) { t.beginTime = _hugeTimes[rng.below(_hugeTimes.count)] }
    if rng.chance(0.03) { t.speed = [1e300, -1e300, 1e-300, 1e15, -2][rng.below(5)] }
    if rng.chance(0.03) { t.repeatCount = [1e15, 1e300, 3][rng.below(3)] }
  }

  private func _transform(_ rng: inout SplitMix64) -> Transform3D {
    let k = rng.unit()
    if k < 0.5 { return .identity }
    if k < 0.65 { return .rotation(rng.uniform(-.pi, .pi), 0, 0, 1) }
    if k < 0.75 {
      let sx = hostile && rng.chance(0.1) ? 0 : rng.uniform(-2, 3)
      return .scale(sx, rng.uniform(-2, 3), 1)
    }
    if k < 0.80 { return .affine(a: 1, b: rng.uniform(-1, 1), c: rng.uniform(-1, 1), d: 1, tx: 0, ty: 0) }
    if k < 0.85 {
      return .translation(Double(rng.below(60)) - 30, Double(rng.below(60)) - 30, Double(rng.below(40)) - 20)
    }
    if k < 0.93 || !hostile {
      let axis = rng.chance(0.5) ? (0.0, 1.0, 0.0) : (1.0, 0.0, 0.0)
      let r = Transform3D.rotation(rng.uniform(-1.5, 1.5), axis.0, axis.1, axis.2)
      return Transform3D.concat(r, .perspective(rng.uniform(60, 800)))
    }
    if k < 0.96 {
      // Strong perspective: parts of the layer fall behind the viewer.
      return Transform3D.concat(.rotation(rng.uniform(1.2, 1.56), 0, 1, 0), .perspective(rng.uniform(20, 80)))
    }
    if k < 0.98 { return .scale(1e-6, 1e5, 1) }
    return rng.chance(0.5) ? Transform3D(elements: [Double](repeating: .nan, count: 16))! : .scale(.infinity, 1, 1)
  }

  private func _animate(_ l: Layer, _ rng: inout SplitMix64) {
    _addAnimation(l, &rng)
    if rng.chance(0.4), let key = l.animationKeys().last, let a = l.animation(forKey: key) {
      _retime(&a.timing, &rng, layer: false)
      a.isRemovedOnCompletion = rng.chance(0.5)
    }
  }

  private func _addAnimation(_ l: Layer, _ rng: inout SplitMix64) {
    let duration = rng.uniform(0.5, 3)
    switch rng.below(10) {
    case 0:
      let a = KeyframeAnimation(keyPath: .position)
      a.values = (0..<(2 + rng.below(3))).map { _ in .point(Point(_coord(&rng), _coord(&rng))) }
      a.calculationMode = [.linear, .paced, .cubic, .discrete, .cubicPaced][rng.below(5)]
      a.duration = duration
      a.autoreverses = rng.chance(0.5)
      a.repeatCount = .infinity
      l.add(a, forKey: "move")
    case 1:
      let a = BasicAnimation(keyPath: .rotationZ, from: .scalar(0), to: .scalar(2 * .pi))
      a.duration = duration
      a.repeatCount = .infinity
      l.add(a, forKey: "spin")
    case 2:
      let a = BasicAnimation(keyPath: .zPosition, from: .scalar(-3), to: .scalar(3))
      a.duration = duration
      a.autoreverses = true
      a.repeatCount = .infinity
      l.add(a, forKey: "z")
    case 3:
      let a = SpringAnimation(keyPath: .boundsSize, to: .size(Size(width: _size(&rng), height: _size(&rng))))
      a.damping = rng.uniform(2, 20)
      a.duration = duration
      a.fillMode = .both
      a.isRemovedOnCompletion = false
      l.add(a, forKey: "grow")
    case 4:
      let a = KeyframeAnimation(keyPath: .hidden)
      a.values = [.bool(false), .bool(true)]
      a.calculationMode = .discrete
      a.duration = duration
      a.repeatCount = .infinity
      l.add(a, forKey: "blink")
    case 5:
      let a = BasicAnimation(keyPath: .opacity, from: .scalar(0), to: .scalar(1))
      a.duration = duration
      a.autoreverses = true
      a.repeatCount = .infinity
      l.add(a, forKey: "fade")
    case 7:
      // A cumulative spin that grows without bound (byValue up to 1e6 a cycle).
      let a = BasicAnimation(keyPath: .rotationZ, by: .scalar(hostile && rng.chance(0.5) ? 1e6 : rng.uniform(-7, 7)))
      a.isCumulative = true
      a.duration = hostile && rng.chance(0.5) ? 0.1 : duration
      a.repeatCount = .infinity
      l.add(a, forKey: "wind")
    case 8:
      let a = SpringAnimation(keyPath: .positionX, to: .scalar(_coord(&rng)))
      a.mass = hostile && rng.chance(0.3) ? 1e9 : rng.uniform(0.5, 3)
      a.stiffness = rng.uniform(20, 400)
      a.damping = rng.uniform(1, 30)
      a.duration = duration
      l.add(a, forKey: "settle")
    default:
      let g = AnimationGroup([
        BasicAnimation(keyPath: .positionX, by: .scalar(Double(rng.below(100)) - 50)),
        BasicAnimation(keyPath: .scale, from: .scalar(0.5), to: .scalar(1.5)),
      ])
      g.duration = duration
      g.repeatCount = .infinity
      g.autoreverses = true
      l.add(g, forKey: "group")
    }
  }

  /// Points for a frame: about a third uniform over the root with a margin, the rest on or
  /// near the edges and corners of random layers, where strategies disagree if they are going
  /// to: exactly on an edge (in the layer's space), on it after rounding to whole points, or at
  /// a distance of 1e-9, 1e-8, ... 1e-2 on either side of it. A strategy whose hit regions are
  /// wrong by 1e-6 pt answers wrongly for the points between 1e-6 and its error.
  public static func points(for frame: PresentationFrame, count: Int, rng: inout SplitMix64) -> [Point] {
    var out: [Point] = []
    out.reserveCapacity(count)
    while out.count < count {
      if frame.count == 0 || rng.chance(0.35) {
        out.append(Point(rng.uniform(-80, 480), rng.uniform(-80, 480)))
        continue
      }
      let r = rng.below(frame.count)
      let x0 = frame.bounds[r].minX
      let x1 = frame.bounds[r].maxX
      let y0 = frame.bounds[r].minY
      let y1 = frame.bounds[r].maxY
      guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { continue }
      // A distance from the edge in the layer's own space: 0, or ±10^-k for k in 2...9.
      func offset() -> Double {
        let k = rng.below(9)
        if k == 0 { return 0 }
        let d = _powersOfTen[k + 1]
        return rng.chance(0.5) ? d : -d
      }
      let u = rng.unit()
      var q: Point
      switch rng.below(4) {
      case 0: q = Point(x0 + offset(), y0 + (y1 - y0) * u)
      case 1: q = Point(x1 + offset(), y0 + (y1 - y0) * u)
      case 2: q = Point(x0 + (x1 - x0) * u, y0 + offset())
      default: q = Point(x0 + (x1 - x0) * u, y1 + offset())
      }
      if rng.chance(0.15) {
        let corner = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)][rng.below(4)]
        q = Point(corner.x + offset(), corner.y + offset())
      }
      guard var p = frame.toWorldMap(r).apply(q), p.x.isFinite, p.y.isFinite else { continue }
      if rng.chance(0.15) { p = Point(p.x.rounded(), p.y.rounded()) }
      out.append(p)
    }
    return out
  }
}

/// Times and offsets whose magnitude leaves Double little or no resolution.
let _hugeTimes: [Double] = [1e13, 1e15, 1e17, 1e300, -1e300, -1e15, -1e17]

/// 1, 1e-1, ... 1e-10, exactly as the literals round.
private let _powersOfTen: [Double] = [1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10]
