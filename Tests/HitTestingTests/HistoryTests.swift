import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting
@testable import Verification

/// Verification that follows a strategy's history (docs/reliability.md, "Across frames"): one
/// instance of every strategy driven through sequences of frames (steady clocks at many rates,
/// clocks running backwards, jumps forwards, backwards and far past every end, pinned short and
/// long windows and windows chosen by cost) on scenes whose animations' boundaries fall where
/// frames and windows land, each frame against tree-walk on a frame built afresh.
@Suite struct HistoryTests {
  @Test func everyStrategyAgreesAcrossFrames() {
    var v = Verifier()
    v.scenes = 0
    // The default seed; 200 histories found the iteration-end defect 47 times before its fix.
    v.histories = TestSize.pick(full: 800, fast: 200)
    let report = v.run()
    #expect(report.historiesRun == v.histories)
    for kind in StrategyKind.allCases {
      #expect(report.comparisons(ofHistories: kind) > v.histories * 20, "\(kind) was driven through the histories")
    }
    #expect(report.disagreementCount == 0, "\(report.disagreements.map { "\($0.strategy) \($0.history!)" })")
    #expect(report.passed)
  }

  /// A fault only later frames show (windows built ahead bound the window before theirs): the
  /// histories catch it in every time-aware strategy that builds ahead, and the single-time
  /// checks, which make a fresh instance at each time, cannot.
  @Test func aFaultOnlyLaterFramesShowIsCaughtByHistoriesAlone() {
    var v = Verifier()
    v.fault = .staleWindows
    v.scenes = 0
    v.histories = TestSize.pick(full: 120, fast: 60)
    let histories = v.run()
    for kind in [StrategyKind.windowGrid, .linearBVH] {
      #expect(histories.historyTallies.contains { $0.key.strategy == kind.rawValue && $0.value.disagreements > 0 })
    }
    #expect(histories.disagreements.allSatisfy { $0.history != nil && $0.strategy.family == .timeAware })
    v.scenes = TestSize.pick(full: 60, fast: 20)
    v.histories = 0
    v.largeSceneEvery = 0
    #expect(v.run().disagreementCount == 0, "single-time checks cannot see a fault of later frames")
  }

  /// The scene of the report that found iteration ends missing from exact lines: a 40x40 layer
  /// moved from (0, 0) to (300, 500) over 0.3 s, repeating forever, frames at 120 Hz from 0 and
  /// windows of two frames (the shortest a window chosen by cost gets). The window [17/60, 0.3]
  /// ends on the first iteration's end; before the fix its lines ran to the next iteration's
  /// start, and window-grid, stagger-grid and linear-bvh answered root at t = 35/120 where the
  /// layer was.
  @Test func windowsEndingOnAnIterationEndHoldTheLayer() {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 400, height: 600), position: Point(200, 300))
    let box = Layer(name: "box", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(0, 0))
    box.slide(from: Point(0, 0), to: Point(300, 500), duration: 0.3, key: "move")
    root.addSublayer(box)
    let history = FrameHistory(runs: [.init(start: 0, frames: 120, fps: 120)], windowMilliseconds: 1000.0 / 60)
    var rng = SplitMix64(seed: 5)
    for kind in [StrategyKind.windowGrid, .staggerGrid, .linearBVH] {
      let session = StrategySession(
        kind, model: root, semantics: .calayer, options: StrategyOptions(windowSeconds: history.windowSeconds))
      var wrong: [Double] = []
      for t in history.times {
        let reference = PresentationFrameBuilder(root: root, semantics: .calayer)
        var walk = TreeWalk()
        let frame = reference.build(at: t)
        walk.update(with: frame)
        // Points over the layer where it is now, and around it.
        let b = frame.worldBox[1]
        let points = (0..<60).map { _ in
          Point(rng.uniform(b.minX - 5, b.maxX + 5), rng.uniform(b.minY - 5, b.maxY + 5))
        }
        let got = session.answers(at: t, animated: true, points)
        if zip(points, got).contains(where: { walk.hitTest($0) != $1 }) { wrong.append(t) }
      }
      #expect(wrong.isEmpty, "\(kind) wrong at t = \(wrong)")
    }
  }

  /// A history's tolerated share counts like a single time's: over the limit, the report fails
  /// and names it as the worst (the CLI once looked for it among the single-time tallies only).
  @Test func aHistoryTallyOverTheToleratedLimitFails() {
    var report = Verifier.Report()
    let key = Verifier.TallyKey(strategy: "grid", semantics: "calayer", tree: .presentation)
    var tally = Verifier.Tally()
    tally.comparisons = 10_000
    tally.tolerated = 10
    report.tallies[key] = tally
    #expect(report.passed)
    tally.tolerated = 400
    report.historyTallies[key] = tally
    #expect(!report.passed)
    #expect(report.worstToleratedShare?.acrossFrames == true)
  }

  /// `hittest --replay`'s form round-trips: the replayed times are the history's, bit for bit.
  @Test func replaySpecificationRoundTrips() throws {
    var rng = SplitMix64(seed: 11)
    for _ in 0..<200 {
      let h = FrameHistory.random(frames: 48, fps: rng.uniform(20, 250), boundaries: [0.3, 0.6, 1.25], rng: &rng)
      let runs = try #require(FrameHistory.runs(parsing: h.replaySpecification, limit: 1000))
      #expect(FrameHistory(runs: runs).times == h.times)
    }
    for bad in ["", "1:2", "1:0@60", "1:2@0", "nan", "1:2@inf", "0:5@60,", "1@60", "0:2000@60"] {
      #expect(FrameHistory.runs(parsing: bad, limit: 1000) == nil, "\(bad)")
    }
  }
}
