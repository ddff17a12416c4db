import Foundation
import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing
import Verification

@testable import HitTesting

/// A time-aware strategy made fresh at t answers from windows that start at t, where every
/// bound is at its first end. These run one instance over consecutive frames, so its windows are
/// part-way through (the bounds interpolated at a fraction of their own window) and later windows
/// have replaced the first; its answers must still be the reference's, at random points and at
/// the corners of layers' boxes (where an interpolation at the wrong fraction misses). A
/// difference is tolerated only where the oracle accepts both answers (a corner within rounding
/// of an edge), and those stay under 1%.
@Suite struct LaterWindowsTests {
  func check<S: SceneStrategy>(_: S.Type, _ kind: SceneKind, clipped: Bool) {
    let root = SceneGenerator(kind: kind, layers: TestSize.pick(full: 3000, fast: 800), seed: 9).make()
    root.masksToBounds = clipped
    let builder = PresentationFrameBuilder(root: root)
    var s = S()
    // A short pinned window: several windows pass within the frames.
    s.attach(to: builder.scene, semantics: builder.semantics, options: StrategyOptions(windowSeconds: 0.05))
    var rng = SplitMix64(seed: 3)
    var wrong = 0
    var tolerated = 0
    var asked = 0
    let frames = TestSize.pick(full: 40, fast: 16)
    for frame in 0..<frames {
      let t = 0.4 + Double(frame) * 0.013
      builder.build(at: t)
      s.update(at: t, animated: true)
      let f = builder.frame
      var points: [Point] = (0..<200).map { _ in Point(rng.uniform(-20, 1200), rng.uniform(-20, 900)) }
      for _ in 0..<300 {
        let r = 1 + rng.below(f.count - 1)
        let b = f.bounds[r]
        let corner = rng.below(2) == 0 ? Point(b.minX, b.minY) : Point(b.maxX, b.maxY)
        let p = f.toWorld[r].apply(corner)
        if p.x.isFinite && p.y.isFinite { points.append(p) }
      }
      let expected = StrategyKind.treeWalk.answers(builder, points)
      let oracle = ReferenceOracle(builder: builder, tree: .presentation)
      for (p, e) in zip(points, expected) {
        switch AnswerComparison.compare(s.hitTest(p), e, at: p, oracle: oracle) {
        case .agree: break
        case .tolerated: tolerated += 1
        case .disagree: wrong += 1
        }
      }
      asked += points.count
    }
    #expect(asked > frames * 300, "points asked")
    let name = "\(S.name) on \(kind)\(clipped ? " clipped" : "")"
    #expect(wrong == 0, "\(name): \(wrong) of \(asked) answers wrong")
    #expect(tolerated * 100 < asked, "\(name): \(tolerated) of \(asked) answers tolerated")
  }

  @Test(arguments: [SceneKind.particles, .app], [false, true])
  func staggerGrid(_ kind: SceneKind, _ clipped: Bool) { check(StaggerGrid.self, kind, clipped: clipped) }

  @Test(arguments: [SceneKind.particles, .app], [false, true])
  func windowGrid(_ kind: SceneKind, _ clipped: Bool) { check(WindowGrid.self, kind, clipped: clipped) }

  @Test(arguments: [SceneKind.particles, .app], [false, true])
  func linearBVH(_ kind: SceneKind, _ clipped: Bool) { check(LinearBoundsBVH.self, kind, clipped: clipped) }

  /// stagger-grid's windows grow with their length; its grid lists a box at the finest level
  /// where it covers at most 16 cells, so boxes many cells wide stay off the overflow list
  /// that every lookup reads, and a lookup reads few entries.
  @Test func wideBoxesStayOffTheOverflowList() {
    let grid = LinkedBoxGrid()
    let count = 2000
    grid.reset(entries: count, extent: Box(minX: 0, minY: 0, maxX: 1000, maxY: 1000), cellSide: 10)
    var rng = SplitMix64(seed: 4)
    var boxes: [Box] = []
    for k in 0..<count {
      // Sizes from a tenth of a cell to a hundred cells.
      let size = 10 * Foundation.pow(10, rng.uniform(-1, 2))
      let x = rng.uniform(0, 1000 - size)
      let y = rng.uniform(0, 1000 - size)
      let b = Box(minX: x, minY: y, maxX: x + size, maxY: y + size)
      boxes.append(b)
      grid.move(k, to: b)
    }
    boxes.withUnsafeBufferPointer { grid._checkInvariants($0) }
    #expect(grid.head[grid.cells] == -1, "the overflow list holds only boxes that are not finite")
    var listed = 0
    var missed = 0
    for _ in 0..<1000 {
      let p = Point(rng.uniform(0, 1000), rng.uniform(0, 1000))
      var visitor = ListingVisitor()
      listed += boxes.withUnsafeBufferPointer { grid.visit(p, boxes: $0, &visitor) }
      let got = Set(visitor.listed)
      for (k, b) in boxes.enumerated() where b.holds(p) && !got.contains(Int32(k)) { missed += 1 }
    }
    #expect(missed == 0, "\(missed) boxes holding a point not listed")
    // Each point lies in about 140 boxes' areas on average; a flat grid with an overflow list
    // lists the 900-odd boxes wider than four cells for every point.
    #expect(listed < 1000 * 400, "\(listed / 1000) entries listed a lookup")
  }
}
