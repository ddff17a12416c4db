import LayerModel
import Presentation
import Scenes
import Testing
import Verification

@testable import HitTesting

@Suite struct DifferentialTests {
  @Test(arguments: HitTestSemantics.presets)
  func everyStrategyAgreesWithTheTreeWalk(_ semantics: HitTestSemantics) {
    var verifier = Verifier()
    verifier.scenes = 200
    verifier.points = 1000
    verifier.seed = 2026
    verifier.semantics = [semantics]
    let report = verifier.run()
    #expect(report.comparisons == 200 * 1000 * (StrategyKind.allCases.count - 1))
    for d in report.disagreements {
      Issue.record(
        "\(d.strategy.rawValue) \(d.semantics.name) scene \(d.sceneSeed) t=\(d.time) p=\(d.point): got \(String(describing: d.answer)), expected \(String(describing: d.expected))"
      )
    }
    #expect(report.disagreementCount == 0)
    #expect(report.toleratedShare <= AnswerComparison.toleratedShareLimit, "tolerated \(report.tolerated)")
  }

  @Test(arguments: [1e-6, 1e-8])
  func aShrinkOfTheHitRegionsIsCaught(_ shrink: Double) {
    // Fault injection: every strategy answers with every layer's hit region shrunk by `shrink`
    // points. The verification must see it (a tolerance of about 1e-4 pt used to let 1e-5 pass).
    var verifier = Verifier()
    verifier.scenes = 40
    verifier.points = 500
    verifier.seed = 2026
    verifier.shrinkHitRegions = shrink
    let report = verifier.run()
    #expect(report.disagreementCount > 100, "\(shrink): only \(report.disagreementCount) disagreements")
    for kind in verifier.strategies {
      let caught = HitTestSemantics.presets.reduce(0) {
        $0 + (report.tallies["\(kind.rawValue) \($1.name)"]?.disagreements ?? 0)
      }
      #expect(caught > 0, "\(kind.rawValue) with every hit region shrunk by \(shrink) pt passed verification")
    }
  }

  @Test func aBiggerSceneSweep() {
    var verifier = Verifier()
    verifier.scenes = 20
    verifier.points = 2000
    verifier.seed = 77
    verifier.generator = RandomScene(layerCount: 200...800, hostile: true, animatedFraction: 0.5)
    let report = verifier.run()
    #expect(report.disagreementCount == 0)
  }

  @Test func theFlatFormOracleAgreesWithEveryStrategyExactly() {
    // Index strategies (time-aware ones included) filter with boxes and decide with the frame's
    // exact test, so they must equal the exhaustive scan of that test bit for bit (no tolerance).
    for seed in 0..<60 as Range<UInt64> {
      let model = RandomScene().make(seed: seed)
      for semantics in HitTestSemantics.presets {
        let builder = PresentationFrameBuilder(root: model, semantics: semantics)
        let frame = builder.build(at: Double(seed) * 0.21)
        var rng = SplitMix64(seed: seed)
        let points = RandomScene.points(for: frame, count: 300, rng: &rng)
        let oracle = points.map { frame.topCandidateByScan($0) }
        // The walks (tree-walk, lazy-walk) descend level by level: equal to each other bit for
        // bit, and to the flat form up to the rounding the oracle measures (checked above).
        let walk = StrategyKind.treeWalk.answers(builder, points)
        #expect(StrategyKind.lazyWalk.answers(builder, points) == walk, "lazy-walk seed \(seed) \(semantics)")
        for kind in StrategyKind.allCases where kind != .treeWalk && kind != .lazyWalk {
          #expect(kind.answers(builder, points) == oracle, "\(kind.rawValue) seed \(seed) \(semantics)")
        }
      }
    }
  }
}
