import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// stagger-grid re-bounds its groups in its frames, each when its window ends; groups
/// re-bounded in one frame end together a length later, so it also re-bounds the windows
/// ending next, at the rate windows end on average. No steady frame then
/// pays for a bunch of them (the frames' p99: docs/optimisation-log.md entry 75).
@Suite struct StaggerSpreadTests {
  @Test(arguments: [SceneKind.app, .particles])
  func noSteadyFrameRebindsABunch(_ kind: SceneKind) {
    let root = SceneGenerator(kind: kind, layers: TestSize.pick(full: 3000, fast: 1500), seed: 5).make()
    let builder = PresentationFrameBuilder(root: root)
    var s = StaggerGrid()
    // A quarter-second window: 30 frames of 120 Hz.
    s.attach(to: builder.scene, semantics: builder.semantics, options: StrategyOptions(windowSeconds: 0.25))
    var counts: [Int] = []
    for frame in 0..<240 {
      let t = 1.0 + Double(frame) / 120
      s.update(at: t, animated: true)
      // After the first windows (their ends spread by the restart) have all been replaced.
      if frame >= 60 { counts.append(s.counters.reindexed) }
    }
    let mean = Double(counts.reduce(0, +)) / Double(counts.count)
    let most = counts.max() ?? 0
    #expect(mean > 1, "\(kind): \(mean) groups re-bounded a frame: too few to tell")
    #expect(Double(most) <= 2 * mean + 2, "\(kind): a frame re-bounded \(most) groups, \(mean) on average")
  }
}
