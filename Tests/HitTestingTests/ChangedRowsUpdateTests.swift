import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// `flat-scan` and `bvh-refit` after a build that recomputed a few rows move only those rows,
/// and answer as the reference does. (A row that must join flat-scan's list, such as a row
/// scrolled into a clipping view, makes it rebuild: `app` scrolls every page, so there it
/// rebuilds most frames; on still screens both move rows.)
@Suite struct ChangedRowsUpdateTests {
  /// Frames of `kind` at 30 Hz through `S` and tree-walk: answers that differ, and how many
  /// updates moved fewer rows than the frame has.
  func follow<S: FrameStrategy>(
    _ strategy: S.Type, _ kind: SceneKind, _ fraction: Double, threads: Int, moved: (S, PresentationFrame) -> Bool
  ) -> (wrong: Int, moved: Int, frames: Int) {
    let layers = TestSize.pick(full: 10_000, fast: 5000)
    let root = SceneGenerator(kind: kind, layers: layers, animatedFraction: fraction, seed: 5).make()
    let builder = PresentationFrameBuilder(root: root, threads: threads)
    var index = S()
    var walk = TreeWalk()
    var rng = SplitMix64(seed: 9)
    var t = 0.1
    var movedFrames = 0
    var wrong = 0
    let frames = TestSize.pick(full: 90, fast: 30)
    for _ in 0..<frames {
      t += 1.0 / 30
      let f = builder.build(at: t)
      index.update(with: f)
      walk.update(with: f)
      if moved(index, f) { movedFrames += 1 }
      for _ in 0..<200 {
        let p = Point(x: rng.uniform(-20, 1200), y: rng.uniform(-20, 900))
        if index.hitTest(p) != walk.hitTest(p) { wrong += 1 }
      }
    }
    return (wrong, movedFrames, frames)
  }

  @Test(arguments: [(SceneKind.idle, 0.01, 1), (.idle, 0.1, 2), (.idle, 0.3, 1), (.app, 0.1, 1)])
  func flatScanMovesOnlyTheChangedRows(_ kind: SceneKind, _ fraction: Double, _ threads: Int) {
    let r = follow(FlatScan.self, kind, fraction, threads: threads) { s, f in
      s.counters.reindexed < (0..<f.count).count { FlatScan._scans(f, $0) }
    }
    #expect(r.wrong == 0, "\(r.wrong) answers differ from tree-walk's")
    if kind == .idle { #expect(r.moved * 2 > r.frames, "\(r.moved) of \(r.frames) updates moved changed rows") }
  }

  @Test(arguments: [(SceneKind.idle, 0.01, 1), (.idle, 0.1, 2), (.app, 0.1, 1), (.app, 1.0, 2)])
  func bvhRefitRefitsOnlyTheChangedRows(_ kind: SceneKind, _ fraction: Double, _ threads: Int) {
    let r = follow(RefitBVH.self, kind, fraction, threads: threads) { s, f in s.counters.reindexed < f.count }
    #expect(r.wrong == 0, "\(r.wrong) answers differ from tree-walk's")
    // Every row is a prim of the refitted tree, so any build that recomputed some rows only is
    // a partial refit.
    #expect(r.moved * 2 > r.frames, "\(r.moved) of \(r.frames) updates refitted only the changed rows")
  }
}
