import Testing

@testable import LayerModel

private func progress(_ t: MediaTiming, _ time: Double, removed: Bool = true) -> Double? {
  t.activeTime(atParentTime: time, removedOnCompletion: removed)?.progress
}

private func near(_ a: Double?, _ b: Double, _ eps: Double = 1e-12) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= eps
}

@Suite struct MediaTimingTests {
  @Test func durationAndDefault() {
    var t = MediaTiming(duration: 2)
    #expect(near(progress(t, 0), 0))
    #expect(near(progress(t, 0.5), 0.25))
    #expect(progress(t, 2) == nil, "removed at the end")
    #expect(progress(t, -0.1) == nil, "not started")
    t.duration = 0
    #expect(near(progress(t, 0.125), 0.5), "duration 0 means 0.25 s")
  }

  @Test func beginTimeSpeedAndTimeOffset() {
    var t = MediaTiming(beginTime: 1, duration: 2)
    #expect(progress(t, 0.5) == nil)
    #expect(near(progress(t, 2), 0.5))
    t.speed = 2
    #expect(near(progress(t, 1.5), 0.5))
    t.timeOffset = 0.5
    #expect(near(progress(t, 1.5), 0.75))
    #expect(near(t.localTime(fromParent: 3), 4.5))
    #expect(near(t.parentTime(fromLocal: 4.5), 3))
    t.speed = 0
    #expect(near(progress(t, 100), 0.25), "speed 0 holds at timeOffset")
  }

  @Test func repeatCountFractionalAndInfinite() {
    var t = MediaTiming(duration: 1, repeatCount: 2.5)
    #expect(near(progress(t, 1.25), 0.25))
    #expect(near(progress(t, 2.4), 0.4, 1e-9))
    #expect(progress(t, 2.5) == nil)
    #expect(t.activeDuration() == 2.5)
    t.repeatCount = .infinity
    #expect(near(progress(t, 1e6 + 0.5), 0.5, 1e-9))
    t.repeatCount = 0.5
    #expect(t.activeDuration() == 0.5, "repeatCount below 1 plays that fraction of one cycle")
    t.repeatCount = 0
    #expect(t.activeDuration() == 1, "repeatCount 0 plays one cycle")
  }

  @Test func repeatDurationOverridesRepeatCount() {
    let t = MediaTiming(duration: 1, repeatCount: 10, repeatDuration: 1.5)
    #expect(t.activeDuration() == 1.5)
    #expect(near(progress(t, 1.25), 0.25))
    #expect(progress(t, 1.5) == nil)
  }

  @Test func autoreversesMirrorsOddIterations() {
    let t = MediaTiming(duration: 2, repeatCount: .infinity, autoreverses: true)
    #expect(near(progress(t, 1), 0.5))
    #expect(near(progress(t, 2.5), 0.75))
    #expect(near(progress(t, 3), 0.5))
    #expect(near(progress(t, 4.5), 0.25))
    #expect(t.activeTime(atParentTime: 5, removedOnCompletion: true)?.cycle == 1)
    let once = MediaTiming(duration: 2, autoreverses: true)
    #expect(once.activeDuration() == 4, "a cycle lasts twice the duration")
  }

  @Test func fillModes() {
    var t = MediaTiming(beginTime: 1, duration: 1, fillMode: .backwards)
    #expect(near(progress(t, 0), 0))
    #expect(progress(t, 3, removed: false) == nil)
    t.fillMode = .forwards
    #expect(progress(t, 0) == nil)
    #expect(progress(t, 3) == nil, "removedOnCompletion wins over a forwards fill")
    #expect(near(progress(t, 3, removed: false), 1), "held at the end of the last iteration")
    t.fillMode = .both
    #expect(near(progress(t, 0), 0))
    #expect(near(progress(t, 3, removed: false), 1))
    t.fillMode = .removed
    #expect(progress(t, 0) == nil && progress(t, 3, removed: false) == nil)
  }

  @Test func endOfIterationEdges() {
    // Ending exactly after a reversed half holds the start value; a fractional end holds mid-way.
    var t = MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: .forwards)
    #expect(near(progress(t, 2, removed: false), 0))
    t.repeatCount = 1.25
    #expect(near(progress(t, 10, removed: false), 0.5))
    t = MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards)
    #expect(near(progress(t, 10, removed: false), 1))
    #expect(near(progress(t, 1, removed: false), 0), "an exact boundary inside the period starts the next iteration")
  }

  @Test func layerTimeHierarchyAndConvertTime() {
    let a = Layer(name: "a")
    let b = Layer(name: "b")
    let c = Layer(name: "c")
    a.addSublayer(b)
    b.addSublayer(c)
    a.beginTime = 1
    a.speed = 2
    b.timeOffset = 3
    c.speed = 0.5
    c.beginTime = 2
    // clock 5: a = (5-1)*2 = 8; b = 8 + 3 = 11; c = (11-2)*0.5 = 4.5
    #expect(near(c.localTime(atClockTime: 5), 4.5))
    #expect(near(c.convertTime(5, from: nil), 4.5))
    #expect(near(c.convertTime(4.5, to: nil), 5))
    #expect(near(c.convertTime(8, from: a), 4.5))
    #expect(near(a.convertTime(4.5, from: c), 8))
    #expect(near(b.convertTime(8, from: a), 11))
    let d = Layer(name: "d")
    b.addSublayer(d)
    d.speed = 3
    #expect(near(d.convertTime(4.5, from: c), 33))
    // speed 0 pauses: the subtree's animations stop at timeOffset.
    let paused = Layer()
    paused.speed = 0
    paused.timeOffset = 0.75
    #expect(paused.localTime(atClockTime: 100) == 0.75)
  }
}

@Suite struct TimingFunctionTests {
  /// An independent solve: bisection to the last bit.
  private func reference(_ f: TimingFunction, _ x: Double) -> Double {
    func bez(_ t: Double, _ a: Double, _ b: Double) -> Double {
      3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if bez(mid, f.c1x, f.c2x) < x { lo = mid } else { hi = mid }
    }
    return bez((lo + hi) / 2, f.c1y, f.c2y)
  }

  @Test func checkedValues() {
    #expect(abs(TimingFunction.easeInEaseOut(0.25) - 0.129162) < 1e-6)
    #expect(abs(TimingFunction.easeIn(0.5) - 0.315357) < 1e-6)
  }

  @Test func namedCurvesAgainstAnIndependentSolve() {
    for (name, f) in TimingFunction.named {
      for k in 0...1000 {
        let x = Double(k) / 1000
        #expect(abs(f(x) - reference(f, x)) <= 1e-7, "\(name) at \(x)")
      }
    }
  }

  @Test func customCurvesAndClamping() {
    let f = TimingFunction(0.9, -0.5, 0.1, 1.5)
    for k in 0...200 {
      let x = Double(k) / 200
      #expect(abs(f(x) - reference(f, x)) <= 1e-7)
    }
    #expect(f(-1) == f(0) && f(2) == f(1))
    #expect(TimingFunction.linear(0.3) == 0.3)
    let clamped = TimingFunction(-1, 0, 2, 1)
    #expect(clamped.c1x == 0 && clamped.c2x == 1)
    #expect(TimingFunction(named: "easeOut") == .easeOut && TimingFunction(named: "nope") == nil)
  }
}
