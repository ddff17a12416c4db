import Scenes
import Testing

@testable import LayerModel

// The active period and the offset (docs/semantics.md section 3, docs/timing.md): whether an
// animation is active is decided from `ta = (parent - beginTime) * speed` before the offset is
// added; inside, the offset shifts the time and the iteration rule wraps it. These tests do not
// restate the rule: they compare an animation with an offset against the same animation without
// one (repeating forever, so it is never outside its period), evaluated at
// `(x + timeOffset) mod cycle`.

/// The model value every animation below moves away from: "no animation applied" reads it.
private let modelX = -1000.0

private func layerWith(_ animation: Animation) -> Layer {
  let l = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(modelX, 0))
  l.add(animation, forKey: "a")
  return l
}

private func valueX(_ animation: Animation, at parentTime: Double) -> Double {
  layerWith(animation).presentationState(atLocalTime: parentTime).position.x
}

/// One animation of each kind whose value moves monotonically with progress (or, for the
/// spring, with seconds), far from `modelX`.
private func makeAnimation(kind: Int, duration: Double, rng: inout SplitMix64) -> Animation {
  switch kind {
  case 0:
    let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    a.timingFunction = [nil, .easeIn, .easeInEaseOut, .default][rng.below(4)]
    a.duration = duration
    return a
  case 1:
    let a = KeyframeAnimation(keyPath: .position)
    a.values = [.point(Point(0, 0)), .point(Point(40, 5)), .point(Point(100, 9))]
    a.calculationMode = [.linear, .paced, .cubic][rng.below(3)]
    a.duration = duration
    return a
  case 2:
    let a = SpringAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    a.damping = 3
    a.stiffness = 60
    a.duration = duration
    return a
  default:
    let child = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    child.duration = duration
    let g = AnimationGroup([child])
    g.duration = duration
    return g
  }
}

/// True when `t` lies within a relative 1e-7 of a multiple of `d` (an iteration boundary, where
/// one rounding decides between the end of one iteration and the start of the next).
private func nearBoundary(_ t: Double, _ d: Double) -> Bool {
  let k = (t / d).rounded()
  return abs(t - k * d) <= 1e-7 * (1 + abs(t))
}

private func positiveMod(_ a: Double, _ m: Double) -> Double {
  let r = a - m * (a / m).rounded(.down)
  return r >= m ? 0 : r
}

@Suite struct ActivePeriodTests {
  @Test func anOffsetWrapsInsideTheActivePeriod() {
    var rng = SplitMix64(seed: 0x0FF5E7)
    var checked = (before: 0, inside: 0, after: 0)
    for trial in 0..<400 {
      let kind = trial % 4
      let d = rng.uniform(0.2, 3)
      let a = makeAnimation(kind: kind, duration: d, rng: &rng)
      a.beginTime = rng.uniform(-2, 2)
      a.speed = [1, 2, 0.5, 1.7][rng.below(4)]
      a.autoreverses = rng.chance(0.5)
      a.repeatCount = [0.5, 0.75, 1, 1.5, 2.25, 3][rng.below(6)]
      a.fillMode = FillMode.allCases[rng.below(4)]
      a.isRemovedOnCompletion = rng.chance(0.5)
      let cycle = a.autoreverses ? 2 * d : d
      // Offsets inside and beyond one cycle, positive and negative.
      a.timeOffset = rng.uniform(-1.5, 2.5) * cycle
      let total = a.repeatCount * cycle

      let reference = a.copy()
      reference.timeOffset = 0
      reference.repeatCount = .infinity
      reference.fillMode = .removed
      func referenceValue(_ y: Double) -> Double { valueX(reference, at: a.beginTime + y / a.speed) }

      for _ in 0..<24 {
        let x = rng.uniform(-0.5 * total - 0.5, 1.5 * total + 0.5)
        let parent = a.beginTime + x / a.speed
        let got = valueX(a, at: parent)
        if x < 0 {
          if abs(x) < 1e-7 || nearBoundary(a.timeOffset, d) { continue }
          let backwards = a.fillMode == .backwards || a.fillMode == .both
          let expected = backwards ? referenceValue(positiveMod(a.timeOffset, cycle)) : modelX
          #expect(abs(got - expected) <= 1e-6, "trial \(trial): before the start, x = \(x)")
          checked.before += 1
        } else if x < total {
          let t = x + a.timeOffset
          if abs(x - total) < 1e-7 || nearBoundary(t, d) { continue }
          let expected = referenceValue(positiveMod(t, cycle))
          #expect(abs(got - expected) <= 1e-6, "trial \(trial): inside, x = \(x), expected \(expected), got \(got)")
          checked.inside += 1
        } else {
          let end = total + a.timeOffset
          if abs(x - total) < 1e-7 || nearBoundary(end, d) { continue }
          let held = (a.fillMode == .forwards || a.fillMode == .both) && !a.isRemovedOnCompletion
          let expected = held ? referenceValue(positiveMod(end, cycle)) : modelX
          #expect(abs(got - expected) <= 1e-6, "trial \(trial): after the end, x = \(x)")
          checked.after += 1
        }
      }
    }
    #expect(checked.before > 500 && checked.inside > 1500 && checked.after > 1500, "\(checked)")
  }

  @Test func anOffsetOfTwoFramesPlaysCDEAB() {
    // Five frames A...E of 1 s each as a discrete keyframe animation; an offset of two frames
    // plays C D E A B over the same five seconds, then the animation is gone.
    let a = KeyframeAnimation(keyPath: .positionX)
    a.values = (0..<5).map { .scalar(Double($0) * 10) }
    a.calculationMode = .discrete
    a.duration = 5
    a.timeOffset = 2
    a.beginTime = 1
    let shown = (0..<7).map { valueX(a, at: 1.5 + Double($0)) }
    #expect(shown == [20, 30, 40, 0, 10, modelX, modelX], "\(shown)")
    #expect(valueX(a, at: 0.5) == modelX, "not started before beginTime")
  }

  @Test func fractionalRepeatCountsPlayThatPartOfACycle() {
    for autoreverses in [false, true] {
      for count in [0.5, 0.75] {
        let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
        a.duration = 2
        a.autoreverses = autoreverses
        a.repeatCount = count
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        let cycle = autoreverses ? 4.0 : 2.0
        let end = count * cycle
        #expect(a.timing.activeDuration() == end)
        // Where the cycle's progress says: a forward cycle at 50% or 75%; an autoreversing one
        // is at the turn after half a cycle (100) and half-way back after three quarters (50).
        let expected = autoreverses ? (count == 0.5 ? 100.0 : 50.0) : count * 100
        #expect(
          abs(valueX(a, at: end) - expected) < 1e-9, "held end, repeatCount \(count), autoreverses \(autoreverses)")
        #expect(abs(valueX(a, at: end + 10) - expected) < 1e-9)
        #expect(valueX(a, at: end - 0.01) != expected, "still moving just before the end")
        a.isRemovedOnCompletion = true
        #expect(valueX(a, at: end) == modelX, "removed at the end of the fractional cycle")
        #expect(valueX(a, at: end - 0.01) != modelX)
      }
    }
  }

  @Test func aHeldEndOnABoundaryBelongsToTheIterationThatEnds() {
    // offset 0.5 d and 1.5 cycles: the held end t = 2 d is the end of iteration 1.
    let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    a.duration = 1
    a.timeOffset = 0.5
    a.repeatCount = 1.5
    a.fillMode = .both
    a.isRemovedOnCompletion = false
    #expect(valueX(a, at: 5) == 100)
    a.autoreverses = true
    a.repeatCount = 0.75
    #expect(valueX(a, at: 5) == 0, "iteration 1 is the reversed half: it ends at the start value")
    #expect(valueX(a, at: -1) == 50, "a backwards fill shows the value at t = timeOffset")
  }

  @Test func layersWithAFiniteDurationFollowTheSameRules() {
    var t = MediaTiming(duration: 2, repeatCount: 1)
    t.timeOffset = 0.5
    #expect(abs(t.layerLocalTime(fromParent: 1.7) - 0.2) < 1e-12, "wrapped: t = 2.2 is 0.2 into iteration 1")
    #expect(t.layerLocalTime(fromParent: 5) == 0.5, "held at timeOffset + D = 2.5, i.e. 0.5 into iteration 1")
    #expect(t.layerLocalTime(fromParent: -1) == 0.5, "before the start: held at timeOffset")
    t.timeOffset = 0
    t.repeatCount = 0.5
    #expect(t.layerLocalTime(fromParent: 1.5) == 1, "half a cycle: held at 1 s from parent time 1")
    let infinite = MediaTiming(timeOffset: 0.5, duration: .infinity)
    #expect(abs(infinite.layerLocalTime(fromParent: 1.7) - 2.2) < 1e-12, "an infinite layer duration never wraps")

    // Through the tree: a child animation sees its layer's wrapped time.
    let root = Layer(bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(50, 50))
    let child = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(modelX, 0))
    root.addSublayer(child)
    let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    a.duration = 2
    a.repeatCount = .infinity
    child.add(a, forKey: "a")
    child.timing = MediaTiming(timeOffset: 0.5, duration: 2, repeatCount: 1)
    #expect(abs(child.presentation(at: 1.7).position.x - 10) < 1e-9)
  }

  @Test func groupChildrenSeeTheGroupsWrappedTime() {
    let child = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    child.duration = 2
    let g = AnimationGroup([child])
    g.duration = 2
    g.timeOffset = 1.5
    // ta = 1 -> t = 2.5 -> 0.5 s into iteration 1 -> the child is a quarter of the way.
    #expect(abs(valueX(g, at: 1) - 25) < 1e-9)
    #expect(valueX(g, at: 2) == modelX, "the group's period is [0, 2) whatever the offset")
  }
}
