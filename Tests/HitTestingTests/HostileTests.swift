import Allocations
import BenchKit
import LayerModel
import Presentation
import Scenes
import TestSupport
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

  /// A chain 100,000 deep, each layer a 100 x 100 square one point below its parent (every
  /// thousandth masks to bounds): the deepest layer holding a point at height y is the one at
  /// depth floor(y) (within the first hundred), derived by hand; every strategy answers it.
  @Test func aHundredThousandDeepChain() {
    let model = chain(TestSize.pick(full: 100_000, fast: 20_000))
    let points = [Point(50, 50), Point(50, 99.5), Point(1, 1), Point(-5, 50), Point(50, 1e6)]
    let expected: [LayerID?] = [LayerID(50), LayerID(99), LayerID(1), nil, nil]
    for semantics in HitTestSemantics.presets {
      let builder = PresentationFrameBuilder(root: model, semantics: semantics)
      builder.build(at: 0)
      for kind in StrategyKind.allCases {
        #expect(kind.answers(builder, points) == expected, "\(kind.rawValue) \(semantics)")
      }
    }
  }

  /// A million layers (150,000 in the fast loop) under 1,000 random parents.
  @Test func aMillionLayers() {
    let n = TestSize.pick(full: 1_000_000, fast: 150_000)
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 1000, height: 1000), position: Point(500, 500))
    var rng = SplitMix64(seed: 42)
    var parents = [root]
    for i in 0..<(n - 1) {
      let l = Layer(bounds: Rect(x: 0, y: 0, width: rng.uniform(1, 20), height: rng.uniform(1, 20)))
      l.position = Point(rng.uniform(0, 1000), rng.uniform(0, 1000))
      if i % 97 == 0 { l.transform = .rotation(rng.uniform(0, 6), 0, 0, 1) }
      let parent = parents[rng.below(parents.count)]
      parent.addSublayer(l)
      if i < 1000 { parents.append(l) }
    }
    let builder = PresentationFrameBuilder(root: root)
    let frame = builder.build(at: 0)
    #expect(frame.count == n)
    // Few points: each oracle answer scans a million rows (slow in a debug build). Half are
    // centres of random layers, so most hit something deep in the list.
    var points = (0..<12).map { _ in Point(rng.uniform(-10, 1010), rng.uniform(-10, 1010)) }
    for _ in 0..<12 {
      let r = 1 + rng.below(n - 1)
      points.append(
        Point(
          (frame.worldBox[r].minX + frame.worldBox[r].maxX) / 2, (frame.worldBox[r].minY + frame.worldBox[r].maxY) / 2))
    }
    let reference = points.map { frame.topCandidateByScan($0) }
    var tw = TreeWalk()
    tw.update(with: frame)
    let oracle = ReferenceOracle(builder: builder, tree: .presentation)
    for (i, p) in points.enumerated() {
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
  // That no frame allocates is proven by the benchmark itself, in a process of its own
  // (Tests/CLITests/AllocationTests.swift).

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
