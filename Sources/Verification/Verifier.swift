import HitTesting
import LayerModel
@_spi(FaultInjection) import Presentation
import SceneFormat
import Scenes

/// Differential testing of every strategy against `tree-walk`: random scenes (topology,
/// rotation, skew, perspective, masks, hidden, zPosition, animations, hostile values) at random
/// times, many points near edges, under every semantics preset. Deterministic from the seed.
public struct Verifier {
  public var scenes = 200
  public var points = 1000
  public var seed: UInt64 = 1
  public var strategies: [StrategyKind] = StrategyKind.allCases.filter { $0 != .treeWalk }
  public var semantics: [HitTestSemantics] = HitTestSemantics.presets
  public var generator = RandomScene()
  /// How many disagreements to keep (with their scenes) for the report.
  public var keep = 5
  /// Fault injection: the strategies answer on a frame whose every hit region is shrunk by
  /// this many points (0: off). A verifier that cannot see 1e-6 pt passes this; ours must fail.
  public var shrinkHitRegions = 0.0
  /// Fault injection: the time-aware strategies use motion bounds shrunk by this much on each
  /// side (a self-test of the bounds' verification: a bound one point too small must be seen).
  public var shrinkMotionBounds = 0.0

  public init() {}

  /// One disagreement, with everything needed to reproduce it.
  public struct Disagreement {
    public var sceneSeed: UInt64
    public var time: Double
    public var semantics: HitTestSemantics
    public var strategy: StrategyKind
    public var point: Point
    public var expected: LayerID?
    public var answer: LayerID?
    public var model: Layer
    /// The fault injected when it was found (0: none).
    public var shrinkHitRegions: Double
  }

  public struct Tally: Sendable {
    public var comparisons = 0
    public var tolerated = 0
    public var disagreements = 0
  }

  public struct Report {
    public var comparisons = 0
    public var tolerated = 0
    public var disagreementCount = 0
    /// Per strategy and semantics preset name.
    public var tallies: [String: Tally] = [:]
    public var disagreements: [Disagreement] = []

    /// The tolerated comparisons' share of all comparisons.
    public var toleratedShare: Double { comparisons > 0 ? Double(tolerated) / Double(comparisons) : 0 }
    /// True when there is no disagreement and the tolerated share is within the limit.
    public var passed: Bool { disagreementCount == 0 && toleratedShare <= AnswerComparison.toleratedShareLimit }
  }

  /// The scene and time of scene `k`.
  public func scene(_ k: Int) -> (seed: UInt64, model: Layer, time: Double) {
    let s = seed &* 0x9E37_79B9 &+ UInt64(k)
    var rng = SplitMix64(seed: s ^ 0x5EED)
    return (s, generator.make(seed: s), rng.uniform(0, 6))
  }

  public func run(progress: ((Int) -> Void)? = nil) -> Report {
    var report = Report()
    for k in 0..<scenes {
      progress?(k)
      let (s, model, t) = scene(k)
      var rng = SplitMix64(seed: s ^ 0xF00D)
      for sem in semantics {
        let builder = PresentationFrameBuilder(root: model, semantics: sem)
        let frame = builder.build(at: t)
        let pts = RandomScene.points(for: frame, count: points, rng: &rng)
        let oracle = ExactOracle(builder: builder)
        var reference = TreeWalk()
        reference.update(with: frame)
        let expected = pts.map { reference.hitTest($0) }
        // The strategies answer on a frame whose hit regions are shrunk when a fault is injected
        // (a self-test of the verifier); the reference and the oracle see the true frame.
        let faulty = shrinkHitRegions > 0 || shrinkMotionBounds > 0
        let tested = faulty ? PresentationFrameBuilder(root: model, semantics: sem) : builder
        if faulty { tested.build(at: t) }
        if shrinkHitRegions > 0 {
          tested.build(at: t)._shrinkHitRegions(by: shrinkHitRegions)
          tested.scene._shrinkHitRegions = shrinkHitRegions
        }
        if shrinkMotionBounds > 0 { tested.scene._shrinkMotionBounds = shrinkMotionBounds }
        for kind in strategies {
          let got = kind.answers(tested, pts)
          var tally = report.tallies["\(kind.rawValue) \(sem.name)"] ?? Tally()
          for i in 0..<pts.count {
            tally.comparisons += 1
            switch AnswerComparison.compare(got[i], expected[i], at: pts[i], oracle: oracle) {
            case .agree: break
            case .tolerated: tally.tolerated += 1
            case .disagree:
              tally.disagreements += 1
              if report.disagreements.count < keep {
                report.disagreements.append(
                  Disagreement(
                    sceneSeed: s, time: t, semantics: sem, strategy: kind, point: pts[i], expected: expected[i],
                    answer: got[i], model: model, shrinkHitRegions: shrinkHitRegions))
              }
            }
          }
          report.tallies["\(kind.rawValue) \(sem.name)"] = tally
          report.comparisons += pts.count
        }
      }
    }
    for t in report.tallies.values {
      report.tolerated += t.tolerated
      report.disagreementCount += t.disagreements
    }
    return report
  }

  /// Whether the strategy still disagrees with the reference on this scene, time and point.
  public static func stillDisagrees(
    _ model: Layer, time: Double, semantics: HitTestSemantics, strategy: StrategyKind, point: Point,
    shrinkHitRegions: Double = 0
  ) -> Bool {
    let builder = PresentationFrameBuilder(root: model, semantics: semantics)
    let frame = builder.build(at: time)
    var reference = TreeWalk()
    reference.update(with: frame)
    let tested = PresentationFrameBuilder(root: model, semantics: semantics)
    tested.build(at: time)._shrinkHitRegions(by: shrinkHitRegions)
    tested.scene._shrinkHitRegions = shrinkHitRegions
    let got = strategy.answers(tested, [point])[0]
    return AnswerComparison.compare(got, reference.hitTest(point), at: point, oracle: ExactOracle(builder: builder))
      .isDisagreement
  }

  /// A smaller scene that still disagrees: greedily removes sublayer subtrees (deepest first)
  /// and animations while the disagreement persists.
  public static func minimize(_ d: Disagreement) -> Layer {
    let model = SceneFile._deepCopy(d.model)
    func check() -> Bool {
      stillDisagrees(
        model, time: d.time, semantics: d.semantics, strategy: d.strategy, point: d.point,
        shrinkHitRegions: d.shrinkHitRegions)
    }
    guard check() else { return model }
    var changed = true
    while changed {
      changed = false
      for layer in model.subtreeInPreorder.reversed() where layer !== model {
        guard let parent = layer.superlayer, let index = parent.sublayers.firstIndex(where: { $0 === layer }) else {
          continue
        }
        layer.removeFromSuperlayer()
        if check() {
          changed = true
        } else {
          parent.insertSublayer(layer, at: index)
        }
      }
      for layer in model.subtreeInPreorder {
        for key in layer.animationKeys() {
          guard let a = layer.animation(forKey: key) else { continue }
          let keys = layer.animationKeys()
          layer.removeAnimation(forKey: key)
          if check() {
            changed = true
          } else {
            // Put it back in its place.
            let saved = keys.compactMap { k in k == key ? (k, a) : layer.animation(forKey: k).map { (k, $0) } }
            layer.removeAllAnimations()
            for (k, anim) in saved { layer.add(anim, forKey: k) }
          }
        }
      }
    }
    return model
  }
}
