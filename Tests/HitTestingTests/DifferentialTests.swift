import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing
import Verification

@testable import HitTesting

@Suite struct DifferentialTests {
  /// Every strategy against tree-walk, and tree-walk against the independent oracle, on both
  /// trees: random hostile scenes and, every tenth, a generated scene of a few thousand layers.
  @Test(arguments: HitTestSemantics.presets)
  func everyStrategyAgreesWithTheTreeWalk(_ semantics: HitTestSemantics) {
    var verifier = Verifier()
    verifier.scenes = TestSize.pick(full: 200, fast: 40)
    verifier.points = TestSize.pick(full: 1000, fast: 300)
    verifier.seed = 2026
    verifier.semantics = [semantics]
    let report = verifier.run()
    for kind in verifier.strategies {
      #expect(report.comparisons(of: kind) == verifier.scenes * verifier.points * 2, "\(kind.rawValue)")
    }
    #expect(report.comparisons(of: .treeWalk) > 0, "tree-walk's answers were judged by the oracle")
    #expect(report.largestScene >= 500, "large scenes were among them")
    for d in report.disagreements {
      Issue.record(
        "\(d.strategy.rawValue) \(d.semantics.name) \(d.tree) scene \(d.sceneName) \(d.sceneSeed) t=\(d.time) p=\(d.point): got \(String(describing: d.answer)), expected \(String(describing: d.expected))"
      )
    }
    #expect(report.disagreementCount == 0)
    for (key, tally) in report.tallies {
      #expect(!tally.exceedsToleratedLimit, "\(key): \(tally.tolerated) of \(tally.comparisons) tolerated")
    }
  }

  /// Animations whose timing Double can barely resolve (offsets, begin times and clock times
  /// up to 1e300, huge speeds and repeat counts, cumulative spins): every strategy answers at
  /// once and agrees. Before the motion bounds guarded their magnitudes, these scenes trapped
  /// (an iteration count converted to Int), hung (a loop whose counter no longer changed) or
  /// answered wrongly (a cumulative cycle bound that ignored the offset).
  @Test func hostileTimingIsAnsweredByEveryStrategy() {
    for seed in [1, 2, 3] as [UInt64] {
      var verifier = Verifier()
      verifier.scenes = TestSize.pick(full: 300, fast: 100)
      verifier.points = 50
      verifier.seed = seed
      verifier.largeSceneEvery = 0
      verifier.generator = RandomScene(layerCount: 3...20, hostile: true, animatedFraction: 1)
      let report = verifier.run()
      for d in report.disagreements {
        Issue.record(
          "\(d.strategy.rawValue) \(d.semantics.name) \(d.tree) seed \(d.sceneSeed) t=\(d.time) p=\(d.point)")
      }
      #expect(report.disagreementCount == 0, "seed \(seed)")
    }
  }

  /// Each injected fault is caught, for every strategy it reaches: a hit region 1e-6 pt too
  /// small, one layer moved by 1e-6 pt, a flag flipped, two siblings swapped.
  @Test(arguments: [
    Verifier.Fault.shrink(1e-6), .shrink(1e-8), .shift(1e-6), .flag, .order,
  ])
  func anInjectedFaultIsCaught(_ fault: Verifier.Fault) {
    var verifier = Verifier()
    verifier.scenes = TestSize.pick(full: 40, fast: 12)
    verifier.points = TestSize.pick(full: 500, fast: 300)
    verifier.seed = 2026
    verifier.fault = fault
    let report = verifier.run()
    for kind in verifier.strategies {
      #expect(report.disagreements(of: kind) > 0, "\(kind.rawValue) with \(fault) passed verification")
    }
    // The reference and the oracle saw the true scene.
    #expect(report.disagreements(of: .treeWalk) == 0)
  }

  @Test func aBiggerSceneSweep() {
    var verifier = Verifier()
    verifier.scenes = TestSize.pick(full: 20, fast: 6)
    verifier.points = 2000
    verifier.seed = 77
    verifier.largeSceneEvery = 0
    verifier.generator = RandomScene(layerCount: 200...800, hostile: true, animatedFraction: 0.5)
    let report = verifier.run()
    #expect(report.disagreementCount == 0)
  }

  @Test func theFlatFormAgreesWithEveryIndexStrategyExactly() {
    // Index strategies (time-aware ones included) filter with boxes and decide with the frame's
    // exact test, so they must equal the exhaustive scan of that test bit for bit (no tolerance).
    for seed in 0..<UInt64(TestSize.pick(full: 60, fast: 20)) {
      let model = RandomScene().make(seed: seed)
      for semantics in HitTestSemantics.presets {
        for tree in HitTestTree.allCases {
          let builder = PresentationFrameBuilder(root: model, semantics: semantics)
          let frame = builder.build(at: Double(seed) * 0.21, animated: tree.isAnimated)
          var rng = SplitMix64(seed: seed)
          let points = RandomScene.points(for: frame, count: 300, rng: &rng)
          let scan = points.map { frame.topCandidateByScan($0) }
          // The walks (tree-walk, lazy-walk) descend level by level: equal to each other bit for
          // bit, and to the flat form up to the rounding the oracle judges (checked above).
          let walk = StrategyKind.treeWalk.answers(builder, points, animated: tree.isAnimated)
          #expect(
            StrategyKind.lazyWalk.answers(builder, points, animated: tree.isAnimated) == walk,
            "lazy-walk seed \(seed) \(semantics) \(tree)")
          for kind in StrategyKind.allCases where kind != .treeWalk && kind != .lazyWalk {
            let got = kind.answers(builder, points, animated: tree.isAnimated)
            let differ = points.indices.filter { got[$0] != scan[$0] }
            #expect(
              differ.isEmpty,
              "\(kind.rawValue) seed \(seed) \(semantics) \(tree): \(differ.prefix(3).map { "\(points[$0]): \(String(describing: got[$0])) not \(String(describing: scan[$0]))" })"
            )
          }
        }
      }
    }
  }
}
