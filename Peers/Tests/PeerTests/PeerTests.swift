import Foundation
import HitBenchCLI
import HitTesting
import LayerModel
import PeerStrategies
import Presentation
import Scenes
import Testing
import Verification

/// The fast loop's sizes (`bash scripts/test.sh --fast` sets HITBENCH_TEST_SIZE=fast): the same
/// assertions on fewer scenes and points.
let fast = ProcessInfo.processInfo.environment["HITBENCH_TEST_SIZE"] == "fast"

/// The peers, checked like every strategy of the harness: against tree-walk on random hostile
/// scenes (every preset, animated), against the flat form's exhaustive scan bit for bit, with a
/// 1e-6 pt fault caught, and large scenes where the libraries' trees get deep.
@Suite struct PeerTests {
  static let peers: [StrategyKind] = {
    Peers.register()
    return StrategyKind.allCases.filter { $0.family == .peer }
  }()

  @Test func everyInstalledPeerIsRegistered() {
    let installed = Peers.all.filter(\.available).map(\.name)
    #expect(Self.peers.map(\.rawValue) == installed)
    #expect(!installed.isEmpty, "no peer library installed: scripts/peers.sh installs them")
  }

  @Test(arguments: HitTestSemantics.presets)
  func everyPeerAgreesWithTheTreeWalk(_ semantics: HitTestSemantics) {
    var verifier = Verifier()
    verifier.scenes = fast ? 40 : 150
    verifier.points = fast ? 400 : 1000
    verifier.seed = 2027
    verifier.semantics = [semantics]
    verifier.strategies = Self.peers
    verifier.generator = RandomScene(animatedFraction: 0.5)
    let report = verifier.run()
    for kind in Self.peers {
      #expect(report.comparisons(of: kind) == verifier.scenes * verifier.points * 2, "\(kind.rawValue)")
    }
    for d in report.disagreements {
      Issue.record("\(d.strategy.rawValue) \(d.semantics.name) \(d.tree) scene \(d.sceneSeed) t=\(d.time) p=\(d.point)")
    }
    #expect(report.disagreementCount == 0)
    #expect(report.passed)
  }

  @Test func aShrinkOfOneMillionthOfAPointIsCaught() {
    var verifier = Verifier()
    verifier.scenes = fast ? 12 : 30
    verifier.points = fast ? 300 : 500
    verifier.seed = 2027
    verifier.strategies = Self.peers
    for fault in [Verifier.Fault.shrink(1e-6), .shift(1e-6), .flag, .order] {
      verifier.fault = fault
      let report = verifier.run()
      for kind in Self.peers {
        #expect(report.disagreements(of: kind) > 0, "\(kind.rawValue) with \(fault) passed verification")
      }
    }
  }

  @Test func peersEqualTheFlatFormExactlyOnGeneratedScenes() {
    // Particles, app and ui at 2,000 layers (800 in the fast loop) over several frames: the
    // libraries move, refit and rebuild their trees between frames; each answer must equal the
    // exhaustive scan.
    for kind in [SceneKind.particles, .app, .ui] {
      let model = SceneGenerator(kind: kind, layers: fast ? 800 : 2000, seed: 5).make()
      let builder = PresentationFrameBuilder(root: model, semantics: .calayer)
      for step in 0..<4 {
        let frame = builder.build(at: 0.25 + Double(step) / 30)
        var rng = SplitMix64(seed: UInt64(step))
        let points = RandomScene.points(for: frame, count: 400, rng: &rng)
        let oracle = points.map { frame.topCandidateByScan($0) }
        for peer in Self.peers {
          #expect(peer.answers(builder, points) == oracle, "\(peer.rawValue) \(kind) frame \(step)")
        }
      }
    }
  }

  @Test func theCommandLineListsRunsAndVerifiesThePeers() {
    _ = Self.peers
    #expect(HitBenchCLI.run(["verify", "--scenes", "3", "--points", "50", "--strategy", "all"]) == 0)
    let names = Self.peers.map(\.rawValue).joined(separator: ",")
    #expect(
      HitBenchCLI.run([
        "run", "--scene", "particles", "--layers", "300", "--frames", "3", "--warmup", "1", "--queries", "20",
        "--strategy", "tree-walk," + names, "--verify", "--format", "json", "--output", "/dev/null",
      ]) == 0)
  }
}
