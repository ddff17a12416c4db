import SceneFormat
import Testing

@testable import LayerModel

#if canImport(Glibc)
  import Glibc
#endif

private func state(_ layer: Layer, at t: Double) -> LayerState { layer.presentationState(atLocalTime: t) }

private func near(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }

private func layer() -> Layer {
  let l = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(100, 100))
  l.opacity = 0.5
  return l
}

@Suite struct BasicAnimationTests {
  private func opacity(_ from: Double?, _ to: Double?, _ by: Double?, at f: Double) -> Double {
    let l = layer()
    let a = BasicAnimation(
      keyPath: .opacity, from: from.map(AnimatableValue.scalar), to: to.map(AnimatableValue.scalar),
      by: by.map(AnimatableValue.scalar))
    a.duration = 1
    l.add(a, forKey: "a")
    return state(l, at: f).opacity
  }

  @Test func everyFromToByCombination() {
    // Underlying opacity is 0.5.
    #expect(near(opacity(0, 1, nil, at: 0.25), 0.25))
    #expect(near(opacity(0.2, nil, 0.4, at: 0.5), 0.4))
    #expect(near(opacity(nil, 1, 0.4, at: 0.5), 0.8))
    #expect(near(opacity(0, nil, nil, at: 0.5), 0.25))
    #expect(near(opacity(nil, 1, nil, at: 0.5), 0.75))
    #expect(near(opacity(nil, nil, 0.2, at: 0.5), 0.6))
    #expect(near(opacity(nil, nil, nil, at: 0.5), 0.5))
  }

  @Test func additiveAndCumulative() {
    let l = layer()
    let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(10))
    a.duration = 1
    a.isAdditive = true
    l.add(a, forKey: "a")
    #expect(near(state(l, at: 0.5).position.x, 105))
    let c = BasicAnimation(keyPath: .positionY, from: .scalar(0), to: .scalar(10))
    c.duration = 1
    c.repeatCount = 3
    c.isCumulative = true
    l.add(c, forKey: "c")
    #expect(near(state(l, at: 2.5).position.y, 25))
    let r = BasicAnimation(keyPath: .transform, from: .transform(.identity), to: .transform(.translation(10, 0, 0)))
    r.duration = 1
    r.repeatCount = 3
    r.isCumulative = true
    l.add(r, forKey: "r")
    #expect(near(state(l, at: 2.5).transform.m41, 25))
  }

  @Test func additiveTransformsConcatenateAnimationFirst() {
    let l = layer()
    l.transform = .translation(50, 0, 0)
    let a = BasicAnimation(keyPath: .transform, from: .transform(.identity), to: .transform(.scale(3, 3, 1)))
    a.isAdditive = true
    a.duration = 1
    l.add(a, forKey: "a")
    let m = state(l, at: 1 - 1e-12).transform
    // scale then translate: translation stays 50.
    #expect(near(m.m11, 3, 1e-9) && near(m.m41, 50))
  }

  @Test func transformInterpolationRotatesRatherThanShrinks() {
    let l = layer()
    let a = BasicAnimation(
      keyPath: .transform, from: .transform(.identity), to: .transform(.rotation(.pi / 2, 0, 0, 1)))
    a.duration = 1
    l.add(a, forKey: "a")
    let m = state(l, at: 0.5).transform
    #expect(near(m.m11, cos(Double.pi / 4)) && near(m.m12, sin(Double.pi / 4)))
    #expect(near(m.m11 * m.m22 - m.m12 * m.m21, 1), "no shrink through the middle")
  }

  @Test func transformSubKeyPaths() {
    let l = layer()
    l.transform = Transform3D.concat(.scale(2, 2, 1), .translation(5, 6, 0))
    let rot = BasicAnimation(keyPath: .rotationZ, from: .scalar(0), to: .scalar(.pi))
    rot.duration = 1
    l.add(rot, forKey: "rot")
    let m = state(l, at: 0.5).transform
    #expect(near(m.m11, 0, 1e-9) && near(m.m12, 2) && near(m.m41, 5) && near(m.m42, 6))
    let tx = BasicAnimation(keyPath: .translationX, to: .scalar(50))
    tx.duration = 1
    l.add(tx, forKey: "tx")
    #expect(near(state(l, at: 0.5).transform.m41, 27.5))
    let s = BasicAnimation(keyPath: .scale, from: .scalar(1), to: .scalar(1))
    s.duration = 1
    l.add(s, forKey: "s")
    let ms = state(l, at: 0.5).transform
    #expect(near((ms.m11 * ms.m11 + ms.m12 * ms.m12).squareRoot(), 1))
  }

  @Test func hiddenIsDiscreteAndOpacityInterpolates() {
    let l = layer()
    let h = BasicAnimation(keyPath: .hidden, from: .bool(false), to: .bool(true))
    h.duration = 1
    l.add(h, forKey: "h")
    #expect(!state(l, at: 0.49).isHidden)
    #expect(state(l, at: 0.5).isHidden)
  }

  @Test func timingFunctionPacesTheProgress() {
    let l = layer()
    let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(1))
    a.duration = 1
    a.timingFunction = .easeIn
    l.add(a, forKey: "a")
    #expect(near(state(l, at: 0.5).position.x, TimingFunction.easeIn(0.5)))
  }

  @Test func addReplacesAndRemoves() {
    let l = layer()
    let a = BasicAnimation(keyPath: .opacity, to: .scalar(1))
    l.add(a, forKey: "x")
    l.add(BasicAnimation(keyPath: .zPosition, to: .scalar(1)), forKey: "y")
    l.add(a, forKey: "x")
    #expect(l.animationKeys() == ["y", "x"])
    a.duration = 99
    #expect(l.animation(forKey: "x")?.duration == 0, "add stores a copy")
    l.removeAnimation(forKey: "y")
    #expect(l.animationKeys() == ["x"])
    l.removeAllAnimations()
    #expect(l.animationKeys().isEmpty)
  }
}

@Suite struct KeyframeAnimationTests {
  private func scalarAnimation(_ values: [Double], mode: CalculationMode, keyTimes: [Double]? = nil) -> Layer {
    let l = layer()
    let a = KeyframeAnimation(keyPath: .positionX)
    a.values = values.map(AnimatableValue.scalar)
    a.calculationMode = mode
    a.keyTimes = keyTimes
    a.duration = 1
    l.add(a, forKey: "k")
    return l
  }

  @Test func linearWithAndWithoutKeyTimes() {
    let l = scalarAnimation([0, 10, 30], mode: .linear)
    #expect(near(state(l, at: 0.25).position.x, 5))
    #expect(near(state(l, at: 0.75).position.x, 20))
    let k = scalarAnimation([0, 10, 30], mode: .linear, keyTimes: [0, 0.8, 1])
    #expect(near(state(k, at: 0.4).position.x, 5))
    #expect(near(state(k, at: 0.9).position.x, 20))
  }

  @Test func discreteHoldsEachValue() {
    let l = scalarAnimation([1, 2, 3], mode: .discrete)
    #expect(state(l, at: 0.1).position.x == 1)
    #expect(state(l, at: 0.34).position.x == 2)
    #expect(state(l, at: 0.9).position.x == 3)
    let k = scalarAnimation([1, 2, 3], mode: .discrete, keyTimes: [0, 0.1, 0.2, 1])
    #expect(state(k, at: 0.15).position.x == 2)
    #expect(state(k, at: 0.5).position.x == 3)
  }

  @Test func pacedIgnoresKeyTimes() {
    let l = scalarAnimation([0, 10, 40], mode: .paced, keyTimes: [0, 0.9, 1])
    // Total distance 40: constant speed.
    #expect(near(state(l, at: 0.125).position.x, 5))
    #expect(near(state(l, at: 0.5).position.x, 20))
  }

  @Test func cubicPassesThroughTheKeyframesSmoothly() {
    let l = scalarAnimation([0, 10, 0, 10], mode: .cubic)
    #expect(near(state(l, at: 1.0 / 3).position.x, 10, 1e-9))
    #expect(near(state(l, at: 2.0 / 3).position.x, 0, 1e-9))
    // Catmull-Rom overshoots between 10 and 0 less than linear would not: value at the middle.
    let mid = state(l, at: 0.5).position.x
    #expect(near(mid, 5, 1e-9))
    let paced = scalarAnimation([0, 10, 40], mode: .cubicPaced)
    let x = state(paced, at: 0.5).position.x
    #expect(x > 10 && x < 40)
  }

  @Test func perSegmentTimingFunctions() {
    let l = layer()
    let a = KeyframeAnimation(keyPath: .positionX)
    a.values = [.scalar(0), .scalar(1), .scalar(2)]
    a.timingFunctions = [.easeIn, .linear]
    a.duration = 1
    l.add(a, forKey: "k")
    #expect(near(state(l, at: 0.25).position.x, TimingFunction.easeIn(0.5)))
    #expect(near(state(l, at: 0.75).position.x, 1.5))
  }

  @Test func pathsWithRotationModes() {
    let l = layer()
    let a = KeyframeAnimation(keyPath: .position)
    a.path = [.move(Point(0, 0)), .line(Point(100, 0)), .line(Point(100, 100))]
    a.duration = 1
    a.rotationMode = .auto
    l.add(a, forKey: "p")
    let s = state(l, at: 0.25)
    #expect(near(s.position.x, 50) && near(s.position.y, 0))
    let s2 = state(l, at: 0.75)
    #expect(near(s2.position.x, 100) && near(s2.position.y, 50))
    #expect(near(s2.transform.m11, 0, 1e-12) && near(s2.transform.m12, 1), "turned to the downward tangent")
    a.rotationMode = .autoReverse
    l.add(a, forKey: "p")
    #expect(near(state(l, at: 0.75).transform.m12, -1))
    let c = KeyframeAnimation(keyPath: .position)
    c.path = [.move(Point(0, 0)), .cubic(Point(0, 100), Point(100, 100), Point(100, 0))]
    c.duration = 1
    l.add(c, forKey: "p")
    #expect(near(state(l, at: 0.5).position.x, 50) && near(state(l, at: 0.5).position.y, 75))
  }

  @Test func seedMoveAnimationAtTheArticlesTimes() throws {
    let root = try SceneFile.read(path: repoPath("data/scenes/seed-move.json"))
    let orange = root.sublayers[0]
    #expect(near(state(orange, at: 1).position.x, 110))
    #expect(near(state(orange, at: 2.5).position.x, 165))
    #expect(near(state(orange, at: 3).position.x, 110))
    #expect(orange.position == Point(0, 0), "the model never moves")
  }
}

@Suite struct SpringAndGroupTests {
  /// The oscillator integrated numerically (RK4, 1e-5 s steps), as an independent check.
  private func integrate(_ s: SpringAnimation, until t: Double) -> Double {
    var x = 1.0
    var v = -s.initialVelocity
    let h = 1e-5
    func acc(_ x: Double, _ v: Double) -> Double { (-s.stiffness * x - s.damping * v) / s.mass }
    var time = 0.0
    while time < t - h / 2 {
      let k1x = v
      let k1v = acc(x, v)
      let k2x = v + h / 2 * k1v
      let k2v = acc(x + h / 2 * k1x, v + h / 2 * k1v)
      let k3x = v + h / 2 * k2v
      let k3v = acc(x + h / 2 * k2x, v + h / 2 * k2v)
      let k4x = v + h * k3v
      let k4v = acc(x + h * k3x, v + h * k3v)
      x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
      v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
      time += h
    }
    return x
  }

  @Test func springClosedFormMatchesTheODE() {
    for (m, k, c, v0) in [
      (1.0, 100.0, 10.0, 0.0), (2.0, 50.0, 20.0, 3.0), (1.0, 100.0, 20.0, -2.0), (0.5, 300.0, 40.0, 1.0),
    ] {
      let s = SpringAnimation(keyPath: .positionX)
      s.mass = m
      s.stiffness = k
      s.damping = c
      s.initialVelocity = v0
      for t in [0.05, 0.2, 0.5, 1.0] {
        #expect(abs(s.displacement(at: t) - integrate(s, until: t)) < 1e-7, "m \(m) k \(k) c \(c) at \(t)")
      }
      let settle = s.settlingDuration
      #expect(settle > 0 && settle < 100)
      for k in 0..<50 {
        #expect(abs(s.displacement(at: settle + Double(k) * 0.05)) < 0.001)
      }
    }
  }

  @Test func springDrivesTheValue() {
    let l = layer()
    let s = SpringAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    s.duration = 2
    s.timingFunction = .easeIn
    l.add(s, forKey: "s")
    #expect(
      near(state(l, at: 0.3).position.x, 100 * (1 - s.displacement(at: 0.3))), "timing functions do not pace springs")
  }

  @Test func groupTimesChildrenInItsLocalTime() {
    let l = layer()
    let child = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(10))
    child.beginTime = 1
    child.duration = 1
    let group = AnimationGroup([child, BasicAnimation(keyPath: .opacity, to: .scalar(1))])
    group.beginTime = 2
    group.duration = 3
    l.add(group, forKey: "g")
    #expect(state(l, at: 2.5).position.x == 100, "the child has not started in group time")
    #expect(near(state(l, at: 3.5).position.x, 5))
    #expect(state(l, at: 5.5).position.x == 100, "the group has ended")
  }
}
