import Scenes
import TestSupport
import Testing
import Verification

@testable import LayerModel
@testable import Motion
@_spi(FaultInjection) @testable import Presentation

/// Counts the (time, point, layer) triples where the layer is a candidate for the point at a
/// time inside a window but its motion bound for the window does not hold the point: each is
/// a bound that is wrong. Points are on and near every layer's edges at each sampled time.
func motionBoundMisses(_ model: Layer, windows: [(Double, Double)], samples: Int = 9, seed: UInt64) -> (
  misses: Int, checked: Int
) {
  let builder = PresentationFrameBuilder(root: model)
  let motion = MotionBounds(scene: builder.scene)
  var rng = SplitMix64(seed: seed)
  var misses = 0
  var checked = 0
  for (t0, t1) in windows {
    motion.compute(from: t0, to: t1)
    let boxes = (0..<builder.layers.count).map { motion.box($0) }
    for i in 0..<samples {
      let t = t0 + (t1 - t0) * Double(i) / Double(samples - 1)
      let frame = builder.build(at: t)
      for p in RandomScene.points(for: frame, count: 150, rng: &rng) {
        for r in 0..<frame.count where frame.isCandidate(r, p) {
          checked += 1
          if !boxes[Int(frame.layer[r].rawValue)].holds(p) { misses += 1 }
        }
      }
    }
  }
  return (misses, checked)
}

@Suite struct MotionBoundsTests {
  /// Every kind of animation (every key path, mode, timing function, spring regime, path, group,
  /// additive, cumulative, layer timing) over windows from one frame to several seconds: the
  /// box holds every point where the layer is a candidate at any sampled time of the window.
  @Test func motionBoundsHoldEveryCandidate() {
    var checked = 0
    for seed in 0..<50 as Range<UInt64> {
      let model = everyKindScene(seed: seed, layers: 10...40, animations: 20)
      var rng = SplitMix64(seed: seed ^ 0xB0)
      let windows = (0..<3).map { _ -> (Double, Double) in
        let t0 = rng.uniform(-1, 6)
        return (t0, t0 + [1.0 / 120, 0.1, 0.7, 3][rng.below(4)])
      }
      let r = motionBoundMisses(model, windows: windows, seed: seed)
      #expect(r.misses == 0, "seed \(seed): \(r.misses) candidates outside their motion bounds")
      checked += r.checked
    }
    #expect(checked > 20_000, "\(checked) candidate points checked")
  }

  /// The generated scenes (particles' keyframe paths, the app's scrolls and springs, cards'
  /// zPosition and tilt, ...).
  @Test func generatedScenesStayInsideTheirBounds() {
    for kind in SceneKind.allCases {
      let model = SceneGenerator(kind: kind, layers: 400, animatedFraction: 0.8, seed: 9).make()
      let r = motionBoundMisses(model, windows: [(0.2, 0.2 + 1.0 / 60), (1.5, 2.0)], samples: 5, seed: 1)
      #expect(r.misses == 0, "\(kind): \(r.misses) of \(r.checked)")
    }
  }

  /// An animation outside its active period applies one value (as the evaluation's active-time
  /// rule): a backwards fill its start at its offset, a held end its last iteration's end. A
  /// window wholly before a filled start bounds the layer where it waits, not along its path
  /// (rows waiting to slide in), one wholly after a held end where it stopped, and one wholly
  /// before a start that is not filled or after an end that is not held where its model is (a
  /// row that has slid in and whose spring was removed); and every box
  /// holds the layer at every sampled time of windows before, across and after the active
  /// period, for each fill, offsets, autoreverses, repeats, negative speed and springs.
  @Test func fillsBoundTheHeldValueNotThePath() {
    // The root's bounds on the world's [0, 2000] (its anchor at its centre).
    let root = Layer(
      name: "root", bounds: Rect(x: 0, y: 0, width: 2000, height: 2000), position: Point(x: 1000, y: 1000))
    // (layer, whether its box before the start / after the end is its start / end alone, and
    // whether it is not applied there: then the model's, where the animation changes nothing)
    var waits: [(Layer, start: Bool, end: Bool, unappliedBefore: Bool, unappliedAfter: Bool)] = []
    var k = 0
    for fill in [FillMode.removed, .backwards, .forwards, .both] {
      for (offset, autoreverses, repeats, speed) in [
        (0.0, false, 0.0, 1.0), (0.3, false, 0.0, 1.0), (0, true, 0, 1), (0, false, 2.5, 1), (0, false, 0, -1),
      ] {
        for spring in [false, true] {
          let l = Layer(
            name: "l\(k)", bounds: Rect(x: 0, y: 0, width: 10, height: 10),
            position: Point(x: 100, y: 20 + 30 * Double(k)))
          k += 1
          let a =
            spring
            ? SpringAnimation(keyPath: .positionX, from: .scalar(100), to: .scalar(900))
            : BasicAnimation(keyPath: .positionX, from: .scalar(100), to: .scalar(900))
          a.timing = MediaTiming(
            beginTime: 2, timeOffset: offset, speed: speed, duration: 1, repeatCount: repeats,
            autoreverses: autoreverses, fillMode: fill)
          a.isRemovedOnCompletion = false
          l.add(a, forKey: "move")
          root.addSublayer(l)
          let plain = offset == 0 && !autoreverses && repeats == 0 && speed == 1 && !spring
          let once = speed == 1 && repeats == 0 && !autoreverses
          waits.append(
            (
              l, plain && (fill == .backwards || fill == .both), plain && (fill == .forwards || fill == .both),
              speed == 1 && !fill.fillsBackwards, once && !fill.fillsForwards
            ))
        }
      }
    }
    let windows = [(0.0, 1.0), (1.5, 2.5), (2.2, 2.8), (1.9, 6.0), (2.5, 5.0), (4.0, 6.0), (-3.0, -1.0)]
    let r = motionBoundMisses(root, windows: windows, seed: 3)
    #expect(r.misses == 0, "\(r.misses) of \(r.checked) candidates outside their motion bounds")
    #expect(r.checked > 1000, "\(r.checked) candidate points checked")
    let builder = PresentationFrameBuilder(root: root)
    let motion = MotionBounds(scene: builder.scene)
    for (l, start, end, unappliedBefore, unappliedAfter) in waits {
      let m = builder.scene.index[ObjectIdentifier(l)].map(Int.init)!
      // Windows wholly before the start and wholly after the end (of a plain timing).
      let before = motion.box(of: m, from: 0, to: 1.9)
      let after = motion.box(of: m, from: 3.1, to: 6)
      let name = l.name ?? ""
      // Not applied at any time of the window: the model's box (x = 100), not the path's.
      if unappliedBefore { #expect(before.minX > 90 && before.maxX < 110, "\(name): not yet applied, in \(before)") }
      if unappliedAfter { #expect(after.minX > 90 && after.maxX < 110, "\(name): no longer applied, in \(after)") }
      if start { #expect(before.minX > 90 && before.maxX < 200, "\(name): waiting at its start, in \(before)") }
      if end { #expect(after.minX > 800 && after.maxX < 910, "\(name): held at its end, in \(after)") }
    }
    #expect(
      waits.contains { $0.start } && waits.contains { $0.end } && waits.contains { $0.unappliedBefore }
        && waits.contains { $0.unappliedAfter })
  }

  /// A lean basic or spring record with both ends (a row sliding in, a spring on a position)
  /// reads its ends in place: the same intervals as through `_endpoints`, for every such
  /// record of random scenes, over random progress intervals and points and random underlying
  /// values.
  @Test func leanEndsReadInPlaceAsThroughTheirEndpoints() {
    var rng = SplitMix64(seed: 41)
    var compared = 0
    for seed in 0..<20 as Range<UInt64> {
      let builder = PresentationFrameBuilder(root: everyKindScene(seed: seed, layers: 20...40, animations: 40))
      let program = builder.scene.animations
      for k in 0..<program.records.count {
        let r = program.records[k]
        guard r.kind == .basic || r.kind == .spring, r.lane == .lean, r.endpointMask & 3 == 3 else { continue }
        let w = Int(r.width)
        for _ in 0..<20 {
          let a = rng.uniform(0, 1)
          let p = rng.below(3) == 0 ? Interval(a) : Interval(a).hull(rng.uniform(0, 1))
          var under = InlineArray<4, Interval>(repeating: Interval(0))
          for i in 0..<4 { under[i] = Interval(rng.uniform(-500, 500)).hull(rng.uniform(-500, 500)) }
          let fast = program._value(k, r, p, cycles: Interval(0, 1), under: under, w)
          let general = program._value(k, r, p, cycles: Interval(0, 1), under: under, w, leanInPlace: false)
          guard let fast, let general else {
            #expect(fast == nil && general == nil, "record \(k): one way unbounded")
            continue
          }
          for i in 0..<w { #expect(fast[i] == general[i], "record \(k) at \(p): \(fast[i]) against \(general[i])") }
          compared += 1
        }
      }
    }
    #expect(compared > 1000, "\(compared) values compared")
  }

  /// A layer whose animations change only its lean numbers is bounded through the lean state
  /// and its model transform's entries (`MotionBounds.leanOnly`): the same box, kind and
  /// region, bit for bit, as through the whole interval state, for every layer of scenes with
  /// every kind of animation (transforms, paths that turn, sublayer transforms among them) over
  /// windows from a frame to seconds, on both trees.
  @Test func leanStatesBoundAsTheWholeState() {
    var rng = SplitMix64(seed: 53)
    var lean = 0
    var compared = 0
    func same(_ a: Box, _ b: Box) -> Bool {
      func eq(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
      return eq(a.minX, b.minX) && eq(a.minY, b.minY) && eq(a.maxX, b.maxX) && eq(a.maxY, b.maxY)
    }
    for seed in 0..<40 as Range<UInt64> {
      let builder = PresentationFrameBuilder(root: everyKindScene(seed: seed, layers: 20...60, animations: 40))
      let fast = MotionBounds(scene: builder.scene)
      let whole = MotionBounds(scene: builder.scene)
      whole._leanStates = false
      // Held states are placed from their evaluation (`heldStatesKeptAcrossWindowsHoldEveryCandidate`).
      fast._holdsStates = false
      lean += (0..<builder.scene.count).count { fast.leanOnly[$0] }
      forEachLayerOverWindows(fast, whole, &rng) { m, local, t0, t1 in
        #expect(
          fast.kind[m] == whole.kind[m], "seed \(seed), layer \(m): kind \(fast.kind[m]) against \(whole.kind[m])")
        #expect(
          same(fast.box(m), whole.box(m)),
          "seed \(seed), layer \(m) over [\(t0), \(t1)]: \(fast.box(m)) against \(whole.box(m))")
        #expect(
          same(fast.region(of: m, local: local), whole.region(of: m, local: local)), "seed \(seed), layer \(m): region")
        compared += 1
      }
    }
    #expect(lean > 200 && compared > 5_000, "\(lean) lean layers, \(compared) boxes compared")
  }

  /// Maps that only translate, kept as their translation (`MotionBounds.shift`: a row, a
  /// section, a scroll view's content), place every layer where the interval maps and their
  /// products do: the same box and region, bit for bit, and the same kind but for
  /// `.translated` standing for `.interval`, for every layer of interface scenes and scenes
  /// with every kind of animation, over windows from a frame to seconds, on both trees.
  /// (Leaving the parent's translation out of a child's fails it.)
  @Test func translatedMapsPlaceAsTheirProducts() {
    let models = namedModels([.app, .ui, .idle, .particles], seed: 7, everyKind: 30, layers: 20...60, animations: 40)
    var rng = SplitMix64(seed: 67)
    var translated = 0
    var compared = 0
    for (name, model) in models {
      let builder = PresentationFrameBuilder(root: model)
      let shifts = MotionBounds(scene: builder.scene)
      let products = MotionBounds(scene: builder.scene)
      products._shifts = false
      forEachLayerOverWindows(shifts, products, &rng) { m, local, t0, t1 in
        let kind = shifts.kind[m] == .translated ? .interval : shifts.kind[m]
        if shifts.kind[m] == .translated { translated += 1 }
        #expect(kind == products.kind[m], "\(name), layer \(m): kind \(shifts.kind[m]) against \(products.kind[m])")
        #expect(
          shifts.box(m) == products.box(m),
          "\(name), layer \(m) over [\(t0), \(t1)]: \(shifts.box(m)) against \(products.box(m))")
        #expect(
          shifts.region(of: m, local: local) == products.region(of: m, local: local), "\(name), layer \(m): region")
        compared += 1
      }
    }
    #expect(translated > 2_000 && compared > 10_000, "\(translated) translated layers, \(compared) compared")
  }

  /// A layer whose records hold one state over a window (rows waiting to slide in, settled
  /// springs, fades before and after) is placed from that state, kept across the windows that
  /// find its records on the same sides of their active periods: over consecutive windows
  /// through their starts and ends (one bounds instance throughout, as a strategy keeps it),
  /// every point where a layer is a candidate at a sampled time stays inside its bound, and
  /// kept placements were read. (Taking a kept placement whatever the sides fails it.)
  @Test func heldStatesKeptAcrossWindowsHoldEveryCandidate() {
    let models = namedModels([.app, .ui, .idle], seed: 5, everyKind: 12, layers: 10...40, animations: 20)
    var rng = SplitMix64(seed: 61)
    var reads = 0
    var checked = 0
    for (name, model) in models {
      let builder = PresentationFrameBuilder(root: model)
      let motion = MotionBounds(scene: builder.scene)
      var t0 = -0.5
      while t0 < 6.5 {
        let t1 = t0 + [1.0 / 30, 0.1, 0.4][rng.below(3)]
        motion.compute(from: t0, to: t1)
        let boxes = (0..<builder.layers.count).map { motion.box($0) }
        var misses = 0
        for t in [t0, (t0 + t1) / 2, t1] {
          let frame = builder.build(at: t)
          for p in RandomScene.points(for: frame, count: 60, rng: &rng) {
            for r in 0..<frame.count where frame.isCandidate(r, p) {
              checked += 1
              if !boxes[Int(frame.layer[r].rawValue)].holds(p) { misses += 1 }
            }
          }
        }
        #expect(misses == 0, "\(name) over [\(t0), \(t1)]: \(misses) candidates outside their bounds")
        t0 = t1
      }
      #if HITBENCH_INTERNAL_CHECKS
        reads += motion._heldReads
      #endif
    }
    #expect(checked > 50_000, "\(checked) candidate points checked")
    #if HITBENCH_INTERNAL_CHECKS
      #expect(reads > 1_000, "\(reads) kept placements read")
    #endif
  }

  /// A layer's box and a region through its map at once (a group's root and hull,
  /// `box(of:region:from:to:)`) answer what `box(of:from:to:)` and `region(of:local:)` answer
  /// one after the other, except that a layer that does not clip, whose region holds its own
  /// bounds, may take the region's box as its own (one image; their union is the same): for
  /// every layer of random scenes over random windows and regions, holding and not holding the
  /// layer's bounds.
  @Test func aBoxAndARegionAtOnceAsEachAlone() {
    var rng = SplitMix64(seed: 67)
    var (same, widened) = (0, 0)
    func holds(_ a: Box, _ b: Box) -> Bool {
      b.isEmpty || (a.minX <= b.minX && a.minY <= b.minY && a.maxX >= b.maxX && a.maxY >= b.maxY)
    }
    for seed in 0..<60 as Range<UInt64> {
      let builder = PresentationFrameBuilder(root: everyKindScene(seed: seed, layers: 20...60, animations: 40))
      let scene = builder.scene
      let atOnce = MotionBounds(scene: scene)
      let alone = MotionBounds(scene: scene)
      for _ in 0..<4 {
        let t0 = rng.uniform(-1, 6)
        let t1 = t0 + [0, 1.0 / 120, 0.1, 0.7, 3][rng.below(5)]
        for m in 0..<scene.count {
          let bounds = scene.lean[m].bounds
          let x0 = bounds.origin.x
          let y0 = bounds.origin.y
          // Half the regions hold the layer's model bounds (a group's hull holds its root's).
          let pad = rng.below(2) == 0 ? rng.uniform(0, 40) : -rng.uniform(1, 40)
          let region = Box(
            minX: x0 - pad, minY: y0 - rng.uniform(0, 40), maxX: x0 + bounds.size.width + rng.uniform(0, 40),
            maxY: y0 + bounds.size.height + rng.uniform(0, 40))
          let (box, image) = atOnce.box(of: m, region: region, from: t0, to: t1)
          let b = alone.box(of: m, from: t0, to: t1)
          let r = alone.region(of: m, local: region)
          #expect(image == r, "seed \(seed), layer \(m) over [\(t0), \(t1)]: region \(image) against \(r)")
          if box == b {
            same += 1
          } else {
            widened += 1
            #expect(
              !alone._clips(m) && box == r && holds(r, b),
              "seed \(seed), layer \(m) over [\(t0), \(t1)]: box \(box) against \(b) and region \(r)")
          }
        }
      }
    }
    #expect(same > 2_000 && widened > 100, "\(same) boxes the same, \(widened) the region's")
  }

  /// A number times an interval takes two products where the number is a point (`Interval *
  /// Double`, `times`): the same ends as the four products (zeros of either sign alike), for
  /// zeros, signed zeros, infinities
  /// (whose product with zero makes the whole line) and ordinary values.
  @Test func aPointTimesAnIntervalAsTheFourProducts() {
    var rng = SplitMix64(seed: 59)
    func same(_ a: Interval, _ b: Interval) -> Bool {
      (a.lo == b.lo || a.lo.isNaN && b.lo.isNaN) && (a.hi == b.hi || a.hi.isNaN && b.hi.isNaN)
    }
    func number() -> Double {
      switch rng.below(8) {
      case 0: 0
      case 1: -0.0
      case 2: [Double.infinity, -.infinity, 1e300, -1e-300][rng.below(4)]
      default: rng.uniform(-1000, 1000)
      }
    }
    for _ in 0..<20_000 {
      let a = Interval(number()).hull(number())
      let k = number()
      let four = a * Interval(k)
      for two in [a * k, a.times(Interval(k))] {
        #expect(same(two, four), "\(a) times \(k): \(two) against \(four)")
      }
      // A point of zeros of both signs (`times` takes its lower end) gives zeros of either sign.
      let b = Interval(number()).hull(number())
      #expect(same(a.times(b), a * b), "\(a) times \(b): \(a.times(b)) against \(a * b)")
    }
  }

  /// A spring's displacement over an interval of seconds holds its displacement at every
  /// sampled second of it, in every regime (underdamped, critically damped, overdamped, at
  /// rest), for spans from a point to two seconds, early and late, and at its start; and the
  /// underdamped oscillation, one cosine of a shifted angle, is never wider than a cosine and a sine
  /// bounded apart (up to its rounding pad), and narrower in most spans.
  @Test func springDisplacementOverSecondsHoldsItsSamples() {
    var rng = SplitMix64(seed: 47)
    var checked = 0
    var narrower = 0
    var underdamped = 0
    for n in 0..<4000 {
      let mass = rng.uniform(0.1, 5)
      let stiffness = rng.uniform(1, 1000)
      // Every eighth critically damped, every eighth undamped, the rest anything.
      let damping =
        n % 8 == 0
        ? 2 * (stiffness * mass).squareRoot() : n % 8 == 1 ? 0 : rng.uniform(0, 4 * (stiffness * mass).squareRoot())
      let c = SpringCoefficients(
        mass: mass, stiffness: stiffness, damping: damping, initialVelocity: rng.uniform(-50, 50))
      // Every sixteenth at rest at its start (a backwards fill before it begins).
      let start = n % 16 == 3 ? 0 : rng.uniform(0, 30)
      let width = n % 16 == 3 ? 0 : [0, 1e-9, rng.uniform(0, 0.05), rng.uniform(0, 2)][rng.below(4)]
      let seconds = Interval(start, start + width)
      let d = c.displacement(over: seconds)
      for i in 0...32 {
        let t = Swift.min(seconds.lo + width * Double(i) / 32, seconds.hi)
        let x = c.displacement(at: t)
        #expect(d.lo <= x && x <= d.hi, "regime \(c.regime) over \(seconds): \(x) at \(t) outside \(d)")
        checked += 1
      }
      guard c.regime == 1 else { continue }
      underdamped += 1
      let angle = seconds * Interval(c.c1)
      let decay = seconds * Interval(c.c0)
      let apart = Interval(_exp(decay.lo), _exp(decay.hi)) * (angle.cosine + Interval(c.c2) * angle.sine)
      let slack = 1e-9 * c.amplitude
      #expect(d.hi - d.lo <= apart.hi - apart.lo + slack, "over \(seconds): \(d) against \(apart)")
      if d.hi - d.lo < (apart.hi - apart.lo) * 0.99 { narrower += 1 }
    }
    #expect(
      checked == 4000 * 33 && underdamped > 1000 && narrower > underdamped / 4, "\(narrower) of \(underdamped) narrower"
    )
  }

  /// Interval maps whose linear part is exact (every entry a point: layers that only move)
  /// compose and map boxes by one multiplication a product: the same intervals as the general
  /// products, for random maps with zero, negative, tiny, huge and infinite entries and
  /// translations, exact or not (a difference would be a bound the fast path changed).
  @Test func exactLinearMapsComposeAsTheGeneralProducts() {
    var rng = SplitMix64(seed: 21)
    func number() -> Double {
      switch rng.below(10) {
      case 0: 0
      case 1: -0.0
      case 2: 1
      case 3: [Double.infinity, -.infinity, 1e300, -1e-300][rng.below(4)]
      default: rng.uniform(-1000, 1000)
      }
    }
    func interval(point: Bool) -> Interval {
      let x = number()
      return point ? Interval(x) : Interval(x).hull(number())
    }
    func map(exactLinear: Bool) -> IntervalAffine {
      let t = (interval(point: rng.below(2) == 0), interval(point: rng.below(2) == 0))
      if exactLinear && rng.below(3) == 0 {
        // A map that only translates (the identity's zeros of either sign).
        let zero = { [0.0, -0.0][rng.below(2)] }
        return IntervalAffine(
          a: Interval(1), b: Interval(zero()), c: Interval(zero()), d: Interval(1), tx: t.0, ty: t.1)
      }
      return IntervalAffine(
        a: interval(point: exactLinear), b: interval(point: exactLinear), c: interval(point: exactLinear),
        d: interval(point: exactLinear), tx: t.0, ty: t.1)
    }
    func same(_ a: Interval, _ b: Interval) -> Bool {
      (a.lo == b.lo || a.lo.isNaN && b.lo.isNaN) && (a.hi == b.hi || a.hi.isNaN && b.hi.isNaN)
    }
    var exact = 0
    var translated = 0
    for _ in 0..<20_000 {
      let s = map(exactLinear: rng.below(8) != 0)
      let o = map(exactLinear: rng.below(8) != 0)
      let fast = IntervalAffine.concat(s, o)
      let general = IntervalAffine._concatGeneral(s, o)
      if s.linearIsExact && o.linearIsExact { exact += 1 }
      for (f, g) in [
        (fast.a, general.a), (fast.b, general.b), (fast.c, general.c), (fast.d, general.d), (fast.tx, general.tx),
        (fast.ty, general.ty),
      ] {
        #expect(same(f, g), "concat \(s) then \(o): \(f) against \(g)")
      }
      let l = Box(minX: number(), minY: number(), maxX: number(), maxY: number())
      let a = s._image(of: l, exactFirst: true)
      let b = s._image(of: l, exactFirst: false)
      let (da, db) = (s._determinant(exactFirst: true), s._determinant(exactFirst: false))
      #expect(
        same(a.x, b.x) && same(a.y, b.y) && same(da, db), "image of \(l) under \(s): \(a), \(da) against \(b), \(db)")
      // Two boxes at once as each alone.
      let r = Box(minX: number(), minY: number(), maxX: number(), maxY: number())
      let (bl, br) = s.boxes(of: l, r)
      #expect(bl == s.box(of: l) && br == (r.isEmpty ? .nothing : s.box(of: r)), "boxes of \(l) and \(r) under \(s)")
      // A map that only translates takes its own path: the general one's box.
      let generalBox = s._box(of: l, s._inverseBound())
      #expect(s.box(of: l) == generalBox, "box of \(l) under \(s): \(s.box(of: l)) against \(generalBox)")
      if s._translatedBox(of: l) != nil { translated += 1 }
    }
    #expect(exact > 10_000, "the exact path was exercised (\(exact))")
    #expect(translated > 500, "boxes under translations: \(translated)")
  }

  /// Exact linear bounds (piecewise-linear motions under fixed parents): the box interpolated at
  /// every sampled time holds every candidate point of the layer then.
  @Test func linearBoundsHoldEveryCandidate() {
    var qualified = 0
    for kind in [SceneKind.particles, .app, .wide, .clipped] {
      let model = SceneGenerator(kind: kind, layers: 600, animatedFraction: 1, seed: 4).make()
      let builder = PresentationFrameBuilder(root: model)
      let motion = MotionBounds(scene: builder.scene)
      var rng = SplitMix64(seed: 8)
      for (t0, t1) in [(0.3, 0.3 + 1.0 / 30), (1.0, 1.8), (2.5, 5.5)] {
        let bounds = (0..<builder.layers.count).map { motion.linearBounds(of: $0, from: t0, to: t1) }
        qualified += bounds.compactMap { $0 }.count
        for i in 0..<7 {
          let s = Double(i) / 6
          let frame = builder.build(at: t0 + (t1 - t0) * s)
          for p in RandomScene.points(for: frame, count: 200, rng: &rng) {
            for r in 0..<frame.count where frame.isCandidate(r, p) {
              guard let b = bounds[Int(frame.layer[r].rawValue)] else { continue }
              let at = Box(
                minX: b.start.minX + (b.end.minX - b.start.minX) * s,
                minY: b.start.minY + (b.end.minY - b.start.minY) * s,
                maxX: b.start.maxX + (b.end.maxX - b.start.maxX) * s,
                maxY: b.start.maxY + (b.end.maxY - b.start.maxY) * s)
              #expect(at.holds(p), "\(kind) layer \(frame.layer[r]) at \(t0 + (t1 - t0) * s): \(p) outside \(at)")
            }
          }
        }
      }
    }
    #expect(qualified > 500, "linear bounds were exercised (\(qualified))")
  }

  /// The closed form for a layer whose animation moves only its position (knots, one shape
  /// translated, `_translatedLines`) holds, interpolated at every sampled time of the window,
  /// the general path's box there (`_linearBox` at the evaluation's progress: the frame's own
  /// padded box): for every qualifying layer of random scenes (transforms, anchors, a rotated
  /// and scaled parent, additive and autoreversed motion) and generated ones, over windows
  /// inside one iteration and across boundaries, with and without a region.
  @Test func translatedLinesHoldTheGeneralBoxes() {
    var checked = 0
    var lines = 0
    var exact = 0
    var rng = SplitMix64(seed: 77)
    var models = (0..<30).map { _ in Self.translatedLayers(&rng) }
    models += [SceneKind.particles, .app, .wide].map {
      SceneGenerator(kind: $0, layers: 300, animatedFraction: 1, seed: 5).make()
    }
    for model in models {
      let builder = PresentationFrameBuilder(root: model)
      let scene = builder.scene
      let motion = MotionBounds(scene: scene)
      for m in 0..<scene.count where motion.piecewiseLinear[m] {
        let k = Int(scene.animationStart[m])
        guard scene.animations.changesPositionOnly(k) else { continue }
        let p = Int(scene.parent[m])
        motion.lazy.ensure(p)
        let parent = motion.lazy.frame.toWorld[p]
        let x = rng.uniform(-300, 300)
        let y = rng.uniform(-300, 300)
        let region = Box(minX: x, minY: y, maxX: x + rng.uniform(0, 500), maxY: y + rng.uniform(0, 500))
        for r in [nil, region] {
          let t0 = rng.uniform(0, 5)
          let t1 = t0 + [1.0 / 60, 0.25, 1, 4][rng.below(4)]
          guard let b = motion.linearBounds(of: m, region: r, from: t0, to: t1) else { continue }
          lines += 1
          if b.exactWithin.isFinite { exact += 1 }
          checked += Self.expectLinesHoldTheGeneralBoxes(
            b, motion, m, parent: parent, region: r, from: t0, to: t1, samples: 40)
        }
      }
    }
    #expect(lines > 400 && exact > 100 && checked > 10_000, "\(lines) lines, \(exact) exact, \(checked) boxes checked")
  }

  /// Expects lines `b` of layer m over [t0, t1], interpolated at `samples` + 1 evenly spaced
  /// times, to hold the general path's box there (`_linearBox` at the evaluation's progress:
  /// the frame's own padded box); answers how many times were checked.
  static func expectLinesHoldTheGeneralBoxes(
    _ b: (start: Box, end: Box, exactWithin: Double), _ motion: MotionBounds, _ m: Int, parent: AffineMap,
    region: Box?, from t0: Double, to t1: Double, samples: Int
  ) -> Int {
    let k = Int(motion.scene.animationStart[m])
    var checked = 0
    for i in 0...samples {
      let t = i == samples ? t1 : t0 + (t1 - t0) * Double(i) / Double(samples)
      guard let f = motion.scene.animations.progress(k, atLocalTime: t),
        let general = motion._linearBox(m, k, f, parent, region)
      else { continue }
      let s = (t - t0) / (t1 - t0)
      let at = Box(
        minX: b.start.minX + (b.end.minX - b.start.minX) * s, minY: b.start.minY + (b.end.minY - b.start.minY) * s,
        maxX: b.start.maxX + (b.end.maxX - b.start.maxX) * s, maxY: b.start.maxY + (b.end.maxY - b.start.maxY) * s)
      #expect(
        at.minX <= general.minX && at.minY <= general.minY && at.maxX >= general.maxX && at.maxY >= general.maxY,
        "layer \(m), window [\(t0), \(t1)] at \(t): \(general) outside \(at)")
      // Exact lines are the box itself, moved out by at most their pads (the general box is
      // moved out by as much at most).
      let e = 2 * b.exactWithin
      #expect(
        !e.isFinite
          || (at.minX >= general.minX - e && at.minY >= general.minY - e && at.maxX <= general.maxX + e
            && at.maxY <= general.maxY + e),
        "layer \(m), window [\(t0), \(t1)] at \(t): exact lines \(at) stray from \(general)")
      checked += 1
    }
    return checked
  }

  /// Kept pieces (`reusesPieces`, as a window's builder keeps them) answer windows that follow
  /// one another, each with the lines from the knots of the piece it lies in, its ends
  /// interpolated: at every sampled time of every window, they hold the general path's box
  /// (`_linearBox` at the evaluation's progress), for the random translated layers and the
  /// generated scenes, windows of 1/120 s to 1.5 s (the longer ones with a piece's knots
  /// inside), with and without a region (one per layer, as a builder's hulls are).
  @Test func keptPiecesHoldTheGeneralBoxes() {
    var rng = SplitMix64(seed: 31)
    var models = (0..<TestSize.pick(full: 30, fast: 12)).map { _ in Self.translatedLayers(&rng) }
    models += [SceneKind.particles, .app].map {
      SceneGenerator(kind: $0, layers: 200, animatedFraction: 1, seed: 6).make()
    }
    var checked = 0
    var fromPieces = 0
    var withKnotsInside = 0
    var exact = 0
    for model in models {
      let builder = PresentationFrameBuilder(root: model)
      let scene = builder.scene
      let motion = MotionBounds(scene: scene)
      motion.reusesPieces = true
      for m in 0..<scene.count where motion.translates[m] {
        let p = Int(scene.parent[m])
        motion.lazy.ensure(p)
        let parent = motion.lazy.frame.toWorld[p]
        let x = rng.uniform(-300, 300)
        let y = rng.uniform(-300, 300)
        let region =
          rng.below(2) == 0 ? nil : Box(minX: x, minY: y, maxX: x + rng.uniform(0, 500), maxY: y + rng.uniform(0, 500))
        var t0 = rng.uniform(0, 4)
        for _ in 0..<16 {
          let t1 = t0 + [1.0 / 120, 1.0 / 60, 0.1, 0.25, 0.6, 1.5][rng.below(6)]
          defer { t0 = t1 }
          if let span = motion._pieceSpan(m, from: t0, to: t1) {
            fromPieces += 1
            if span.last > span.first { withKnotsInside += 1 }
          }
          guard let b = motion.linearBounds(of: m, region: region, from: t0, to: t1) else { continue }
          if b.exactWithin.isFinite { exact += 1 }
          checked += Self.expectLinesHoldTheGeneralBoxes(
            b, motion, m, parent: parent, region: region, from: t0, to: t1, samples: 20)
        }
      }
    }
    // The memory docs/time-aware.md states: 64 bytes a piece and 24 a knot.
    #expect(MemoryLayout<_TranslatedPiece>.stride == 64 && MemoryLayout<_PieceKnot>.stride == 24)
    #expect(
      fromPieces > 1_000 && withKnotsInside > 100 && exact > 500 && checked > 20_000,
      "\(fromPieces) windows from kept pieces, \(withKnotsInside) with knots inside, \(exact) exact, \(checked) boxes checked"
    )
  }

  /// A scene change forgets the kept pieces: a layer's motion replaced after a window kept its
  /// piece is bounded by the new motion in the next window, which lies inside the old piece.
  @Test func aSceneChangeForgetsTheKeptPieces() {
    let root = Layer(bounds: Rect(x: 0, y: 0, width: 800, height: 600), position: Point(400, 300))
    let layer = Layer(bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(100, 100))
    root.addSublayer(layer)
    func move(to x: Double) {
      let a = BasicAnimation(keyPath: .position, from: .point(Point(100, 100)), to: .point(Point(x, 100)))
      a.duration = 10
      layer.add(a, forKey: "move")
    }
    move(to: 200)
    let builder = PresentationFrameBuilder(root: root)
    let scene = builder.scene
    let motion = MotionBounds(scene: scene)
    motion.reusesPieces = true
    let m = 1
    #expect(motion.translates[m])
    _ = motion.linearBounds(of: m, from: 1, to: 1.1)
    #expect(motion._pieceSpan(m, from: 1.1, to: 1.2) != nil, "the first window kept a piece reaching past it")
    move(to: 700)
    _ = scene.synchronize()
    motion.resynchronize()
    guard let b = motion.linearBounds(of: m, from: 1.1, to: 1.2) else {
      Issue.record("no lines after the change")
      return
    }
    // At t = 1.2 the layer's position is 100 + 600 x 0.12 = 172 (its box 162 to 182 in x).
    #expect(b.end.maxX >= 182 - 1e-9 && b.end.minX <= 162 + 1e-9, "\(b.end) after the change")
  }

  /// What an index lists for translated lines (the union of their two ends) is never more than
  /// `MotionBounds.linesAtMost` times the motion's own hull over the window (the general boxes
  /// at dense times, a lower bound of the hull): lines bent by a jump or a turn give way to
  /// the hull. Windows of a quarter to four seconds over repeating, autoreversing or not.
  @Test func translatedLinesListAtMostTheirShareOfTheHull() {
    var rng = SplitMix64(seed: 5)
    var checked = 0
    var hulls = 0
    for _ in 0..<20 {
      let builder = PresentationFrameBuilder(root: Self.translatedLayers(&rng))
      let scene = builder.scene
      let motion = MotionBounds(scene: scene)
      for m in 0..<scene.count where motion.translates[m] {
        let k = Int(scene.animationStart[m])
        let p = Int(scene.parent[m])
        motion.lazy.ensure(p)
        let parent = motion.lazy.frame.toWorld[p]
        let t0 = rng.uniform(0, 5)
        let t1 = t0 + [0.25, 1, 4][rng.below(3)]
        guard let b = motion.linearBounds(of: m, from: t0, to: t1) else { continue }
        var hull = Box.nothing
        for i in 0...400 {
          let t = t0 + (t1 - t0) * Double(i) / 400
          if let f = scene.animations.progress(k, atLocalTime: t), let g = motion._linearBox(m, k, f, parent, nil) {
            hull = hull.union(g)
          }
        }
        guard !hull.isEmpty else { continue }
        let u = b.start.union(b.end)
        let area = (u.maxX - u.minX) * (u.maxY - u.minY)
        let hullArea = (hull.maxX - hull.minX) * (hull.maxY - hull.minY)
        // The sampled hull misses at most a sample step of motion at each end: 1% slack.
        #expect(area <= MotionBounds.linesAtMost * hullArea * 1.01, "layer \(m), [\(t0), \(t1)]: \(u) against \(hull)")
        if b.start == b.end { hulls += 1 }
        checked += 1
      }
    }
    #expect(checked > 100 && hulls > 5, "\(checked) lines checked, \(hulls) gave way to the hull")
  }

  /// Layers under a still, rotated and scaled parent, each with its own affine transform,
  /// anchor and bounds origin, moved by one piecewise-linear animation of position, position.x,
  /// position.y or opacity (basic from-to, by, or linear keyframes), at various speeds (some
  /// backwards), begin times and offsets.
  static func translatedLayers(_ rng: inout SplitMix64) -> Layer {
    let root = Layer(bounds: Rect(x: 0, y: 0, width: 800, height: 600), position: Point(400, 300))
    let parent = Layer(bounds: Rect(x: -20, y: 10, width: 500, height: 400), position: Point(300, 250))
    parent.transform = .rotation(rng.uniform(-3, 3), 0, 0, 1).scaled(rng.uniform(0.2, 3), rng.uniform(0.2, 3), 1)
    root.addSublayer(parent)
    for _ in 0..<12 {
      let l = Layer(
        bounds: Rect(
          x: rng.uniform(-50, 50), y: rng.uniform(-50, 50), width: rng.uniform(1, 80), height: rng.uniform(1, 80)),
        position: Point(rng.uniform(-100, 400), rng.uniform(-100, 400)))
      l.anchorPoint = Point(rng.uniform(-0.5, 1.5), rng.uniform(-0.5, 1.5))
      l.transform = .affine(
        a: rng.uniform(-2, 2), b: rng.uniform(-2, 2), c: rng.uniform(-2, 2), d: rng.uniform(-2, 2),
        tx: rng.uniform(-30, 30), ty: rng.uniform(-30, 30))
      let a: PropertyAnimation
      switch rng.below(5) {
      case 0:
        a = BasicAnimation(keyPath: .position, from: .point(Point(0, 0)), to: .point(Point(rng.uniform(-500, 500), 90)))
      case 1: a = BasicAnimation(keyPath: .positionX, by: .scalar(rng.uniform(-300, 300)))
      case 2: a = BasicAnimation(keyPath: .positionY, from: .scalar(-40), to: .scalar(rng.uniform(-300, 300)))
      case 3: a = BasicAnimation(keyPath: .opacity, from: .scalar(0), to: .scalar(1))
      default:
        let k = KeyframeAnimation(keyPath: .position)
        k.values = (0..<(2 + rng.below(3))).map { _ in .point(Point(rng.uniform(-400, 400), rng.uniform(-400, 400))) }
        a = k
      }
      a.duration = rng.uniform(0.2, 3)
      a.repeatCount = .infinity
      a.autoreverses = rng.below(2) == 0
      // Other clocks: faster, slower, backwards (from a begin time after the windows, so that
      // they run inside the active period), offset.
      a.speed = [1, 1, 2.5, 0.4, -1, -0.7][rng.below(6)]
      a.beginTime = a.speed < 0 ? 9 : rng.uniform(-1, 1)
      a.timeOffset = rng.uniform(0, 1)
      l.add(a, forKey: "move")
      parent.addSublayer(l)
    }
    return root
  }

  /// A bound one point too small on each side is caught: by the property above, and by the
  /// verification of every time-aware strategy.
  @Test func aMotionBoundOneUnitTooSmallIsCaught() {
    let model = SceneGenerator(kind: .particles, layers: 300, animatedFraction: 0.7, seed: 3).make()
    let builder = PresentationFrameBuilder(root: model)
    builder.scene._faults.shrinkMotionBounds = 1
    let motion = MotionBounds(scene: builder.scene)
    motion.compute(from: 0.5, to: 0.6)
    var rng = SplitMix64(seed: 2)
    var misses = 0
    let frame = builder.build(at: 0.55)
    for p in RandomScene.points(for: frame, count: 400, rng: &rng) {
      for r in 0..<frame.count where frame.isCandidate(r, p) && !motion.box(Int(frame.layer[r].rawValue)).holds(p) {
        misses += 1
      }
    }
    #expect(misses > 0, "a 1 pt shrink of every motion bound went unseen")

    var verifier = Verifier()
    verifier.scenes = 30
    verifier.points = 300
    verifier.seed = 11
    verifier.generator = RandomScene(layerCount: 10...60, hostile: true, animatedFraction: 0.8)
    verifier.strategies = [.windowGrid, .staggerGrid, .linearBVH]
    verifier.fault = .motionShrink(1)
    let report = verifier.run()
    for kind in verifier.strategies {
      #expect(
        report.disagreements(of: kind) > 0,
        "\(kind.rawValue) with every motion bound 1 pt too small passed verification")
    }
  }
}

/// Exact lines over windows that end on an iteration boundary (docs/time-aware.md, "Iteration
/// boundaries"): a repeating animation jumps back to its start there, and a
/// window whose end's local time rounds onto the boundary must hold the motion just before it
/// (the end of the iteration) as well as the value at its end (the start of the next).
@Suite struct IterationBoundaryLinesTests {
  /// A 40x40 layer moved by a piecewise-linear animation (no timing function) of duration d.
  static func layer(_ kind: Int, duration d: Double, begin: Double, offset: Double) -> Layer {
    let root = Layer(bounds: Rect(x: 0, y: 0, width: 400, height: 600), position: Point(200, 300))
    let box = Layer(bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(0, 0))
    let a: PropertyAnimation
    switch kind {
    case 0: a = BasicAnimation(keyPath: .position, from: .point(Point(0, 0)), to: .point(Point(300, 500)))
    case 1:
      let k = KeyframeAnimation(keyPath: .position)
      k.values = [.point(Point(0, 0)), .point(Point(300, 500)), .point(Point(100, 50))]
      a = k
    default: a = BasicAnimation(keyPath: .boundsWidth, from: .scalar(40), to: .scalar(300))
    }
    a.duration = d
    a.repeatCount = kind == 1 ? 3 : .infinity
    a.beginTime = begin
    a.timeOffset = offset
    box.add(a, forKey: "m")
    root.addSublayer(box)
    return root
  }

  /// An autoreversing move turns at an iteration boundary without a jump: exact lines over a
  /// window centred on the turn stay within the motion's hull there (the general boxes at dense
  /// times of the window). Lines that took the start and end of the path as
  /// the boundary's values (a jump that never happens) reached back to the path's start and
  /// doubled the candidates a query tests on particles.
  @Test func linesAcrossAnAutoreversedTurnStayWithinTheMotion() {
    for keyframes in [false, true] {
      let root = Layer(bounds: Rect(x: 0, y: 0, width: 400, height: 600), position: Point(200, 300))
      let box = Layer(bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(0, 0))
      let a: PropertyAnimation
      if keyframes {
        let k = KeyframeAnimation(keyPath: .position)
        k.values = [.point(Point(0, 0)), .point(Point(100, 20)), .point(Point(300, 500))]
        a = k
      } else {
        a = BasicAnimation(keyPath: .position, from: .point(Point(0, 0)), to: .point(Point(300, 500)))
      }
      a.duration = 1
      a.repeatCount = .infinity
      a.autoreverses = true
      box.add(a, forKey: "m")
      root.addSublayer(box)
      let builder = PresentationFrameBuilder(root: root)
      let scene = builder.scene
      let motion = MotionBounds(scene: scene)
      let k = Int(scene.animationStart[1])
      motion.lazy.ensure(0)
      let parent = motion.lazy.frame.toWorld[0]
      // Windows centred on a turn: the chord is a point, so the lines hold exactly the hull.
      for (t0, t1) in [(0.9, 1.1), (1.85, 2.15), (2.95, 3.05)] {
        guard let b = motion.linearBounds(of: 1, from: t0, to: t1) else {
          Issue.record("no lines over [\(t0), \(t1)]")
          continue
        }
        var hull = Box.nothing
        for i in 0...1000 {
          let t = t0 + (t1 - t0) * Double(i) / 1000
          if let f = scene.animations.progress(k, atLocalTime: t), let g = motion._linearBox(1, k, f, parent, nil) {
            hull = hull.union(g)
          }
        }
        let u = b.start.union(b.end)
        let slack = 1e-6
        #expect(
          u.minX >= hull.minX - slack && u.minY >= hull.minY - slack && u.maxX <= hull.maxX + slack
            && u.maxY <= hull.maxY + slack,
          "keyframes \(keyframes), [\(t0), \(t1)]: lines \(u) beyond the motion \(hull)")
      }
    }
  }

  /// Every window ending on (or one ulp either side of) the clock time of an iteration's end:
  /// the lines, interpolated at each sampled time up to the end, hold the layer's candidate
  /// points then. Before the fix the lines ran from the window's start to the next iteration's
  /// start, missing the layer by hundreds of points just before the end.
  @Test(arguments: [0, 1, 2])
  func linesHoldTheMotionUpToAnIterationEnd(_ kind: Int) {
    var checked = 0
    var qualified = 0
    var rng = SplitMix64(seed: UInt64(kind) &+ 41)
    for d in [0.3, 0.05, 1.0 / 120, 0.7] {
      for (begin, offset) in [(0.0, 0.0), (0.1, 0.0), (0.0, 0.13), (0.25, 0.07)] {
        let builder = PresentationFrameBuilder(root: Self.layer(kind, duration: d, begin: begin, offset: offset))
        let motion = MotionBounds(scene: builder.scene)
        for k in 1...2 {
          let boundary = begin + Double(k) * d - offset
          for t1 in [boundary, boundary.nextUp, boundary.nextDown] {
            for w in [0.1, 1.0 / 120, d / 3] where t1 - w > begin {
              let t0 = t1 - w
              guard let b = motion.linearBounds(of: 1, from: t0, to: t1) else { continue }
              qualified += 1
              var times = (0...6).map { t0 + (t1 - t0) * Double($0) / 6 }
              times += [t1, t1.nextDown, t1 - 1e-9, t1 - 1e-6, t1 - w * 1e-3]
              for t in times where t >= t0 && t <= t1 {
                let s = min(max((t - t0) / (t1 - t0), 0), 1)
                let at = Box(
                  minX: b.start.minX + (b.end.minX - b.start.minX) * s,
                  minY: b.start.minY + (b.end.minY - b.start.minY) * s,
                  maxX: b.start.maxX + (b.end.maxX - b.start.maxX) * s,
                  maxY: b.start.maxY + (b.end.maxY - b.start.maxY) * s)
                let frame = builder.build(at: t)
                for p in RandomScene.points(for: frame, count: 40, rng: &rng) {
                  for r in 0..<frame.count where frame.layer[r].rawValue == 1 && frame.isCandidate(r, p) {
                    checked += 1
                    #expect(at.holds(p), "kind \(kind), d \(d), window [\(t0), \(t1)], t \(t): \(p) outside \(at)")
                  }
                }
              }
            }
          }
        }
      }
    }
    #expect(qualified > 20, "windows with exact lines: \(qualified)")
    #expect(checked > 500, "candidate points checked: \(checked)")
  }
}

/// Generated scenes of `kinds` (300 layers, all animated, from `seed`) and `everyKind` scenes
/// with every kind of animation (seeds 0 up), each with its name, for tests that run over both.
func namedModels(
  _ kinds: [SceneKind], seed: UInt64, everyKind: Int, layers: ClosedRange<Int>, animations: Int
) -> [(String, Layer)] {
  kinds.map { ("\($0)", SceneGenerator(kind: $0, layers: 300, animatedFraction: 1, seed: seed).make()) }
    + (0..<UInt64(everyKind)).map {
      ("every kind \($0)", everyKindScene(seed: $0, layers: layers, animations: animations))
    }
}

/// Two bounds of one scene over six windows (from a point to 3 s, a third of them the model
/// tree's), `check` called for every layer after both computed each, with a random box in its
/// own space (layer, box, window).
func forEachLayerOverWindows(
  _ a: MotionBounds, _ b: MotionBounds, _ rng: inout SplitMix64, _ check: (Int, Box, Double, Double) -> Void
) {
  for w in 0..<6 {
    let t0 = rng.uniform(-1, 6)
    let t1 = t0 + [0, 1.0 / 120, 0.1, 0.7, 3][rng.below(5)]
    a.animated = w % 3 != 0
    b.animated = a.animated
    a.compute(from: t0, to: t1)
    b.compute(from: t0, to: t1)
    for m in 0..<a.count {
      let local = Box(
        minX: rng.uniform(-50, 50), minY: rng.uniform(-50, 50), maxX: rng.uniform(50, 150),
        maxY: rng.uniform(50, 150))
      check(m, local, t0, t1)
    }
  }
}
