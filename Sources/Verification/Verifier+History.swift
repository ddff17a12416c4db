import HitTesting
import LayerModel
@_spi(FaultInjection) import Presentation
import Scenes

extension Verifier {
  /// History k: its seed, scene (biased toward boundaries, or every `largeSceneEvery`-th a
  /// generated kind), preset, tree and frames.
  public func history(_ k: Int) -> (
    seed: UInt64, model: Layer, semantics: HitTestSemantics, tree: HitTestTree, history: FrameHistory
  ) {
    let s = (seed &* 0x9E37_79B9 &+ UInt64(k)) ^ 0x4849_5354
    var rng = SplitMix64(seed: s ^ 0x7141)
    // Half the time a rate whose frames the scene's boundaries are multiples of.
    let fps =
      rng.chance(0.6)
      ? [120, 60, 30][rng.below(3)] : [24, 59.94, 90, 144, 240, rng.uniform(20, 250)][rng.below(6)]
    // Every `largeSceneEvery`-th history runs on a generated kind of a few hundred layers (its
    // own animations, the history's clock and windows): windows over many groups, overflow
    // lists, staggered expiries.
    let model: Layer
    if largeSceneEvery > 0 && k % largeSceneEvery == largeSceneEvery - 1 {
      let kinds = SceneKind.allCases
      model = SceneGenerator(
        kind: kinds[(k / largeSceneEvery) % kinds.count], layers: 200 + rng.below(600), animatedFraction: rng.unit(),
        seed: s
      ).make()
    } else {
      model = boundaryScenes.make(seed: s, frameInterval: 1 / fps)
    }
    let sem = semantics[rng.below(semantics.count)]
    // The presentation tree three times in four: only it moves.
    let tree =
      trees.count > 1 && trees.contains(.presentation) && rng.chance(0.5)
      ? .presentation : trees[rng.below(trees.count)]
    let h = FrameHistory.random(
      frames: framesPerHistory, fps: fps, boundaries: FrameHistory.boundaryTimes(model), rng: &rng)
    return (s, model, sem, tree, h)
  }

  /// Drives one instance of every strategy (tree-walk too: its builder's incremental build is
  /// history as well) through history k, and compares each frame's answers with tree-walk on a
  /// frame built afresh by a builder of its own at that time.
  func _checkHistory(_ k: Int, into report: inout Report) {
    let (s, model, sem, tree, h) = history(k)
    var rng = SplitMix64(seed: s ^ 0xF7A3E5)
    let animated = tree.isAnimated
    var faults = InjectedFaults()
    if let fault {
      let first = PresentationFrameBuilder(root: model, semantics: sem)
      var walk = TreeWalk()
      walk.update(with: first.build(at: h.times.first ?? 0, animated: animated))
      let pts = RandomScene.points(for: first.frame, count: historyPoints, rng: &rng)
      guard let f = Self.faults(fault, model: model, expected: pts.map { walk.hitTest($0) }) else {
        report.scenesWithoutFault += 1
        return
      }
      faults = f
    }
    let options = StrategyOptions(windowSeconds: h.windowSeconds)
    let kinds = [StrategyKind.treeWalk] + strategies.filter { $0 != .treeWalk }
    let sessions = kinds.map { StrategySession($0, model: model, semantics: sem, options: options, faults: faults) }
    report.historiesRun += 1
    report.largestScene = Swift.max(report.largestScene, sessions.first?.builder.layers.count ?? 0)
    for (i, t) in h.times.enumerated() {
      let reference = PresentationFrameBuilder(root: model, semantics: sem)
      var walk = TreeWalk()
      walk.update(with: reference.build(at: t, animated: animated))
      let pts = RandomScene.points(for: reference.frame, count: historyPoints, rng: &rng)
      let expected = pts.map { walk.hitTest($0) }
      let oracle = ReferenceOracle(model: model, time: t, tree: tree, semantics: sem)
      // Whether the oracle accepts the reference's answer, asked only where a strategy differs;
      // a reference it rejects is counted once, against tree-walk, not against each strategy.
      var referenceOK = [Bool?](repeating: nil, count: pts.count)
      let walkKey = TallyKey(strategy: StrategyKind.treeWalk.rawValue, semantics: sem.name, tree: tree)
      for session in sessions {
        let got = session.answers(at: t, animated: animated, pts)
        let key = TallyKey(strategy: session.kind.rawValue, semantics: sem.name, tree: tree)
        var tally = report.historyTallies[key] ?? Tally()
        for j in 0..<pts.count {
          tally.comparisons += 1
          guard got[j] != expected[j] else { continue }
          let strategyOK = oracle.accepts(got[j], at: pts[j])
          let walkOK = referenceOK[j] ?? oracle.accepts(expected[j], at: pts[j])
          if walkOK && strategyOK {
            tally.tolerated += 1
          } else if walkOK {
            tally.disagreements += 1
            _keep(
              &report, seed: s, name: "history \(k)", time: t, sem: sem, tree: tree, strategy: session.kind,
              point: pts[j], expected: expected[j], answer: got[j], model: model, faults: faults,
              history: h.prefix(i + 1))
          } else if referenceOK[j] == nil {
            if session.kind == .treeWalk {
              tally.disagreements += 1
            } else {
              var walkTally = report.historyTallies[walkKey] ?? Tally()
              walkTally.disagreements += 1
              report.historyTallies[walkKey] = walkTally
            }
            _keep(
              &report, seed: s, name: "history \(k)", time: t, sem: sem, tree: tree, strategy: .treeWalk,
              point: pts[j], expected: oracle.answer(at: pts[j]).layer, answer: expected[j], model: model,
              faults: InjectedFaults())
          }
          referenceOK[j] = walkOK
        }
        report.historyTallies[key] = tally
      }
    }
  }

  /// Whether a strategy driven through `history` (a fresh instance, every frame in turn) still
  /// disagrees at its last frame with tree-walk on a frame built afresh then.
  public static func replayDisagrees(
    _ model: Layer, history: FrameHistory, semantics: HitTestSemantics, tree: HitTestTree, strategy: StrategyKind,
    point: Point, faults: InjectedFaults = InjectedFaults()
  ) -> Bool {
    guard let last = history.times.last else { return false }
    let answer = replay(
      model, history: history, semantics: semantics, tree: tree, strategy: strategy, points: [point], faults: faults
    )[0]
    let reference = PresentationFrameBuilder(root: model, semantics: semantics)
    var walk = TreeWalk()
    walk.update(with: reference.build(at: last, animated: tree.isAnimated))
    let oracle = ReferenceOracle(model: model, time: last, tree: tree, semantics: semantics)
    return AnswerComparison.compare(answer, walk.hitTest(point), at: point, oracle: oracle).isDisagreement
  }

  /// A strategy's answers for `points` at the last frame of `history`, after the frames before
  /// it (each answering the same points, as a run's frames answer theirs).
  public static func replay(
    _ model: Layer, history: FrameHistory, semantics: HitTestSemantics, tree: HitTestTree, strategy: StrategyKind,
    points: [Point], faults: InjectedFaults = InjectedFaults()
  ) -> [LayerID?] {
    let session = StrategySession(
      strategy, model: model, semantics: semantics, options: StrategyOptions(windowSeconds: history.windowSeconds),
      faults: faults)
    var answers = [LayerID?](repeating: nil, count: points.count)
    for t in history.times { answers = session.answers(at: t, animated: tree.isAnimated, points) }
    return answers
  }
}
