import LayerModel
import Presentation
import SceneFormat
import Scenes
import Testing

@testable import HitTesting

/// Fixed scenes for every disagreement ever found, each with the point that exposed it.
@Suite struct RegressionTests {
  private func repoPath(_ relative: String) -> String {
    let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    return parts.dropLast(3).joined(separator: "/") + "/" + relative
  }

  /// The grid skipped its cells for points on the far edge of a domain 1e12 wide: the domain
  /// test used origin + columns * side, which rounds below the rows' true maximum.
  @Test func gridAnswersOnTheFarEdgeOfAWideDomain() throws {
    let model = try SceneFile.read(path: repoPath("data/regressions/grid-domain-edge.json"))
    let builder = PresentationFrameBuilder(root: model, semantics: .calayerSeed)
    let frame = builder.build(at: 2.643029424975943)
    let p = Point(x: 635.9077712629094, y: 403.3399430809295)
    let oracle = try #require(frame.topCandidateByScan(p))
    for kind in StrategyKind.allCases where kind != .treeWalk {
      #expect(kind.answers(builder, [p]) == [oracle], "\(kind.rawValue)")
    }
  }
}
