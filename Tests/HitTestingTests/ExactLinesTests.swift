import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// Where a window's bounds of a lean root are exact lines (it moves only by its position,
/// straight over the window, and its exact test is its world box alone: axis-aligned, hittable,
/// unclipped), a point well inside them is inside the layer, and the time-aware strategies take
/// it without an evaluation (`WindowEntry.exactWithin`). Points within the lines' pads of an edge
/// are evaluated as before, so every answer is the reference's, at the edges too.
@Suite struct ExactLinesTests {
  /// Cards sliding across a root: plain; turned 30 degrees (its box is not its shape); hidden;
  /// under a parent flipped in x; bending at a keyframe (lines over its knot are not its box);
  /// and straight through collinear keyframes (exact over its knot too). Preorder: root 0, then
  /// the cards, the flipped one inside its parent.
  static func cards() -> Layer {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 600, height: 600), position: Point(300, 300))
    func card(_ name: String, at y: Double) -> Layer {
      Layer(name: name, bounds: Rect(x: 0, y: 0, width: 60, height: 40), position: Point(50, y))
    }
    let plain = card("plain", at: 40)
    plain.slide(from: Point(50, 40), to: Point(550, 90), duration: 2)
    let turned = card("turned", at: 140)
    turned.transform = .rotation(Double.pi / 6, 0, 0, 1)
    turned.slide(from: Point(50, 140), to: Point(550, 140), duration: 2)
    let hidden = card("hidden", at: 240)
    hidden.isHidden = true
    hidden.slide(from: Point(50, 240), to: Point(550, 240), duration: 2)
    let flipped = Layer(name: "flipped", bounds: Rect(x: 0, y: 0, width: 600, height: 100), position: Point(300, 330))
    flipped.transform = .scale(-1, 1, 1)
    let inside = card("inside", at: 50)
    inside.slide(from: Point(50, 50), to: Point(550, 20), duration: 2)
    flipped.addSublayer(inside)
    func keyframes(_ l: Layer, through points: [Point]) {
      let a = KeyframeAnimation(keyPath: .position)
      a.values = points.map { .point($0) }
      a.duration = 2
      a.repeatCount = .infinity
      l.add(a, forKey: "keyframes")
    }
    let bent = card("bent", at: 440)
    keyframes(bent, through: [Point(50, 440), Point(300, 500), Point(550, 440)])
    let straight = card("straight", at: 540)
    keyframes(straight, through: [Point(50, 540), Point(300, 560), Point(550, 580)])
    for l in [plain, turned, hidden, flipped, bent, straight] { root.addSublayer(l) }
    return root
  }

  /// Points at each layer's world corners and edge midpoints, moved by offsets from 0 to 1
  /// (a few ulps of the coordinates up) either way on each axis, and at its centre.
  static func edgePoints(_ f: PresentationFrame) -> [Point] {
    let offsets = [0, 1e-13, 1e-11, 1e-9, 1e-7, 1e-5, 1e-3, 1].flatMap { [$0, -$0] }
    var points: [Point] = []
    for r in 1..<f.count {
      let b = f.bounds[r]
      let w = f.toWorld[r]
      let corners = [
        Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.minX, b.maxY), Point(b.maxX, b.maxY),
        Point((b.minX + b.maxX) / 2, b.minY), Point((b.minX + b.maxX) / 2, b.maxY),
        Point(b.minX, (b.minY + b.maxY) / 2), Point(b.maxX, (b.minY + b.maxY) / 2),
      ].map { w.apply($0) }
      // The world box's corners too: outside a turned card's shape.
      let xs = corners.map(\.x)
      let ys = corners.map(\.y)
      let box = [
        Point(xs.min()!, ys.min()!), Point(xs.max()!, ys.min()!), Point(xs.min()!, ys.max()!),
        Point(xs.max()!, ys.max()!),
      ]
      for c in corners + box {
        for dx in offsets { for dy in offsets { points.append(Point(c.x + dx, c.y + dy)) } }
      }
      points.append(w.apply(Point((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)))
    }
    return points
  }

  @Test func pointsAtEveryEdgeAnswerAsTheReference() {
    let root = Self.cards()
    // Frames at 60 Hz over a second and past the keyframes' knot (t = 1), windows of 3 frames
    // and chosen by cost.
    let times = (0..<TestSize.pick(full: 90, fast: 40)).map { 0.7 + Double($0) / 60 }
    for windowSeconds in [0.05, nil] {
      for kind in [StrategyKind.windowGrid, .linearBVH, .staggerGrid] {
        let session = StrategySession(
          kind, model: root, semantics: .calayer, options: StrategyOptions(windowSeconds: windowSeconds))
        var wrong = 0
        var first = ""
        for (i, t) in times.enumerated() {
          let frame = PresentationFrameBuilder(root: root, semantics: .calayer).build(at: t)
          // Every frame advances the strategy; every fourth is queried (at every edge).
          let points = i % 4 == 0 ? Self.edgePoints(frame) : [Point(1, 1)]
          let got = session.answers(at: t, animated: true, points)
          // The frame's own exact test on every row, which a lean evaluation equals bit for bit
          // (a walk from the root converts the point level by level and rounds differently at
          // an edge: the verifier's tolerance, not needed here).
          for (p, answer) in zip(points, got) where frame.topCandidateByScan(p) != answer {
            if wrong == 0 {
              first =
                "at t = \(t), \(p): \(String(describing: answer)), not \(String(describing: frame.topCandidateByScan(p)))"
            }
            wrong += 1
          }
        }
        #expect(
          wrong == 0, "\(kind.rawValue), window \(String(describing: windowSeconds)): \(wrong) wrong, first \(first)")
      }
    }
  }

  @Test func particlesHeldWellInsideTheirLinesAreNotEvaluated() {
    let root = SceneGenerator(kind: .particles, layers: 2000, animatedFraction: 1, seed: 7).make()
    let builder = PresentationFrameBuilder(root: root, semantics: .calayer)
    var strategy = WindowGrid()
    strategy.attach(to: builder.scene, semantics: .calayer, options: StrategyOptions(windowSeconds: 0.1))
    var checked = 0
    for frame in 0..<12 {
      let t = 0.5 + Double(frame) / 60
      strategy.update(at: t, animated: true)
      let f = builder.build(at: t)
      // Each particle's centre (a point its box holds well inside).
      let points = (1..<f.count).map { r in
        let b = f.bounds[r]
        return f.toWorld[r].apply(Point((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2))
      }
      var got = [LayerID?](repeating: nil, count: points.count)
      points.withUnsafeBufferPointer { ps in got.withUnsafeMutableBufferPointer { strategy.answer(ps, into: $0) } }
      var walk = TreeWalk()
      walk.update(with: f)
      #expect(zip(points, got).allSatisfy { walk.hitTest($0) == $1 }, "at t = \(t)")
      let counters = strategy.counters
      // Every query has a candidate; almost none is evaluated (a particle whose window holds a
      // turn of its path is).
      #expect(counters.candidates >= points.count)
      #expect(counters.presentations * 10 < points.count, "\(counters.presentations) evaluated of \(points.count)")
      checked += 1
    }
    #expect(checked == 12)
  }
}
