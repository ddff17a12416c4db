import LayerModel
import Presentation
import Scenes
import Testing

/// The `idle` scene: still screens whose animated fraction picks leaves. A frame's build
/// recomputes only what moves: the animated layers, their descendants, and the flicking
/// list's content while it flicks.
@Suite struct IdleSceneTests {
  /// Every row an animation can move at some frame: each animated layer's subtree.
  func movable(_ root: Layer) -> Int {
    var n = 0
    func walk(_ l: Layer, _ moving: Bool) {
      let m = moving || !l.animationKeys().isEmpty
      if m { n += 1 }
      for c in l.sublayers { walk(c, m) }
    }
    walk(root, false)
    return n
  }

  @Test(arguments: [0.0, 0.02, 0.2, 1.0])
  func theBuildFollowsTheAnimatedLeaves(_ fraction: Double) {
    let root = SceneGenerator(kind: .idle, layers: 3000, animatedFraction: fraction, seed: 3).make()
    let bound = movable(root)
    let builder = PresentationFrameBuilder(root: root, threads: 1)
    var t = 0.5
    builder.build(at: t)
    var most = 0
    var total = 0
    // Eight seconds at 30 Hz: the flick's pauses and flicks both.
    for _ in 0..<240 {
      t += 1.0 / 30
      builder.build(at: t)
      #expect(!builder.stats.full, "a still scene rebuilt whole at t = \(t)")
      most = max(most, builder.stats.rowsRecomputed)
      total += builder.stats.rowsRecomputed
    }
    #expect(most <= bound, "\(most) rows recomputed in a frame; \(bound) rows can move")
    // The animated leaves are a share of the scene (and the flicking list moves in some
    // frames): recomputed rows grow with the fraction, and a still scene recomputes little.
    if fraction == 0 {
      #expect(total / 240 < 3000 / 10, "\(total / 240) rows a frame with nothing but the flick")
    } else {
      #expect(total > 0)
    }
  }

  @Test func theAnimatedFractionPicksLeavesOnly() {
    let root = SceneGenerator(kind: .idle, layers: 3000, animatedFraction: 0.5, seed: 4).make()
    var animatedContainers = 0
    var animatedLeaves = 0
    for l in root.subtreeInPreorder where !l.animationKeys().isEmpty {
      if l.sublayers.isEmpty { animatedLeaves += 1 } else { animatedContainers += 1 }
    }
    // One container animates in the whole scene: the flicking list.
    #expect(animatedContainers == 1)
    #expect(animatedLeaves > 500, "\(animatedLeaves) animated leaves at 50%")
  }
}
