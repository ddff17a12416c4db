import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// An animation of opacity alone changes no answer under `calayer` (opacity is never consulted:
/// docs/semantics.md), so the time-aware strategies index its layer as still: no group of its
/// own, no window bounds to compute. Under `uiview` a fade below the alpha threshold hides the
/// layer from hit testing, and the layer moves in what the semantics read.
@Suite struct StillAnimationTests {
  /// A screen with a fading label (and a child of it), a blinking cursor (opacity keyframes)
  /// and a badge that fades and moves.
  static func screen() -> (root: Layer, fading: Int, child: Int, cursor: Int, badge: Int) {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 400, height: 600), position: Point(200, 300))
    let label = Layer(name: "label", bounds: Rect(x: 0, y: 0, width: 200, height: 40), position: Point(150, 100))
    let fade = BasicAnimation(keyPath: .opacity, from: .scalar(1), to: .scalar(0))
    fade.duration = 1
    fade.autoreverses = true
    fade.repeatCount = .infinity
    label.add(fade, forKey: "fade")
    let icon = Layer(name: "icon", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(20, 20))
    label.addSublayer(icon)
    let cursor = Layer(name: "cursor", bounds: Rect(x: 0, y: 0, width: 2, height: 24), position: Point(100, 300))
    let blink = KeyframeAnimation(keyPath: .opacity)
    blink.values = [.scalar(1), .scalar(0)]
    blink.calculationMode = .discrete
    blink.duration = 1.06
    blink.repeatCount = .infinity
    cursor.add(blink, forKey: "blink")
    let badge = Layer(name: "badge", bounds: Rect(x: 0, y: 0, width: 30, height: 30), position: Point(300, 400))
    let pulse = BasicAnimation(keyPath: .opacity, from: .scalar(1), to: .scalar(0.5))
    pulse.duration = 0.6
    pulse.repeatCount = .infinity
    badge.add(pulse, forKey: "pulse")
    badge.slide(from: Point(300, 400), to: Point(100, 500), duration: 2)
    for l in [label, cursor, badge] { root.addSublayer(l) }
    // Preorder: root 0, label 1, icon 2, cursor 3, badge 4.
    return (root, 1, 2, 3, 4)
  }

  @Test func aFadeIsStillUnderCALayerAndMovesUnderUIView() {
    let s = Self.screen()
    let calayer = MotionGroups(
      scene: PresentationFrameBuilder(root: s.root, semantics: .calayer).scene, semantics: .calayer)
    // Only the badge, which also moves, roots a group; the fades and the blink are in the
    // still world group, pinned.
    #expect(calayer.movingCount == 1)
    for m in [s.fading, s.child, s.cursor] {
      #expect(calayer.groupOf[m] == 0, "layer \(m) in group \(calayer.groupOf[m])")
      #expect(calayer.lazy.isPinned(m))
    }
    #expect(calayer.groupOf[s.badge] == 1)
    let uiview = MotionGroups(
      scene: PresentationFrameBuilder(root: s.root, semantics: .uiview).scene, semantics: .uiview)
    #expect(uiview.movingCount == 3)
    for m in [s.fading, s.cursor, s.badge] { #expect(uiview.groupOf[m] != 0, "layer \(m) still under uiview") }
    #expect(uiview.groupOf[s.child] == uiview.groupOf[s.fading])
  }

  /// Whatever a layer's fade, every time-aware strategy answers as the tree walk at every
  /// frame, under both semantics (under `uiview` the label and cursor stop being hit while
  /// faded out).
  @Test func everyTimeAwareStrategyAnswersAsTheWalkThroughTheFades() {
    let s = Self.screen()
    var rng = SplitMix64(seed: 3)
    let points = (0..<400).map { _ in Point(rng.uniform(0, 400), rng.uniform(0, 600)) }
    let times = (0..<150).map { Double($0) / 60 }
    for semantics in [HitTestSemantics.calayer, .uiview] {
      // The walk's answers at each time, on a frame built afresh, once for every strategy.
      let expected = times.map { t in
        var walk = TreeWalk()
        walk.update(with: PresentationFrameBuilder(root: s.root, semantics: semantics).build(at: t))
        return points.map { walk.hitTest($0) }
      }
      for kind in StrategyKind.allCases where kind.family == .timeAware {
        for window in [nil, 0.05] as [Double?] {
          let session = StrategySession(
            kind, model: s.root, semantics: semantics, options: StrategyOptions(windowSeconds: window))
          var wrong: [Double] = []
          for (t, answers) in zip(times, expected) {
            // Frames in order: the session keeps its windows from one to the next.
            if session.answers(at: t, animated: true, points) != answers { wrong.append(t) }
          }
          #expect(wrong.isEmpty, "\(kind) \(semantics.name) window \(String(describing: window)): wrong at \(wrong)")
        }
      }
    }
  }
}
