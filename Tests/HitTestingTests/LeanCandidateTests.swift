import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// The time-aware strategies and lazy-walk decide most particles by `leanCandidate` (a lean
/// evaluation of one layer under its pinned parent). A particle that cannot be hit (hidden,
/// transparent or disabled under a preset that tests those, flattened to a line) still has a box
/// its points fall in: the lean row must refuse them as the reference does.
@Suite struct LeanCandidateTests {
  @Test(arguments: HitTestSemantics.presets)
  func unhittableParticlesAreRefusedAsTheReferenceRefusesThem(_ semantics: HitTestSemantics) {
    let layers = TestSize.pick(full: 4000, fast: 800)
    let root = SceneGenerator(kind: .particles, layers: layers, animatedFraction: 1, seed: 31).make()
    var rng = SplitMix64(seed: 17)
    var unhittable = 0
    for l in root.sublayers {
      switch rng.below(6) {
      case 0: l.isHidden = true
      case 1: l.opacity = 0
      case 2: l.isUserInteractionEnabled = false
      case 3: l.transform = .scale(1, 0, 1)
      default: continue
      }
      unhittable += 1
    }
    #expect(unhittable * 2 > root.sublayers.count, "most particles cannot be hit")
    let builder = PresentationFrameBuilder(root: root, semantics: semantics)
    let kinds: [StrategyKind] = [.lazyWalk, .windowGrid, .linearBVH, .staggerGrid]
    for t in TestSize.pick(full: [0.3, 1.7, 2.45], fast: [0.3, 2.45]) {
      builder.build(at: t)
      // Points at the centres of the particles that cannot be hit (in their boxes all the same).
      let f = builder.frame
      var points: [Point] = []
      var owners: [LayerID] = []
      for r in 1..<f.count where points.count < 400 {
        let l = builder.layer(f.layer[r])
        guard l.isHidden || l.opacity == 0 || !l.isUserInteractionEnabled || !l.transform.isIdentity else { continue }
        let b = f.bounds[r]
        let c = f.toWorld[r].apply(Point(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2))
        guard c.x.isFinite && c.y.isFinite else { continue }
        points.append(c)
        owners.append(f.layer[r])
      }
      let expected = StrategyKind.treeWalk.answers(builder, points)
      #expect(points.count > 100)
      // (Hidden and flattened particles are refused by every preset; transparent and disabled ones
      // by those that test them.)
      #expect(zip(expected, owners).count { $0 != $1 } * 4 > points.count, "the reference refused many")
      for kind in kinds {
        let got = kind.answers(builder, points)
        let wrong = zip(got, expected).filter { $0 != $1 }.count
        #expect(wrong == 0, "\(kind.rawValue) at t = \(t): \(wrong) of \(points.count) answers differ")
      }
    }
  }
}
