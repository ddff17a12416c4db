import BenchKit
import LayerModel
import Presentation
import Scenes
import Testing
import Verification

@testable import HitTesting

@Suite struct HostileSceneTests {
  private func chain(_ depth: Int) -> Layer {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(50, 50))
    var node = root
    for i in 0..<depth {
      let next = Layer(name: "n\(i)", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(50, 51))
      if i % 1000 == 999 { next.masksToBounds = true }
      node.addSublayer(next)
      node = next
    }
    return root
  }

  @Test func aHundredThousandDeepChain() {
    let model = chain(100_000)
    for semantics in HitTestSemantics.presets {
      let builder = PresentationFrameBuilder(root: model, semantics: semantics)
      builder.build(at: 0)
      let points = [Point(50, 50), Point(50, 99.5), Point(1, 1), Point(-5, 50), Point(50, 1e6)]
      let reference = StrategyKind.treeWalk.answers(builder, points)
      #expect(reference[0] != nil)
      for kind in StrategyKind.allCases {
        #expect(kind.answers(builder, points) == reference, "\(kind.rawValue) \(semantics)")
      }
    }
  }

  @Test func aMillionLayers() {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 1000, height: 1000), position: Point(500, 500))
    var rng = SplitMix64(seed: 42)
    var parents = [root]
    for i in 0..<999_999 {
      let l = Layer(bounds: Rect(x: 0, y: 0, width: rng.uniform(1, 20), height: rng.uniform(1, 20)))
      l.position = Point(rng.uniform(0, 1000), rng.uniform(0, 1000))
      if i % 97 == 0 { l.transform = .rotation(rng.uniform(0, 6), 0, 0, 1) }
      let parent = parents[rng.below(parents.count)]
      parent.addSublayer(l)
      if i < 1000 { parents.append(l) }
    }
    let builder = PresentationFrameBuilder(root: root)
    let frame = builder.build(at: 0)
    #expect(frame.count == 1_000_000)
    // Few points: each oracle answer scans a million rows (slow in a debug build). Half are
    // centres of random layers, so most hit something deep in the list.
    var points = (0..<12).map { _ in Point(rng.uniform(-10, 1010), rng.uniform(-10, 1010)) }
    for _ in 0..<12 {
      let r = 1 + rng.below(999_999)
      points.append(
        Point(
          (frame.worldBox[r].minX + frame.worldBox[r].maxX) / 2, (frame.worldBox[r].minY + frame.worldBox[r].maxY) / 2))
    }
    let reference = points.map { frame.topCandidateByScan($0) }
    var tw = TreeWalk()
    tw.update(with: frame)
    for (i, p) in points.enumerated() {
      let oracle = ExactOracle(builder: builder)
      #expect(!AnswerComparison.compare(tw.hitTest(p), reference[i], at: p, oracle: oracle).isDisagreement)
    }
    for kind in StrategyKind.allCases where kind != .treeWalk {
      #expect(kind.answers(builder, points) == reference, "\(kind.rawValue)")
    }
  }

  @Test func nonFinitePointsHitNothing() {
    let model = RandomScene(layerCount: 50...50).make(seed: 9)
    let builder = PresentationFrameBuilder(root: model)
    builder.build(at: 0)
    let points = [Point(.nan, 1), Point(1, .nan), Point(.infinity, 0), Point(-.infinity, -.infinity)]
    for kind in StrategyKind.allCases {
      #expect(kind.answers(builder, points) == [nil, nil, nil, nil], "\(kind.rawValue)")
    }
  }

  @Test func emptySceneAndRootOnly() {
    let root = Layer(name: "root", bounds: .zero, position: .zero)
    let empty = PresentationFrameBuilder(root: root)
    empty.build(at: 0)
    for kind in StrategyKind.allCases { #expect(kind.answers(empty, [Point(0, 0)]) == [nil]) }
    root.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    let builder = PresentationFrameBuilder(root: root)
    builder.build(at: 0)
    for kind in StrategyKind.allCases {
      #expect(kind.answers(builder, [Point(-1, -1)]) == [LayerID(0)], "\(kind.rawValue)")
    }
  }
}

@Suite struct SteadyStateTests {
  /// Updates and queries allocate nothing once the strategy has seen the scene's size.
  struct Measure: StrategyVisitor {
    let builder: PresentationFrameBuilder
    let points: [Point]

    func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> UInt64 {
      var s = S()
      s.attach(to: builder.scene, semantics: builder.semantics)
      return measure(&s) { s, t in s.update(at: t, animated: true) }
    }

    func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> UInt64 {
      var s = S()
      return measure(&s) { s, t in s.update(with: builder.build(at: t, columns: S.columns)) }
    }

    func measure<S: HitTestStrategy>(_ s: inout S, _ update: (inout S, Double) -> Void) -> UInt64 {
      var results = [LayerID?](repeating: nil, count: points.count)
      var t = 0.0
      func frame() {
        update(&s, t)
        points.withUnsafeBufferPointer { ps in
          results.withUnsafeMutableBufferPointer { rs in QueryLoop.answer(s, ps, into: rs) }
        }
        t += 1.0 / 120
      }
      // Warm-up: buffers reach the scene's size, the runtime instantiates lazy metadata.
      for _ in 0..<10 { frame() }
      let used = AllocationCounter.measure {
        for _ in 0..<30 { frame() }
      }
      return used.bytes
    }
  }

  @Test(arguments: StrategyKind.allCases)
  func updateAndQueriesAllocateNothing(_ kind: StrategyKind) {
    for seed in [3, 4] as [UInt64] {
      let model = RandomScene(layerCount: 400...400, hostile: false, animatedFraction: 1).make(seed: seed)
      let builder = PresentationFrameBuilder(root: model)
      var rng = SplitMix64(seed: seed)
      let points = (0..<200).map { _ in Point(rng.uniform(-50, 450), rng.uniform(-50, 450)) }
      #expect(kind.dispatch(Measure(builder: builder, points: points)) == 0, "\(kind.rawValue) seed \(seed)")
    }
  }

  @Test func refitRebuildsWhenTheOrderChanges() {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(50, 50))
    let a = Layer(name: "a", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(25, 25))
    let b = Layer(name: "b", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(25, 25))
    root.addSublayer(a)
    root.addSublayer(b)
    let z = BasicAnimation(keyPath: .zPosition, from: .scalar(-1), to: .scalar(1))
    z.duration = 1
    a.add(z, forKey: "z")
    let builder = PresentationFrameBuilder(root: root)
    var s = RefitBVH()
    s.update(with: builder.build(at: 0.1))
    #expect(s.hitTest(Point(10, 10)) == LayerID(2))
    s.update(with: builder.build(at: 0.2))
    #expect(s.rebuilds == 1, "same order: refit only")
    s.update(with: builder.build(at: 0.9))
    #expect(s.rebuilds == 2, "a's zPosition passed b's: the order changed")
    #expect(s.hitTest(Point(10, 10)) == LayerID(1))
  }
}
