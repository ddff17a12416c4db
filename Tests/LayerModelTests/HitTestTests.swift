import SceneFormat
import Testing

@testable import LayerModel

private func box(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Layer {
  let l = Layer(name: name, bounds: Rect(x: 0, y: 0, width: w, height: h))
  l.anchorPoint = Point(0, 0)
  l.position = Point(x, y)
  return l
}

private func hit(_ root: Layer, _ x: Double, _ y: Double, _ s: HitTestSemantics = .calayer) -> String? {
  root.hitTest(Point(x, y), semantics: s).map { $0.name ?? "?" }
}

@Suite struct CALayerHitTestTests {
  @Test func seedArticleBlueWhiteNil() throws {
    let root = try SceneFile.read(path: repoPath("data/scenes/seed-layers.json"))
    #expect(hit(root, 160, 284) == "blue")
    #expect(hit(root, 70, 200) == "white")
    #expect(hit(root, -5, -12.5) == nil)
    #expect(hit(root, 10, 10) == "view")
  }

  @Test func sublayerOutsideItsParentIsStillHit() {
    let root = box("root", 0, 0, 100, 100)
    let parent = box("parent", 10, 10, 20, 20)
    let child = box("child", 50, 50, 10, 10)
    root.addSublayer(parent)
    parent.addSublayer(child)
    #expect(hit(root, 65, 65) == "child")
    parent.masksToBounds = true
    #expect(hit(root, 65, 65) == "root")
    #expect(hit(root, 15, 15) == "parent")
  }

  @Test func hiddenSubtreesAreNeverHit() {
    let root = box("root", 0, 0, 100, 100)
    let a = box("a", 0, 0, 50, 50)
    let b = box("b", 10, 10, 10, 10)
    root.addSublayer(a)
    a.addSublayer(b)
    a.isHidden = true
    #expect(hit(root, 15, 15) == "root")
    root.isHidden = true
    #expect(hit(root, 15, 15) == nil)
  }

  @Test func lastSublayerIsTopmostAndZPositionWins() {
    let root = box("root", 0, 0, 100, 100)
    let a = box("a", 0, 0, 50, 50)
    let b = box("b", 0, 0, 50, 50)
    root.addSublayer(a)
    root.addSublayer(b)
    #expect(hit(root, 10, 10) == "b")
    a.zPosition = 1
    #expect(hit(root, 10, 10) == "a")
    #expect(hit(root, 10, 10, .calayerSeed) == "b")
    b.zPosition = 1
    #expect(hit(root, 10, 10) == "b")
    a.zPosition = .nan
    b.zPosition = 0
    #expect(hit(root, 10, 10) == "b", "NaN zPosition orders as 0")
  }

  @Test func zPositionOrdersSubtreesNotDescendants() {
    let root = box("root", 0, 0, 100, 100)
    let low = box("low", 0, 0, 50, 50)
    let high = box("high", 0, 0, 50, 50)
    let deep = box("deep", 0, 0, 10, 10)
    deep.zPosition = 100
    root.addSublayer(high)
    root.addSublayer(low)
    low.addSublayer(deep)
    high.zPosition = 5
    // deep's zPosition only orders it among its own siblings.
    #expect(hit(root, 5, 5) == "high")
  }

  @Test func rotationAndTransformsFollowTheGeometry() {
    let root = box("root", 0, 0, 200, 200)
    let bar = Layer(name: "bar", bounds: Rect(x: 0, y: 0, width: 100, height: 10), position: Point(100, 100))
    bar.transform = .rotation(.pi / 2, 0, 0, 1)
    root.addSublayer(bar)
    #expect(hit(root, 100, 140) == "bar")
    #expect(hit(root, 140, 100) == "root")
  }

  @Test func perspectiveAndBehindTheViewer() {
    let root = box("root", 0, 0, 400, 400)
    let card = Layer(name: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(200, 200))
    var t = Transform3D.rotation(.pi / 3, 0, 1, 0)
    t = Transform3D.concat(t, .perspective(500))
    card.transform = t
    root.addSublayer(card)
    // Rotated 60 degrees about y the card is about half as wide on screen.
    #expect(hit(root, 200, 200) == "card")
    #expect(hit(root, 290, 200) == "root")
    #expect(hit(root, 110, 200) == "root")
    // Seen from 50 points, an edge at 100 points towards the viewer is behind it.
    card.transform = Transform3D.concat(.rotation(.pi / 2 - 0.01, 0, 1, 0), .perspective(50))
    // One of the two far edges is turned towards the viewer, past it: it has no screen point.
    let a = card.convert(Point(199, 100), to: root)
    let b = card.convert(Point(1, 100), to: root)
    #expect(a.x.isNaN != b.x.isNaN)
  }

  @Test func singularTransformHidesTheSubtree() {
    let root = box("root", 0, 0, 100, 100)
    let flat = box("flat", 0, 0, 50, 50)
    let child = box("child", 0, 0, 50, 50)
    flat.transform = .scale(1, 0, 1)
    root.addSublayer(flat)
    flat.addSublayer(child)
    #expect(hit(root, 10, 10) == "root")
  }

  @Test func sublayerTransformMovesTheHitRegion() {
    let root = box("root", 0, 0, 200, 200)
    let a = box("a", 0, 0, 20, 20)
    root.addSublayer(a)
    root.sublayerTransform = .translation(50, 0, 0)
    #expect(hit(root, 55, 5) == "a")
    #expect(hit(root, 5, 5) == "root")
  }

  @Test func opacityIsIgnoredByCALayer() {
    let root = box("root", 0, 0, 100, 100)
    let a = box("a", 0, 0, 50, 50)
    a.opacity = 0
    root.addSublayer(a)
    #expect(hit(root, 10, 10) == "a")
    #expect(hit(root, 10, 10, .uiview) == "root")
  }

  @Test func aHundredThousandDeepChainDoesNotOverflow() {
    let root = box("root", 0, 0, 100, 100)
    var node = root
    for i in 0..<100_000 {
      let next = box("n\(i)", 0, 0, 100, 100)
      node.addSublayer(next)
      node = next
    }
    #expect(hit(root, 50, 50) == "n99999")
    node.isHidden = true
    #expect(hit(root, 50, 50) == "n99998")
  }
}

@Suite struct UIViewHitTestTests {
  @Test func hiddenInteractionAndAlphaRemoveTheSubtree() {
    let root = box("root", 0, 0, 100, 100)
    let v = box("v", 0, 0, 50, 50)
    let sub = box("sub", 0, 0, 20, 20)
    root.addSublayer(v)
    v.addSublayer(sub)
    #expect(hit(root, 5, 5, .uiview) == "sub")
    v.isUserInteractionEnabled = false
    #expect(hit(root, 5, 5, .uiview) == "root")
    #expect(hit(root, 5, 5, .calayer) == "sub", "CALayer ignores user interaction")
    v.isUserInteractionEnabled = true
    v.opacity = 0.01
    #expect(hit(root, 5, 5, .uiview) == "root", "dead at 0.01")
    v.opacity = 0.0101
    #expect(hit(root, 5, 5, .uiview) == "sub")
    var documented = HitTestSemantics.uiview
    documented.alphaThresholdIsInclusive = false
    v.opacity = 0.01
    #expect(hit(root, 5, 5, documented) == "sub", "the documented rule is < 0.01")
    v.isHidden = true
    #expect(hit(root, 5, 5, .uiview) == "root")
  }

  @Test func pointInsideIsRequiredBeforeDescending() {
    let root = box("root", 0, 0, 100, 100)
    let v = box("v", 0, 0, 20, 20)
    let sub = box("sub", 50, 50, 20, 20)
    root.addSublayer(v)
    v.addSublayer(sub)
    #expect(hit(root, 55, 55, .uiview) == "root")
    #expect(hit(root, 55, 55, .calayer) == "sub")
    #expect(hit(root, 150, 150, .uiview) == nil)
  }

  @Test func zPositionPlaysNoPart() {
    let root = box("root", 0, 0, 100, 100)
    let a = box("a", 0, 0, 50, 50)
    let b = box("b", 0, 0, 50, 50)
    a.zPosition = 10
    root.addSublayer(a)
    root.addSublayer(b)
    #expect(hit(root, 5, 5, .uiview) == "b")
    #expect(hit(root, 5, 5, .calayer) == "a")
  }

  @Test func presetsHaveTheirNames() {
    #expect(HitTestSemantics(named: "calayer") == .calayer)
    #expect(HitTestSemantics(named: "calayer-seed") == .calayerSeed)
    #expect(HitTestSemantics(named: "uiview") == .uiview)
    #expect(HitTestSemantics(named: "view") == nil)
  }
}
