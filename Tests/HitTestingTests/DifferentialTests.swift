import Verification
import Presentation
import LayerModel
import Scenes
import Testing

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
    // Index strategies filter with boxes and decide with the frame's exact test, so they must
    // equal the exhaustive scan of that test bit for bit (no tolerance).
    for seed in 0..<60 as Range<UInt64> {
      let model = RandomScene().make(seed: seed)
      for semantics in HitTestSemantics.presets {
        let frame = PresentationFrameBuilder(root: model, semantics: semantics).build(at: Double(seed) * 0.21)
        var rng = SplitMix64(seed: seed)
        let points = RandomScene.points(for: frame, count: 300, rng: &rng)
        let oracle = points.map { frame.topCandidateByScan($0) }
        for kind in StrategyKind.allCases where kind != .treeWalk {
          #expect(kind.answers(frame, points) == oracle, "\(kind.rawValue) seed \(seed) \(semantics)")
        }
      }
    }
  }
}
