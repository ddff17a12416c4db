import HitTesting
import LayerModel
@_spi(FaultInjection) import Presentation
import Scenes

/// Differential testing of every strategy against `tree-walk`, and of `tree-walk` against the
/// independent `ReferenceOracle`: random hostile scenes (topology, rotation, skew, perspective,
/// masks, hidden, zPosition, animations with hostile timing) and, every `largeSceneEvery`-th
/// scene, a generated scene of a few thousand layers or a real layout, at random times, many
/// points near edges, under every semantics preset and on both trees. Deterministic from the
/// seed.
public struct Verifier {
  public var scenes = 200
  public var points = 1000
  public var seed: UInt64 = 1
  public var strategies: [StrategyKind] = StrategyKind.allCases.filter { $0 != .treeWalk }
  public var semantics: [HitTestSemantics] = HitTestSemantics.presets
  public var trees: [HitTestTree] = HitTestTree.allCases
  public var generator = RandomScene()
  /// Every this many scenes, one is large (0: none): a generated kind at `largeLayers` layers or
  /// one of `layouts`, taken in turn.
  public var largeSceneEvery = 10
  public var largeLayers: ClosedRange<Int> = 500...3000
  /// Real layouts (name, model) to include among the large scenes.
  public var layouts: [(name: String, model: Layer)] = []
  /// How many disagreements to keep (with their scenes) for the report.
  public var keep = 5
  /// A fault injected into what the strategies answer on (the reference and the oracle see the
  /// true scene): a self-test, verification must then fail.
  public var fault: Fault?
  /// Every point's reference answer is also judged by the oracle on scenes up to this many
  /// layers; on larger ones, every 16th point.
  public var referenceCheckLayers = 400
  /// Histories: every strategy, one instance each, driven through a random sequence of frames
  /// (`FrameHistory`) on a scene biased toward boundaries (`BoundaryScene`), every frame's
  /// answers against a reference built afresh at that frame (Verifier+History.swift).
  public var histories = 0
  public var framesPerHistory = 48
  /// Points per frame of a history.
  public var historyPoints = 100
  public var boundaryScenes = BoundaryScene()

  public init() {}

  /// A fault a verifier can inject (`hitbench verify --inject-*`).
  public enum Fault: Sendable, Equatable, CustomStringConvertible {
    /// Every hit region inset by D points.
    case shrink(Double)
    /// Every motion bound shrunk by D points (the time-aware strategies).
    case motionShrink(Double)
    /// One layer's map (and so its world map and its subtree) translated by D points.
    case shift(Double)
    /// One layer's hidden or masksToBounds flipped.
    case flag
    /// Two siblings' drawing order swapped.
    case order
    /// The time-aware strategies' windows built ahead bound the window before theirs: only
    /// histories can show it (a fresh instance builds its first window in its frame).
    case staleWindows

    public var description: String {
      switch self {
      case .shrink(let d): "every hit region shrunk by \(d) pt"
      case .motionShrink(let d): "every motion bound shrunk by \(d) pt"
      case .shift(let d): "one layer shifted by \(d) pt"
      case .flag: "one layer's hidden or masksToBounds flipped"
      case .order: "two siblings' order swapped"
      case .staleWindows: "windows built ahead bound the window before theirs"
      }
    }
  }

  /// One disagreement, with everything needed to reproduce it.
  public struct Disagreement {
    public var sceneSeed: UInt64
    public var sceneName: String
    public var time: Double
    public var semantics: HitTestSemantics
    public var tree: HitTestTree
    public var strategy: StrategyKind
    public var point: Point
    public var expected: LayerID?
    public var answer: LayerID?
    public var model: Layer
    /// The faults injected when it was found (none: a real bug).
    public var faults: InjectedFaults
    /// The frames the strategy went through, up to and including the one that disagreed (its
    /// last time is `time`); nil: a fresh instance at `time`.
    public var history: FrameHistory?

    public init(
      sceneSeed: UInt64, sceneName: String, time: Double, semantics: HitTestSemantics, tree: HitTestTree,
      strategy: StrategyKind, point: Point, expected: LayerID?, answer: LayerID?, model: Layer,
      faults: InjectedFaults = InjectedFaults(), history: FrameHistory? = nil
    ) {
      self.sceneSeed = sceneSeed
      self.sceneName = sceneName
      self.time = time
      self.semantics = semantics
      self.tree = tree
      self.strategy = strategy
      self.point = point
      self.expected = expected
      self.answer = answer
      self.model = model
      self.faults = faults
      self.history = history
    }
  }

  public struct Tally: Sendable {
    public var comparisons = 0
    public var tolerated = 0
    public var disagreements = 0
    public var toleratedShare: Double { comparisons > 0 ? Double(tolerated) / Double(comparisons) : 0 }
    /// The share is above `AnswerComparison.toleratedShareLimit` beyond chance.
    public var exceedsToleratedLimit: Bool {
      AnswerComparison.toleratedShareExceedsLimit(tolerated: tolerated, comparisons: comparisons)
    }
  }

  /// Which strategy, preset and tree a tally counts.
  public struct TallyKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var strategy: String
    public var semantics: String
    public var tree: HitTestTree

    public static func < (a: TallyKey, b: TallyKey) -> Bool {
      (a.strategy, a.semantics, a.tree.rawValue) < (b.strategy, b.semantics, b.tree.rawValue)
    }
    public var description: String { "\(strategy) \(semantics) \(tree.rawValue)" }
  }

  public struct Report {
    public var comparisons = 0
    public var tolerated = 0
    public var disagreementCount = 0
    /// Per strategy, semantics preset and tree; `tree-walk` counts its answers judged by the oracle.
    public var tallies: [TallyKey: Tally] = [:]
    /// The histories' comparisons (every frame of a history against a fresh reference).
    public var historyTallies: [TallyKey: Tally] = [:]
    public var historiesRun = 0
    public var disagreements: [Disagreement] = []
    /// Scenes where the fault found no layer to apply to.
    public var scenesWithoutFault = 0
    /// The largest scene, in layers.
    public var largestScene = 0

    /// The tolerated comparisons' share of all comparisons.
    public var toleratedShare: Double { comparisons > 0 ? Double(tolerated) / Double(comparisons) : 0 }
    /// The largest tolerated share of any one strategy, preset and tree.
    public var worstToleratedShare: (key: TallyKey, share: Double, acrossFrames: Bool)? {
      let single = tallies.map { ($0.key, $0.value.toleratedShare, false) }
      let histories = historyTallies.map { ($0.key, $0.value.toleratedShare, true) }
      return (single + histories).max { $0.1 < $1.1 }
    }
    /// Disagreements of one strategy, over every preset and tree.
    public func disagreements(of strategy: StrategyKind) -> Int {
      tallies.reduce(0) { $0 + ($1.key.strategy == strategy.rawValue ? $1.value.disagreements : 0) }
    }
    /// Comparisons of one strategy in the histories, over every preset and tree.
    public func comparisons(ofHistories strategy: StrategyKind) -> Int {
      historyTallies.reduce(0) { $0 + ($1.key.strategy == strategy.rawValue ? $1.value.comparisons : 0) }
    }
    /// Comparisons of one strategy, over every preset and tree.
    public func comparisons(of strategy: StrategyKind) -> Int {
      tallies.reduce(0) { $0 + ($1.key.strategy == strategy.rawValue ? $1.value.comparisons : 0) }
    }
    /// No disagreement, and no tally's tolerated share above the limit (beyond chance).
    public var passed: Bool {
      disagreementCount == 0 && !tallies.values.contains { $0.exceedsToleratedLimit }
        && !historyTallies.values.contains { $0.exceedsToleratedLimit }
    }
  }

  /// Scene `k`: its seed, name, model and time.
  public func scene(_ k: Int) -> (seed: UInt64, name: String, model: Layer, time: Double) {
    let s = seed &* 0x9E37_79B9 &+ UInt64(k)
    var rng = SplitMix64(seed: s ^ 0x5EED)
    let time = RandomScene.time(&rng, hostile: generator.hostile)
    if largeSceneEvery > 0 && k % largeSceneEvery == largeSceneEvery - 1 {
      let kinds = SceneKind.allCases
      let i = (k / largeSceneEvery) % (kinds.count + layouts.count)
      if i < kinds.count {
        let n = largeLayers.lowerBound + rng.below(largeLayers.count)
        let model = SceneGenerator(kind: kinds[i], layers: n, animatedFraction: rng.unit(), seed: s).make()
        return (s, "\(kinds[i].rawValue) \(n)", model, rng.uniform(0, 6))
      }
      return (s, layouts[i - kinds.count].name, layouts[i - kinds.count].model, rng.uniform(0, 6))
    }
    return (s, "random", generator.make(seed: s), time)
  }

  public func run(progress: ((Int) -> Void)? = nil) -> Report {
    var report = Report()
    for k in 0..<scenes {
      progress?(k)
      let (s, name, model, t) = scene(k)
      var rng = SplitMix64(seed: s ^ 0xF00D)
      for sem in semantics {
        // One compiled scene per preset for the reference, shared by both trees.
        let builder = PresentationFrameBuilder(root: model, semantics: sem)
        report.largestScene = Swift.max(report.largestScene, builder.layers.count)
        for tree in trees {
          _check(
            model: model, name: name, seed: s, time: t, semantics: sem, tree: tree, builder: builder, rng: &rng,
            into: &report)
        }
      }
    }
    for k in 0..<histories {
      progress?(scenes + k)
      _checkHistory(k, into: &report)
    }
    for t in Array(report.tallies.values) + Array(report.historyTallies.values) {
      report.comparisons += t.comparisons
      report.tolerated += t.tolerated
      report.disagreementCount += t.disagreements
    }
    return report
  }

  func _check(
    model: Layer, name: String, seed s: UInt64, time t: Double, semantics sem: HitTestSemantics, tree: HitTestTree,
    builder: PresentationFrameBuilder, rng: inout SplitMix64, into report: inout Report
  ) {
    let frame = builder.build(at: t, animated: tree.isAnimated)
    let pts = RandomScene.points(for: frame, count: points, rng: &rng)
    let oracle = ReferenceOracle(model: model, time: t, tree: tree, semantics: sem)
    var reference = TreeWalk()
    reference.update(with: frame)
    let expected = pts.map { reference.hitTest($0) }
    // The reference itself, against the oracle.
    let every = builder.layers.count <= referenceCheckLayers ? 1 : 16
    var walkTally = report.tallies[TallyKey(strategy: "tree-walk", semantics: sem.name, tree: tree)] ?? Tally()
    for i in stride(from: 0, to: pts.count, by: every) {
      walkTally.comparisons += 1
      if !oracle.accepts(expected[i], at: pts[i]) {
        walkTally.disagreements += 1
        _keep(
          &report, seed: s, name: name, time: t, sem: sem, tree: tree, strategy: .treeWalk, point: pts[i],
          expected: oracle.answer(at: pts[i]).layer, answer: expected[i], model: model, faults: InjectedFaults())
      }
    }
    report.tallies[TallyKey(strategy: "tree-walk", semantics: sem.name, tree: tree)] = walkTally
    // The strategies answer on a scene of their own when a fault is injected.
    var faults = InjectedFaults()
    if let fault {
      guard let f = Self.faults(fault, model: model, expected: expected) else {
        report.scenesWithoutFault += 1
        return
      }
      faults = f
    }
    let tested: PresentationFrameBuilder
    if faults.isEmpty {
      tested = builder
    } else {
      tested = PresentationFrameBuilder(root: model, semantics: sem)
      tested.scene._faults = faults
      tested.build(at: t, animated: tree.isAnimated)
    }
    for kind in strategies {
      let got = kind.answers(tested, pts, animated: tree.isAnimated)
      let key = TallyKey(strategy: kind.rawValue, semantics: sem.name, tree: tree)
      var tally = report.tallies[key] ?? Tally()
      for i in 0..<pts.count {
        tally.comparisons += 1
        switch AnswerComparison.compare(got[i], expected[i], at: pts[i], oracle: oracle) {
        case .agree: break
        case .tolerated: tally.tolerated += 1
        case .disagree:
          tally.disagreements += 1
          _keep(
            &report, seed: s, name: name, time: t, sem: sem, tree: tree, strategy: kind, point: pts[i],
            expected: expected[i], answer: got[i], model: model, faults: faults)
        }
      }
      report.tallies[key] = tally
    }
  }

  func _keep(
    _ report: inout Report, seed: UInt64, name: String, time: Double, sem: HitTestSemantics, tree: HitTestTree,
    strategy: StrategyKind, point: Point, expected: LayerID?, answer: LayerID?, model: Layer, faults: InjectedFaults,
    history: FrameHistory? = nil
  ) {
    guard report.disagreements.count < keep else { return }
    report.disagreements.append(
      Disagreement(
        sceneSeed: seed, sceneName: name, time: time, semantics: sem, tree: tree, strategy: strategy, point: point,
        expected: expected, answer: answer, model: model, faults: faults, history: history))
  }

  /// The faults to inject for `fault` into a scene whose reference answers are `expected`: a
  /// targeted fault goes to the layer the reference answers most often (not the root), the
  /// order fault to the nearest ancestor of it with two or more sublayers. nil when the scene
  /// has no such layer.
  public static func faults(_ fault: Fault, model: Layer, expected: [LayerID?]) -> InjectedFaults? {
    var f = InjectedFaults()
    switch fault {
    case .shrink(let d):
      f.shrinkHitRegions = d
      return f
    case .motionShrink(let d):
      f.shrinkMotionBounds = d
      return f
    case .staleWindows:
      f.staleWindows = true
      return f
    default: break
    }
    var counts: [Int32: Int] = [:]
    for case let id? in expected where id.rawValue != 0 { counts[id.rawValue, default: 0] += 1 }
    guard let target = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key else {
      return nil
    }
    switch fault {
    case .shift(let d):
      f.shiftLayer = Int(target)
      f.shift = d
    case .flag:
      f.flagLayer = Int(target)
      // Alternate by layer: half the scenes flip hidden, half masksToBounds.
      f.flag = target % 2 == 0 ? .hidden : .masksToBounds
    case .order:
      let layers = model.subtreeInPreorder
      var index: [ObjectIdentifier: Int] = [:]
      for (i, l) in layers.enumerated() { index[ObjectIdentifier(l)] = i }
      var node = layers[Int(target)].superlayer
      while let n = node, n.sublayers.count < 2 { node = n.superlayer }
      guard let parent = node, let i = index[ObjectIdentifier(parent)] else { return nil }
      f.orderParent = i
    default: break
    }
    return f
  }

  /// Whether the strategy still disagrees with the reference (or, for tree-walk, with the
  /// oracle) on this scene, time, tree and point, with `faults` injected.
  public static func stillDisagrees(
    _ model: Layer, time: Double, semantics: HitTestSemantics, tree: HitTestTree, strategy: StrategyKind, point: Point,
    faults: InjectedFaults = InjectedFaults(), history: FrameHistory? = nil
  ) -> Bool {
    if let history {
      return replayDisagrees(
        model, history: history, semantics: semantics, tree: tree, strategy: strategy, point: point, faults: faults)
    }
    let builder = PresentationFrameBuilder(root: model, semantics: semantics)
    let frame = builder.build(at: time, animated: tree.isAnimated)
    var reference = TreeWalk()
    reference.update(with: frame)
    let oracle = ReferenceOracle(model: model, time: time, tree: tree, semantics: semantics)
    let expected = reference.hitTest(point)
    if strategy == .treeWalk { return !oracle.accepts(expected, at: point) }
    let tested = PresentationFrameBuilder(root: model, semantics: semantics)
    tested.scene._faults = faults
    tested.build(at: time, animated: tree.isAnimated)
    let got = strategy.answers(tested, [point], animated: tree.isAnimated)[0]
    return AnswerComparison.compare(got, expected, at: point, oracle: oracle).isDisagreement
  }

  /// A smaller scene that still disagrees, within `budget` re-checks (each a build and a hit
  /// test of the scene): first halves, quarters... of the layers are removed while the
  /// disagreement persists (delta debugging over the preorder), then, on scenes small enough
  /// for the remaining budget, single subtrees and animations one by one. A disagreement found
  /// under an injected fault is returned as it is (the fault names layers by index, which
  /// removal would change).
  public static func minimize(_ d: Disagreement, budget: Int = 400) -> Layer {
    let model = d.model.deepCopy()
    guard d.faults.isEmpty else { return model }
    var checks = 0
    func check() -> Bool {
      checks += 1
      return stillDisagrees(
        model, time: d.time, semantics: d.semantics, tree: d.tree, strategy: d.strategy, point: d.point,
        history: d.history)
    }
    guard check() else { return model }
    /// Removes `layers` (detached from their parents, in reverse so indices stay valid) and
    /// keeps the removal when the disagreement persists.
    func tryRemoving(_ layers: [Layer]) -> Bool {
      var undo: [(Layer, Layer, Int)] = []
      for layer in layers.reversed() {
        guard let parent = layer.superlayer, let i = parent.sublayers.firstIndex(where: { $0 === layer }) else {
          continue
        }
        layer.removeFromSuperlayer()
        undo.append((layer, parent, i))
      }
      if check() { return true }
      for (layer, parent, i) in undo.reversed() { parent.insertSublayer(layer, at: i) }
      return false
    }
    var chunk = Swift.max(model.subtreeInPreorder.count / 2, 1)
    while checks < budget {
      let all = Array(model.subtreeInPreorder.dropFirst())
      if all.isEmpty { break }
      var removed = false
      var start = 0
      while start < all.count && checks < budget {
        // Layers still in the tree (an ancestor's removal took the rest with it).
        let part = all[start..<Swift.min(start + chunk, all.count)].filter { $0.rootLayer === model }
        if !part.isEmpty && tryRemoving(Array(part)) { removed = true }
        start += chunk
      }
      if chunk == 1 && !removed { break }
      chunk = Swift.max(chunk / 2, 1)
    }
    for layer in model.subtreeInPreorder where checks < budget {
      for key in layer.animationKeys() where checks < budget {
        guard let a = layer.animation(forKey: key) else { continue }
        let keys = layer.animationKeys()
        layer.removeAnimation(forKey: key)
        if !check() {
          // Put it back in its place.
          let saved = keys.compactMap { k in k == key ? (k, a) : layer.animation(forKey: k).map { (k, $0) } }
          layer.removeAllAnimations()
          for (k, anim) in saved { layer.add(anim, forKey: k) }
        }
      }
    }
    return model
  }
}
