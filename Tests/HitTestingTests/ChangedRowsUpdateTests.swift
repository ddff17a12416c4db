import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// `flat-scan` after a build that recomputed a few rows rewrites only their boxes, and answers
/// as the reference does. (A row that enters or leaves the scan, such as a row scrolled into a
/// clipping view, makes it rebuild: `app` scrolls every page, so there it rebuilds most frames;
/// on still screens it moves rows.)
@Suite struct ChangedRowsUpdateTests {
  @Test(arguments: [(SceneKind.idle, 0.01, 1), (.idle, 0.1, 2), (.idle, 0.3, 1), (.app, 0.1, 1)])
  func flatScanMovesOnlyTheChangedRows(_ kind: SceneKind, _ fraction: Double, _ threads: Int) {
    let layers = TestSize.pick(full: 10_000, fast: 5000)
    let root = SceneGenerator(kind: kind, layers: layers, animatedFraction: fraction, seed: 5).make()
    let builder = PresentationFrameBuilder(root: root, threads: threads)
    var scan = FlatScan()
    var walk = TreeWalk()
    var rng = SplitMix64(seed: 9)
    var t = 0.1
    var moved = 0
    var full = 0
    var wrong = 0
    for _ in 0..<TestSize.pick(full: 90, fast: 30) {
      t += 1.0 / 30
      let f = builder.build(at: t)
      scan.update(with: f)
      walk.update(with: f)
      let hittable = (0..<f.count).count { FlatScan._scans(f, $0) }
      if scan.counters.reindexed < hittable { moved += 1 } else { full += 1 }
      for _ in 0..<200 {
        let p = Point(x: rng.uniform(-20, 1200), y: rng.uniform(-20, 900))
        if scan.hitTest(p) != walk.hitTest(p) { wrong += 1 }
      }
    }
    #expect(wrong == 0, "\(wrong) answers differ from tree-walk's")
    if kind == .idle { #expect(moved > full, "\(moved) updates moved changed rows, \(full) rebuilt the scan") }
  }
}
