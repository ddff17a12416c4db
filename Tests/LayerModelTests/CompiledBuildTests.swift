import Allocations
import BenchKit
import LayerModel
import Scenes
import TestSupport
import Testing
import Verification

@testable import Presentation

/// The first difference between two frames' rows, bit for bit (every column the frames hold),
/// or nil when they are identical.
func firstDifference(_ a: PresentationFrame, _ b: PresentationFrame) -> String? {
  guard a.count == b.count else { return "row counts \(a.count) and \(b.count)" }
  func same(_ x: Homography, _ y: Homography) -> Bool {
    [x.m11, x.m12, x.m14, x.m21, x.m22, x.m24, x.m41, x.m42, x.m44].map(\.bitPattern)
      == [y.m11, y.m12, y.m14, y.m21, y.m22, y.m24, y.m41, y.m42, y.m44].map(\.bitPattern)
  }
  func same(_ x: Box, _ y: Box) -> Bool {
    [x.minX, x.minY, x.maxX, x.maxY].map(\.bitPattern) == [y.minX, y.minY, y.maxX, y.maxY].map(\.bitPattern)
  }
  let world = a.columns.contains(.world) && b.columns.contains(.world)
  for r in 0..<a.count {
    if a.layer[r] != b.layer[r] || a.parent[r] != b.parent[r] || a.subtreeEnd[r] != b.subtreeEnd[r] {
      return "row \(r): structure (layer \(a.layer[r]) / \(b.layer[r]))"
    }
    if a.flags[r].rawValue != b.flags[r].rawValue {
      return "row \(r) (layer \(a.layer[r])): flags \(a.flags[r].rawValue) / \(b.flags[r].rawValue)"
    }
    if !same(a.bounds[r], b.bounds[r]) {
      return "row \(r) (layer \(a.layer[r])): bounds \(a.bounds[r]) / \(b.bounds[r])"
    }
    if !same(a.toWorldMap(r), b.toWorldMap(r)) {
      return "row \(r) (layer \(a.layer[r])): toWorld \(a.toWorldMap(r)) / \(b.toWorldMap(r))"
    }
    if !same(a.fromParentMap(r), b.fromParentMap(r)) { return "row \(r) (layer \(a.layer[r])): fromParent" }
    if world {
      if !same(a.fromWorldMap(r), b.fromWorldMap(r)) { return "row \(r) (layer \(a.layer[r])): fromWorld" }
      if !same(a.worldBox[r], b.worldBox[r]) {
        return "row \(r) (layer \(a.layer[r])): worldBox \(a.worldBox[r]) / \(b.worldBox[r])"
      }
      if a.guardRow[r] != b.guardRow[r] { return "row \(r): guardRow" }
    }
  }
  return nil
}

/// A random tree (not hostile: every value finite) with `count` animations of every kind
/// (`RandomAnimation`) on random layers, some layers with their own timing.
func everyKindScene(seed: UInt64, layers: ClosedRange<Int> = 20...80, animations: Int = 40) -> Layer {
  let root = RandomScene(layerCount: layers, hostile: false, animatedFraction: 0.2).make(seed: seed)
  var rng = SplitMix64(seed: seed &* 7919 &+ 3)
  let all = root.subtreeInPreorder
  let maker = RandomAnimation()
  for i in 0..<animations {
    let l = all[rng.below(all.count)]
    l.add(maker.make(nil, &rng), forKey: "k\(i)")
  }
  return root
}

@Suite struct CompiledBuildTests {
  /// The compiled animations (records, tracks, the lean and general lanes) against the
  /// animation classes: the frame built from the model at time t equals, bit for bit, the frame
  /// built from the class-evaluated presentation tree; each lean layer's presentation numbers
  /// equal the class's, and so does every layer's reported state (`presentationState(ofLayer:)`). Every kind: basic (every from/to/by), keyframes (every mode, keyTimes,
  /// segment timing functions), paths with rotationMode, springs in each regime, nested groups,
  /// additive and cumulative, timing functions, media timing, layer timing.
  @Test func compiledAnimationsOfEveryKindEqualTheClassesBitForBit() {
    var checkedLean = 0
    var checkedTimed = 0
    for seed in 0..<120 as Range<UInt64> {
      let model = everyKindScene(seed: seed)
      for t in [0, 0.37, 1.1, Double(seed) * 0.173, 7.9] {
        let builder = PresentationFrameBuilder(root: model)
        builder.build(at: t - 0.05)
        let compiled = builder.build(at: t)  // incremental, with cursors from the last build
        let tree = model.presentation(at: t)
        let classes = PresentationFrameBuilder(root: tree).build(at: 0, animated: false)
        if let d = firstDifference(compiled, classes) {
          Issue.record("seed \(seed) t \(t): \(d)")
          return
        }
        let copies = tree.subtreeInPreorder
        for m in 0..<builder.layers.count where builder.leanLevel[m] {
          let want = LeanValues(LayerState(copies[m]))
          let have = builder.presentValues[m]
          for i in 0..<11 where want.v[i].bitPattern != have.v[i].bitPattern {
            Issue.record("seed \(seed) t \(t) layer \(m): number \(i) is \(have.v[i]), the class says \(want.v[i])")
            return
          }
          checkedLean += 1
        }
        // Every layer's state as the builder reports it (the scene's own local times, through
        // every layer timing above it) is the class's presentation copy's.
        for m in 0..<copies.count {
          let have = "\(builder.presentationState(ofLayer: m))"
          let want = "\(LayerState(copies[m]))"
          if have != want {
            Issue.record("seed \(seed) t \(t) layer \(m): the builder's state \(have), the class's \(want)")
            return
          }
          if builder.scene.timingNode[m] >= 0 && builder.scene.bits[m].contains(.animated) { checkedTimed += 1 }
        }
      }
    }
    #expect(checkedLean > 10_000, "the lean lane was exercised (\(checkedLean) layer-times)")
    #expect(checkedTimed > 1_000, "animated layers under layer timings were checked (\(checkedTimed) layer-times)")
  }

  /// Every scene kind the generators make, at several times: the same bits as the classes.
  @Test func generatedScenesEqualTheClassesBitForBit() {
    for kind in SceneKind.allCases {
      let model = SceneGenerator(kind: kind, layers: 600, animatedFraction: 0.7, seed: 5).make()
      let builder = PresentationFrameBuilder(root: model)
      for t in stride(from: 0.0, to: 3, by: 0.37) {
        let compiled = builder.build(at: t)
        let classes = PresentationFrameBuilder(root: model.presentation(at: t)).build(at: 0, animated: false)
        if let d = firstDifference(compiled, classes) {
          Issue.record("\(kind) t \(t): \(d)")
          break
        }
      }
    }
  }

  /// A scene whose model was released, after compiling, while compiling (`init(releasing:)`,
  /// which takes the animations out as it goes) or never held whole (`init(layers:generating:)`,
  /// fed each top-level layer as the generator seals it), builds the same frames, bit for bit,
  /// as one that keeps it, for every generated kind (its own timings, 3D and general
  /// animations included); the model is freed once its holder lets go, and the scene stays
  /// final.
  @Test func aReleasedModelBuildsTheSameFrames() {
    for kind in SceneKind.allCases {
      let generator = SceneGenerator(kind: kind, layers: 700, animatedFraction: 0.6, seed: 8)
      var model: Layer? = generator.make()
      let generated = CompiledScene(layers: 700, generating: { generator.make(sealing: $0) })
      #expect(generated.modelReleased && generated.count == 700 && generated.root.sublayers.isEmpty)
      let compiledGenerating = PresentationFrameBuilder(scene: generated)
      let kept = PresentationFrameBuilder(root: model!.deepCopy())
      var handedOver: Layer? = model!.deepCopy()
      weak let handedOverLeaf = handedOver!.subtreeInPreorder.last
      let compiledReleasing = PresentationFrameBuilder(scene: CompiledScene(releasing: handedOver.take()!))
      #expect(handedOverLeaf == nil, "\(kind): the model handed over is freed")
      let scene = CompiledScene(root: model!)
      let released = PresentationFrameBuilder(scene: scene)
      released.build(at: 0.2)
      weak let leaf = model!.subtreeInPreorder.last
      let count = scene.count
      scene.releaseModel()
      model = nil
      #expect(leaf == nil, "\(kind): the model is freed")
      #expect(scene.modelReleased && scene.layers.isEmpty && scene.count == count && scene.root.sublayers.isEmpty)
      #expect(!scene.synchronize().topology, "\(kind): a released scene has nothing to synchronize")
      for t in [0.2, 0.21, 1.7, 3.05] {
        let expected = kept.build(at: t)
        if let d = firstDifference(released.build(at: t), expected) {
          Issue.record("\(kind) t \(t): \(d)")
          break
        }
        if let d = firstDifference(compiledReleasing.build(at: t), expected) {
          Issue.record("\(kind) t \(t), compiled releasing: \(d)")
          break
        }
        if let d = firstDifference(compiledGenerating.build(at: t), expected) {
          Issue.record("\(kind) t \(t), compiled while generated: \(d)")
          break
        }
      }
    }
  }

  /// A builder whose columns and rows were freed (`releaseColumns()`, what a run does while a
  /// scene strategy runs) holds no rows, then builds the frames of one that kept them, bit for
  /// bit, threaded or not, with every column or the structure only, for every generated kind.
  @Test func releasedColumnsBuildTheSameFrames() {
    let n = BuildWorkers.minimumRowsToSplit + 500
    for kind in SceneKind.allCases {
      let model = SceneGenerator(kind: kind, layers: n, animatedFraction: 0.6, seed: 5).make()
      for threads in [1, 2] {
        let kept = PresentationFrameBuilder(root: model.deepCopy(), threads: threads)
        let releasing = PresentationFrameBuilder(root: model.deepCopy(), threads: threads)
        for (t, columns) in [(0.3, FrameColumns.all), (0.31, .all), (2.2, .structure), (2.25, .all)] {
          releasing.build(at: t - 0.01, columns: columns)
          releasing.releaseColumns()
          #expect(releasing.frame.count == 0 && releasing.frame.memoryFootprint == 0, "\(kind): rows kept")
          let expected = kept.build(at: t, columns: columns)
          if let d = firstDifference(releasing.build(at: t, columns: columns), expected) {
            Issue.record("\(kind) threads \(threads) t \(t): \(d)")
            return
          }
        }
      }
    }
  }

  /// Split builds (2 and 3 threads, any split row) give the frame of one thread, bit for bit,
  /// on full and incremental builds, for every generated scene kind.
  @Test func threadsGiveTheSameFrameBitForBit() {
    let n = BuildWorkers.minimumRowsToSplit + 1500
    for kind in SceneKind.allCases {
      let model = SceneGenerator(kind: kind, layers: n, animatedFraction: 0.6, seed: 11).make()
      let one = PresentationFrameBuilder(root: model, threads: 1)
      let two = PresentationFrameBuilder(root: model, threads: 2)
      let three = PresentationFrameBuilder(root: model, threads: 3)
      for t in [0, 0.05, 0.1, 1.3, 1.31, 4.2] {
        let a = one.build(at: t)
        for b in [two, three] {
          if let d = firstDifference(a, b.build(at: t)) {
            Issue.record("\(kind) t \(t) threads \(b.threads): \(d)")
            return
          }
        }
      }
    }
  }

  /// An incremental build (after any change to the model: properties, animations, layers,
  /// timing) equals a fresh builder's full build at the same time, bit for bit; with one thread
  /// and split across two.
  @Test func incrementalBuildsEqualFullBuilds() {
    for seed in 0..<UInt64(TestSize.pick(full: 120, fast: 40)) {
      let big = seed % 20 == 0
      let model = everyKindScene(
        seed: seed, layers: big ? 4500...5200 : 20...80, animations: big ? 800 : 30)
      var rng = SplitMix64(seed: seed &+ 99)
      let builder = PresentationFrameBuilder(root: model, threads: big ? 2 : 1)
      var t = rng.uniform(0, 2)
      builder.build(at: t)
      for step in 0..<25 {
        if rng.chance(0.6) { _mutate(model, &rng) }
        t += rng.chance(0.8) ? 1.0 / 120 : rng.uniform(-1, 3)
        let incremental = builder.build(at: t)
        let full = PresentationFrameBuilder(root: model).build(at: t)
        if let d = firstDifference(incremental, full) {
          Issue.record("seed \(seed) step \(step) t \(t): \(d)")
          return
        }
      }
    }
  }

  /// A scene without perspective, 3D transforms or sublayerTransforms holds no level
  /// homographies or context states (one entry each); an edit that brings one in (a 3D
  /// transform, a sublayerTransform, an animation of the transform) sizes them for every layer
  /// before the build reads them, and every build still equals a fresh builder's.
  @Test func aSceneThatGainsPerspectiveByAnEditBuildsAsAFreshBuilder() {
    let model = SceneGenerator(kind: .particles, layers: 2000, seed: 5).make()
    let builder = PresentationFrameBuilder(root: model)
    var t = 0.25
    builder.build(at: t)
    #expect(builder.levelHomography.count == 1 && builder.contextState.count == 1)
    let all = model.subtreeInPreorder
    let tilt = Transform3D.concat(.rotation(0.6, 0, 1, 0), .perspective(400))
    let edits: [(String, () -> Void)] = [
      ("a 3D transform on a leaf", { all[all.count - 1].transform = tilt }),
      ("a sublayerTransform on a container", { all[1].sublayerTransform = tilt }),
      (
        "an animation of a leaf's transform",
        {
          let a = BasicAnimation(keyPath: .transform)
          a.fromValue = .transform(.identity)
          a.toValue = .transform(tilt)
          a.duration = 1
          all[all.count / 2].add(a, forKey: "tilt")
        }
      ),
      (
        "every edit undone",
        {
          all[all.count - 1].transform = .identity
          all[1].sublayerTransform = .identity
          all[all.count / 2].removeAnimation(forKey: "tilt")
        }
      ),
    ]
    for (name, edit) in edits {
      edit()
      t += 1.0 / 120
      let incremental = builder.build(at: t)
      if name != "every edit undone" { #expect(builder.levelHomography.count == all.count, "\(name)") }
      if let d = firstDifference(incremental, PresentationFrameBuilder(root: model).build(at: t)) {
        Issue.record("after \(name): \(d)")
      }
    }
    #expect(builder.levelHomography.count == 1, "the edits undone: the columns shrink back to one entry")
  }

  /// A scene's columns never change under a background reader (a time-aware strategy's window
  /// builder): whichever consumer takes changes in, `synchronize` waits for every registered
  /// reader first (here a reader that notes the scene's version when asked), and only when
  /// there are changes to take in.
  @Test func synchronizeWaitsForBackgroundReadersBeforeChangingColumns() {
    final class Reader: SceneBackgroundReader {
      let scene: CompiledScene
      var versionsWhenAsked: [Int] = []
      init(_ scene: CompiledScene) { self.scene = scene }
      func waitUntilIdle() { versionsWhenAsked.append(scene.changeVersion) }
    }
    let model = SceneGenerator(kind: .app, layers: 200, seed: 2).make()
    let scene = CompiledScene(root: model)
    let reader = Reader(scene)
    scene.addBackgroundReader(reader)
    _ = scene.synchronize()
    #expect(reader.versionsWhenAsked.isEmpty, "nothing to take in: no wait")
    for edit in [{ model.sublayers[0].position = Point(3, 4) }, { model.addSublayer(Layer()) }] {
      let before = scene.changeVersion
      edit()
      _ = scene.synchronize()
      #expect(reader.versionsWhenAsked.last == before && scene.changeVersion != before)
    }
    #expect(reader.versionsWhenAsked.count == 2)
  }

  /// One random change to the model tree.
  func _mutate(_ root: Layer, _ rng: inout SplitMix64) {
    let all = root.subtreeInPreorder
    let l = all[rng.below(all.count)]
    switch rng.below(12) {
    case 0: l.position = Point(rng.uniform(-50, 400), rng.uniform(-50, 400))
    case 1: l.transform = [.identity, .rotation(rng.uniform(-3, 3), 0, 0, 1), .scale(2, 0.5, 1)][rng.below(3)]
    case 2:
      l.sublayerTransform =
        rng.chance(0.5) ? .identity : Transform3D.concat(.rotation(0.4, 0, 1, 0), .perspective(500))
    case 3: l.isHidden.toggle()
    case 4: l.zPosition = Double(rng.below(5)) - 2
    case 5: l.bounds = Rect(x: 0, y: 0, width: rng.uniform(1, 200), height: rng.uniform(1, 200))
    case 6: l.add(RandomAnimation().make(nil, &rng), forKey: "m\(rng.below(3))")
    case 7: if let k = l.animationKeys().first { l.removeAnimation(forKey: k) }
    case 8:
      if l !== root { l.removeFromSuperlayer() }
    case 9:
      let c = Layer(bounds: Rect(x: 0, y: 0, width: 30, height: 30), position: Point(rng.uniform(0, 300), 40))
      if rng.chance(0.5) { c.add(RandomAnimation().make(.basic, &rng), forKey: "a") }
      l.addSublayer(c)
    case 10: l.timing.speed = [1, 0.5, 2, 0][rng.below(4)]
    default: l.opacity = [0, 0.5, 1][rng.below(3)]
    }
  }

}
