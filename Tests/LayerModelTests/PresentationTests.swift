import Allocations
import BenchKit
import Presentation
import SceneFormat
import Scenes
import TestSupport
import Testing
import Verification

@testable import LayerModel

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct PresentationTreeTests {
  @Test func modelIsUntouchedAndPresentationFollowsTheAnimation() throws {
    let root = try SceneFile.read(path: repoPath("data/scenes/seed-move.json"))
    let orange = root.sublayers[0]
    let before = SceneFile.encode(root)
    let p1 = root.presentation(at: 1)
    #expect(p1.hitTest(Point(150, 50))?.modelLayer === orange)
    #expect(root.hitTest(Point(150, 50)) === root, "the model tree answers for where the layer is not")
    #expect(p1.sublayers[0].position == Point(110, 0))
    #expect(p1.sublayers[0].modelLayer === orange && p1.modelLayer === root)
    #expect(orange.presentation(at: 3).position.x == 110)
    let tree = root.presentation(at: 3)
    #expect(tree.sublayers[0].superlayer === tree && tree.sublayers[0].modelLayer === orange)
    #expect(SceneFile.encode(root) == before)
  }

  @Test func layerTimingReachesItsAnimations() {
    let root = Layer(bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(50, 50))
    let child = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(0, 0))
    root.addSublayer(child)
    let a = BasicAnimation(keyPath: .positionX, from: .scalar(0), to: .scalar(100))
    a.duration = 10
    child.add(a, forKey: "a")
    root.speed = 0
    root.timeOffset = 5
    #expect(child.presentation(at: 1).position.x == 50, "a paused parent holds its subtree at timeOffset")
    root.speed = 2
    root.timeOffset = 0
    #expect(child.presentation(at: 1).position.x == 20)
  }
}

/// Whether the flat answer `answer` agrees with CALayer's recursive walk over the presentation
/// tree at `p`: the same answer, or two answers the reference oracle accepts (they differ only
/// within the measured rounding of an edge).
func referenceAgrees(
  _ tree: Layer, _ builder: PresentationFrameBuilder, _ p: Point, _ answer: LayerID?,
  _ ids: [ObjectIdentifier: Int32], _ semantics: HitTestSemantics
) -> Bool {
  let expected = tree.hitTest(p, semantics: semantics).map { LayerID(ids[ObjectIdentifier($0.modelLayer ?? $0)]!) }
  if expected == answer { return true }
  let oracle = ReferenceOracle(builder: builder, tree: .presentation)
  return oracle.accepts(answer, at: p) && oracle.accepts(expected, at: p)
}

@Suite struct PresentationFrameTests {
  @Test func flatFormAgreesWithTheTreeWalkOnRandomScenes() {
    var disagreements = 0
    var comparisons = 0
    for seed in 0..<150 as Range<UInt64> {
      let model = RandomScene().make(seed: seed)
      let ids = Dictionary(
        uniqueKeysWithValues: model.subtreeInPreorder.enumerated().map { (ObjectIdentifier($1), Int32($0)) })
      var rng = SplitMix64(seed: seed ^ 0xABCD)
      let t = rng.uniform(0, 5)
      let tree = model.presentation(at: t)
      for semantics in HitTestSemantics.presets {
        let builder = PresentationFrameBuilder(root: model, semantics: semantics)
        let frame = builder.build(at: t)
        for p in RandomScene.points(for: frame, count: 150, rng: &rng) {
          comparisons += 1
          if !referenceAgrees(tree, builder, p, frame.topCandidateByScan(p), ids, semantics) { disagreements += 1 }
        }
      }
    }
    #expect(comparisons == 150 * 3 * 150)
    #expect(disagreements == 0)
  }

  @Test func rowOrderIsTheReferenceWalksPriorityOrder() {
    for seed in 0..<60 as Range<UInt64> {
      let model = RandomScene(layerCount: 2...40, hostile: false, animatedFraction: 0.5).make(seed: seed)
      // Make every layer cover the plane, unclipped, visible and invertible: then the walk's
      // answers, removing each answer in turn, list the layers in descending priority.
      for l in model.subtreeInPreorder {
        l.bounds = Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
        l.masksToBounds = false
        l.isHidden = false
        l.transform = .identity
        l.sublayerTransform = .identity
        l.opacity = 1
        l.isUserInteractionEnabled = true
        l.anchorPoint = Point(0.5, 0.5)
        for k in l.animationKeys() where !["z", "move"].contains(k) { l.removeAnimation(forKey: k) }
      }
      let layers = model.subtreeInPreorder
      for semantics in [HitTestSemantics.calayer, .calayerSeed] {
        let t = Double(seed % 7) * 0.37
        let frame = PresentationFrameBuilder(root: model, semantics: semantics).build(at: t)
        let tree = model.presentation(at: t)
        let copies = tree.subtreeInPreorder
        var walkOrder: [Int] = []
        for _ in 0..<layers.count {
          guard let h = tree.hitTest(Point(0, 0), semantics: semantics) else { break }
          let i = copies.firstIndex { $0 === h }!
          walkOrder.append(i)
          h.bounds = .null  // no longer a candidate itself, its sublayers still are
        }
        let rows = (0..<frame.count).reversed().map { Int(frame.layer[$0].rawValue) }
        #expect(walkOrder == rows, "seed \(seed) \(semantics)")
      }
    }
  }

  @Test func worldBoxesHoldTheMappedCorners() {
    for seed in 0..<100 as Range<UInt64> {
      let model = RandomScene().make(seed: seed)
      let frame = PresentationFrameBuilder(root: model).build(at: Double(seed) * 0.1)
      for r in 0..<frame.count where frame.flags[r].contains(.hittable) {
        let corners = [
          Point(frame.bounds[r].minX, frame.bounds[r].minY), Point(frame.bounds[r].maxX, frame.bounds[r].minY),
          Point(frame.bounds[r].maxX, frame.bounds[r].maxY), Point(frame.bounds[r].minX, frame.bounds[r].maxY),
        ]
        var unclipped = true
        var g = Int(frame.parent[r])
        while g >= 0 {
          if frame.flags[g].contains(.clips) { unclipped = false }
          g = Int(frame.parent[g])
        }
        guard unclipped else { continue }
        for c in corners {
          guard let w = frame.toWorldMap(r).apply(c), w.x.isFinite, w.y.isFinite else { continue }
          #expect(w.x >= frame.worldBox[r].minX && w.x <= frame.worldBox[r].maxX, "seed \(seed) row \(r)")
          #expect(w.y >= frame.worldBox[r].minY && w.y <= frame.worldBox[r].maxY, "seed \(seed) row \(r)")
        }
      }
    }
  }

  @Test func subtreeStructureIsConsistent() {
    for seed in 0..<50 as Range<UInt64> {
      let model = RandomScene(layerCount: 1...200).make(seed: seed)
      let frame = PresentationFrameBuilder(root: model).build(at: 1.5)
      #expect(frame.count == model.subtreeInPreorder.count)
      #expect(frame.parent[0] == -1 && Int(frame.subtreeEnd[0]) == frame.count)
      for r in 1..<frame.count {
        let p = Int(frame.parent[r])
        #expect(p < r && r < Int(frame.subtreeEnd[p]) && Int(frame.subtreeEnd[r]) <= Int(frame.subtreeEnd[p]))
      }
      #expect(Set((0..<frame.count).map { frame.layer[$0] }).count == frame.count)
    }
  }

  @Test func compiledAnimationsEqualThePresentationTreeBitForBit() {
    // The builder compiles point keyframes into contiguous tracks; the presentation tree runs
    // every animation through its class. Same frame, to the last bit.
    for seed in 0..<80 as Range<UInt64> {
      let model = RandomScene(layerCount: 20...120, hostile: false, animatedFraction: 0.9).make(seed: seed)
      for k in model.subtreeInPreorder where seed % 2 == 0 {
        let a = KeyframeAnimation(keyPath: .position)
        a.values = [.point(Point(0, 0)), .point(Point(100, 40)), .point(Point(30, 90))]
        a.calculationMode = [.linear, .paced, .discrete][Int(seed / 2) % 3]
        a.timingFunctions = seed % 4 == 0 ? [.easeIn, .easeOut] : nil
        a.timingFunction = .easeInEaseOut
        a.duration = 1.3
        a.repeatCount = [.infinity, 0.5, 0.75, 2.25][Int(seed / 6) % 4]
        a.autoreverses = seed % 3 != 0
        a.timeOffset = [0, 0.4, 2.9, -1.1][Int(seed / 3) % 4]
        a.beginTime = Double(seed % 5) * 0.3
        a.fillMode = FillMode.allCases[Int(seed / 4) % 4]
        a.isRemovedOnCompletion = seed % 7 < 3
        k.add(a, forKey: "extra")
      }
      let t = Double(seed) * 0.173
      let animated = PresentationFrameBuilder(root: model).build(at: t)
      let copy = PresentationFrameBuilder(root: model.presentation(at: t)).build(at: 0, animated: false)
      #expect(animated.count == copy.count)
      for r in 0..<animated.count {
        #expect(animated.layer[r] == copy.layer[r], "seed \(seed) row \(r)")
        #expect(
          animated.toWorldMap(r) == copy.toWorldMap(r) || !animated.toWorldMap(r).isFinite, "seed \(seed) row \(r)")
        #expect(animated.flags[r].rawValue == copy.flags[r].rawValue, "seed \(seed) row \(r)")
      }
    }
  }

  @Test func modelTreeFrameIgnoresAnimations() throws {
    let root = try SceneFile.read(path: repoPath("data/scenes/seed-move.json"))
    let builder = PresentationFrameBuilder(root: root)
    #expect(builder.build(at: 1).topCandidateByScan(Point(150, 50)) == LayerID(1))
    #expect(builder.build(at: 1, animated: false).topCandidateByScan(Point(150, 50)) == LayerID(0))
  }

}
