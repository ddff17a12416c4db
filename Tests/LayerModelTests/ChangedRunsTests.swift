import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

/// A build that recomputes a few rows says which (`changedRuns()`): every row outside the
/// runs holds, bit for bit, what it held after the build before.
@Suite struct ChangedRunsTests {
  /// Every column of row r, as bits.
  func rowBits(_ f: PresentationFrame, _ r: Int) -> [UInt64] {
    func box(_ b: Box) -> [UInt64] { [b.minX, b.minY, b.maxX, b.maxY].map(\.bitPattern) }
    func map(_ m: AffineMap) -> [UInt64] { [m.a, m.b, m.c, m.d, m.tx, m.ty].map(\.bitPattern) }
    return [
      UInt64(f.layer[r].rawValue), UInt64(bitPattern: Int64(f.parent[r])), UInt64(f.subtreeEnd[r]),
      UInt64(bitPattern: Int64(f.guardRow[r])), UInt64(f.flags[r].rawValue),
    ] + box(f.bounds[r]) + box(f.worldBox[r]) + map(f.fromParent[r]) + map(f.toWorld[r]) + map(f.fromWorld[r])
  }

  @Test(arguments: [(SceneKind.idle, 0.05, 1), (.idle, 0.3, 2), (.app, 0.1, 1), (.app, 0.1, 2), (.ui, 0.2, 2)])
  func rowsOutsideTheRunsAreUnchanged(_ kind: SceneKind, _ fraction: Double, _ threads: Int) {
    let layers = TestSize.pick(full: 12_000, fast: 6000)
    let root = SceneGenerator(kind: kind, layers: layers, animatedFraction: fraction, seed: 11).make()
    let builder = PresentationFrameBuilder(root: root, threads: threads)
    var t = 0.25
    let f = builder.build(at: t)
    #expect(f.recomputedEveryRow, "a first build recomputes every row")
    var before = (0..<f.count).map { rowBits(f, $0) }
    var partial = 0
    for _ in 0..<TestSize.pick(full: 60, fast: 20) {
      t += 1.0 / 60
      builder.build(at: t)
      #expect(f.changedRowCount <= builder.stats.rowsRecomputed || f.recomputedEveryRow)
      if f.recomputedEveryRow {
        #expect(f.changedRuns().count == 0)
      } else {
        partial += 1
        #expect(f.changedRowCount == builder.stats.rowsRecomputed, "the runs are the rows composed")
        var inRun = [Bool](repeating: false, count: f.count)
        let runs = f.changedRuns()
        for i in 0..<runs.count { for r in runs[i].rows { inRun[r] = true } }
        var stale = 0
        for r in 0..<f.count where !inRun[r] && rowBits(f, r) != before[r] { stale += 1 }
        #expect(stale == 0, "\(stale) rows changed outside the runs at t = \(t)")
      }
      before = (0..<f.count).map { rowBits(f, $0) }
    }
    #expect(partial > 0, "no build recomputed only some rows")
  }

  @Test func aBuildOfEveryRowListsNoRuns() {
    let root = SceneGenerator(kind: .particles, layers: 2000, animatedFraction: 1, seed: 2).make()
    let builder = PresentationFrameBuilder(root: root)
    let f = builder.build(at: 0)
    builder.build(at: 0.5, columns: .all)
    // Every particle moves: the runs would cover the scene; a reorder or a first build lists none.
    #expect(f.recomputedEveryRow || f.changedRowCount == builder.stats.rowsRecomputed)
    builder.build(at: 1, animated: false)
    #expect(f.recomputedEveryRow, "the model tree after the presentation tree is a build of every row")
    #expect(f.changedRuns().count == 0)
  }
}
