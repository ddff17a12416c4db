import LayerModel
import Presentation
import SceneFormat
import Scenes
import Testing
import Verification

@testable import HitTesting

/// One test per defect found by the reliability audit (docs/reliability.md lists them), each
/// shown to fail before its fix. Inputs that are files live in data/regressions/.
@Suite struct ReliabilityTests {
  private func repoPath(_ relative: String) -> String {
    let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    return parts.dropLast(3).joined(separator: "/") + "/" + relative
  }

  private func answersAgreeWithTheScan(_ kind: StrategyKind, _ builder: PresentationFrameBuilder, _ points: [Point])
    -> Bool
  {
    kind.answers(builder, points) == points.map { builder.frame.topCandidateByScan($0) }
  }

  /// The grid sized a per-row buffer by another buffer's capacity, which the allocator rounds
  /// up: a later frame with a few more rows wrote past its end.
  @Test func gridBuffersFollowTheRowCountNotACapacity() {
    let root = SceneGenerator(kind: .wide, layers: 999, animatedFraction: 0).make()
    let builder = PresentationFrameBuilder(root: root)
    var grid = UniformGrid()
    grid.update(with: builder.build(at: 0))
    for i in 0..<10 {
      let l = Layer(name: "extra\(i)", bounds: Rect(x: 0, y: 0, width: 30, height: 30))
      l.position = Point(Double(i) * 40 + 20, 300)
      root.addSublayer(l)
    }
    builder.reloadTopology()
    let frame = builder.build(at: 0)
    grid.update(with: frame)
    let points = (0..<400).map { Point(Double($0 % 20) * 52 + 3, Double($0 / 20) * 39 + 1) }
    #expect(frame.count == 1009)
    #expect(grid.span.count >= frame.count)
    #expect(answersAgreeWithTheScan(.grid, builder, points))
  }

  /// Strategies keep the builder's one frame object: after it is rebuilt (here with ten times
  /// the rows) a strategy that was not updated must not answer from its stale index.
  @Test(arguments: StrategyKind.allCases)
  func aStrategyQueriedAfterItsFrameWasRebuiltStops(_ kind: StrategyKind) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) { [kind] in
      let root = SceneGenerator(kind: .app, layers: 100).make()
      let builder = PresentationFrameBuilder(root: root)
      struct Stale: StrategyVisitor {
        let builder: PresentationFrameBuilder
        func visit<S: SceneStrategy>(sceneStrategy type: S.Type) {
          var s = S()
          s.attach(to: builder.scene, semantics: builder.semantics)
          s.update(at: 0, animated: true)
          builder.root.addSublayer(Layer(name: "late", bounds: Rect(x: 0, y: 0, width: 5, height: 5)))
          builder.build(at: 0.5)
          let points = [Point(10, 10)]
          var out: [LayerID?] = [nil]
          points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { s.answer(p, into: $0) }
          }
        }
        func visit<S: FrameStrategy>(frameStrategy type: S.Type) {
          var s = S()
          s.update(with: builder.build(at: 0))
          for i in 0..<900 {
            builder.root.addSublayer(Layer(name: "x\(i)", bounds: Rect(x: 0, y: 0, width: 5, height: 5)))
          }
          builder.reloadTopology()
          builder.build(at: 0.5)
          let points = [Point(10, 10)]
          var out: [LayerID?] = [nil]
          points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { s.answer(p, into: $0) }
          }
        }
      }
      kind.dispatch(Stale(builder: builder))
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(stderr.contains("queried after its presentation frame was rebuilt"), "\(stderr)")
  }

  /// The same strategy values reused across frames (and, for scene strategies, scenes) that
  /// grow and shrink, updated each time, answer as tree-walk does up to what the oracle
  /// tolerates (invariant checks run at every update in this build).
  @Test(arguments: StrategyKind.allCases)
  func strategiesReusedAcrossFramesOfDifferentSizes(_ kind: StrategyKind) {
    struct Reuse: StrategyVisitor {
      func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> Int {
        var s = S()
        return Self.sizes { builder, t in
          s.attach(to: builder.scene, semantics: builder.semantics)
          s.update(at: t, animated: true)
          return s
        }
      }
      func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> Int {
        var s = S()
        return Self.sizes { builder, t in
          s.update(with: builder.build(at: t))
          return s
        }
      }
      /// Disagreements over frames of seven sizes, the strategy prepared by `prepare` for each.
      static func sizes<S: HitTestStrategy>(_ prepare: (PresentationFrameBuilder, Double) -> S) -> Int {
        var bad = 0
        for (k, n) in [50, 3000, 20, 1009, 999, 4000, 10].enumerated() {
          let model = SceneGenerator(kind: [.app, .particles, .cards][k % 3], layers: max(n, 10)).make()
          let builder = PresentationFrameBuilder(root: model)
          let t = Double(k) * 0.3
          builder.build(at: t)
          let s = prepare(builder, t)
          var rng = SplitMix64(seed: UInt64(k))
          let points = (0..<200).map { _ in Point(rng.uniform(-50, 1100), rng.uniform(-50, 900)) }
          var out = [LayerID?](repeating: nil, count: points.count)
          points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { s.answer(p, into: $0) }
          }
          let reference = StrategyKind.treeWalk.answers(builder, points)
          let oracle = ReferenceOracle(builder: builder, tree: .presentation)
          for i in points.indices
          where AnswerComparison.compare(out[i], reference[i], at: points[i], oracle: oracle).isDisagreement {
            bad += 1
          }
        }
        return bad
      }
    }
    #expect(kind.dispatch(Reuse()) == 0, "\(kind.rawValue)")
  }

  /// A bounds width at Double's limit overflowed the grid's extent, and converting the NaN cell
  /// count to Int was undefined behaviour (a trap in this build). The scene reader now refuses
  /// such a file; built through the API, the grid still answers as the scan does.
  @Test func aHugeWidthBuiltThroughTheAPIKeepsTheGridDefined() {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 400, height: 400), position: Point(200, 200))
    let wide = Layer(name: "wide", bounds: Rect(x: 0, y: 0, width: .greatestFiniteMagnitude, height: 10))
    wide.position = Point(0, 0)
    root.addSublayer(wide)
    root.addSublayer(Layer(name: "small", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(300, 300)))
    let builder = PresentationFrameBuilder(root: root)
    builder.build(at: 0)
    let points = [Point(0, 0), Point(300, 300), Point(1e300, 2), Point(-1e308, 1), Point(5, 400)]
    for kind in StrategyKind.allCases where kind != .treeWalk {
      #expect(answersAgreeWithTheScan(kind, builder, points), "\(kind.rawValue)")
    }
  }

  /// Scenes whose composite map distorts beyond what Double resolves (two nested 1e11:1
  /// transforms): every strategy, tree-walk included, treats the layer as degenerate.
  @Test func overDistortedCompositeMapsAreDegenerateForEveryStrategy() throws {
    let model = try SceneFile.read(path: repoPath("data/regressions/nested-distortion.json"))
    let builder = PresentationFrameBuilder(root: model)
    let frame = builder.build(at: 0)
    let leaf = try #require(frame.row(of: LayerID(3)))
    #expect(frame.flags[leaf].contains(.degenerate) || frame.flags[Int(frame.parent[leaf])].contains(.degenerate))
    var rng = SplitMix64(seed: 5)
    let points = (0..<500).map { _ in Point(rng.uniform(-100, 500), rng.uniform(-100, 500)) }
    let reference = StrategyKind.treeWalk.answers(builder, points)
    #expect(reference.allSatisfy { $0 == nil || $0 == LayerID(0) || $0 == LayerID(1) }, "inner and leaf are degenerate")
    #expect(reference.contains(LayerID(0)))
    for kind in StrategyKind.allCases { #expect(kind.answers(builder, points) == reference, "\(kind.rawValue)") }
  }
}

extension StrategyKind: Codable {}
