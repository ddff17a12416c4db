import LayerModel
import Presentation
import TestSupport
import Testing

@testable import HitTesting

/// Where every still layer ranks below every moving one (a background under particles), a
/// time-aware query searches the still layers last, and not at all once a moving layer holds
/// the point: a point on a particle costs that particle's test alone. Where a still layer is
/// above a moving one (a toolbar over a scrolling list), the still layers are searched first,
/// as before, and can end the search.
@Suite struct WorldLastTests {
  /// A root with a still background, a sliding card and, with `toolbar`, a still bar above the
  /// card where the card passes under it. Preorder: root 0, background 1, card 2, toolbar 3.
  static func screen(toolbar: Bool) -> Layer {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 400, height: 600), position: Point(200, 300))
    let background = Layer(
      name: "background", bounds: Rect(x: 0, y: 0, width: 400, height: 600), position: Point(200, 300))
    let card = Layer(name: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(100, 100))
    card.slide(from: Point(100, 100), to: Point(100, 500), duration: 2)
    root.addSublayer(background)
    root.addSublayer(card)
    if toolbar {
      root.addSublayer(
        Layer(name: "toolbar", bounds: Rect(x: 0, y: 0, width: 400, height: 60), position: Point(200, 30)))
    }
    return root
  }

  /// One query's answer and the layers it tested, at t, by a time-aware strategy.
  static func query(_ kind: StrategyKind, _ builder: PresentationFrameBuilder, _ p: Point, at t: Double) -> (
    LayerID?, [LayerID]
  ) {
    builder.build(at: t)
    let inspection = kind.inspect(builder, [p])
    return (inspection.answers[0], inspection.candidates[0])
  }

  static let kinds: [StrategyKind] = [.windowGrid, .linearBVH, .staggerGrid]

  @Test func aStillBackgroundIsSearchedOnlyWhereNoMovingLayerHolds() {
    let builder = PresentationFrameBuilder(root: Self.screen(toolbar: false))
    let groups = MotionGroups(scene: builder.scene, semantics: builder.semantics)
    #expect(groups.worldBelowMoving)
    // At t = 0.5 the card's centre is at (100, 200).
    for kind in Self.kinds {
      let (onCard, cardTested) = Self.query(kind, builder, Point(100, 200), at: 0.5)
      #expect(onCard == LayerID(2), "\(kind.rawValue): \(String(describing: onCard))")
      #expect(cardTested == [LayerID(2)], "\(kind.rawValue): tested \(cardTested) for a point on the card")
      let (onBackground, backgroundTested) = Self.query(kind, builder, Point(300, 400), at: 0.5)
      #expect(onBackground == LayerID(1), "\(kind.rawValue): \(String(describing: onBackground))")
      #expect(backgroundTested.contains(LayerID(1)))
    }
  }

  @Test func aStillLayerAboveMovingOnesIsSearchedFirst() {
    let builder = PresentationFrameBuilder(root: Self.screen(toolbar: true))
    let groups = MotionGroups(scene: builder.scene, semantics: builder.semantics)
    #expect(!groups.worldBelowMoving)
    // At t = 0 the card's top edge is at y = 50, under the toolbar (0 ..< 60).
    for kind in Self.kinds {
      let (answer, _) = Self.query(kind, builder, Point(100, 55), at: 0)
      #expect(answer == LayerID(3), "\(kind.rawValue): \(String(describing: answer))")
    }
  }
}
