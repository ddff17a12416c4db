import Testing

@testable import LayerModel

#if canImport(Glibc)
  import Glibc
#endif

/// Builds the checked pair of docs/semantics.md section 1: parent bounds 200x200 at (100, 100), child 50x50 at (100, 50).
private func parentAndChild() -> (Layer, Layer) {
  let parent = Layer(name: "parent", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(100, 100))
  let child = Layer(name: "child", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(100, 50))
  parent.addSublayer(child)
  return (parent, child)
}

private func close(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool {
  abs(a.x - b.x) <= eps && abs(a.y - b.y) <= eps
}

@Suite struct RectTests {
  @Test func containsIsMinInclusiveMaxExclusive() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(r.contains(Point(10, 20)))
    #expect(!r.contains(Point(40, 30)))
    #expect(!r.contains(Point(20, 60)))
    #expect(r.contains(Point(39.999999, 59.999999)))
    #expect(!r.contains(Point(.nan, 30)))
  }

  @Test func negativeSizesAreStandardised() {
    let r = Rect(x: 40, y: 60, width: -30, height: -40)
    #expect(r.standardized == Rect(x: 10, y: 20, width: 30, height: 40))
    #expect(r.contains(Point(10, 20)))
    #expect(!r.contains(Point(40, 60)))
    #expect(r.minX == 10 && r.maxX == 40 && r.minY == 20 && r.maxY == 60)
  }

  @Test func emptyAndNullContainNothing() {
    #expect(!Rect(x: 0, y: 0, width: 0, height: 10).contains(Point(0, 5)))
    #expect(Rect(x: 0, y: 0, width: 0, height: 10).isEmpty)
    #expect(!Rect.null.contains(Point(0, 0)))
    #expect(Rect.null.isNull && Rect.null.isEmpty)
    #expect(Rect.null.union(Rect(x: 1, y: 2, width: 3, height: 4)) == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(Rect(x: 0, y: 0, width: 1, height: 1).intersection(Rect(x: 2, y: 2, width: 1, height: 1)).isNull)
  }
}

@Suite struct TransformTests {
  @Test func rotationAboutZMatchesCATransform3D() {
    let a = 0.7
    let m = Transform3D.rotation(a, 0, 0, 1)
    #expect(abs(m.m11 - cos(a)) < 1e-15 && abs(m.m12 - sin(a)) < 1e-15)
    #expect(abs(m.m21 + sin(a)) < 1e-15 && abs(m.m22 - cos(a)) < 1e-15)
    #expect(m.m33 == 1 && m.isAffine)
  }

  @Test func rotationAboutAnArbitraryAxisFollowsTheFormula() {
    let (x, y, z) = (1.0 / 3, 2.0 / 3, 2.0 / 3)
    let a = 1.1
    let (c, s) = (cos(a), sin(a))
    let m = Transform3D.rotation(a, 3, 6, 6)
    #expect(abs(m.m12 - ((1 - c) * x * y + s * z)) < 1e-14)
    #expect(abs(m.m13 - ((1 - c) * x * z - s * y)) < 1e-14)
    #expect(abs(m.m23 - ((1 - c) * y * z + s * x)) < 1e-14)
    #expect(abs(m.m31 - ((1 - c) * x * z + s * y)) < 1e-14)
    #expect(abs(m.m32 - ((1 - c) * y * z - s * x)) < 1e-14)
    #expect(Transform3D.rotation(1, 0, 0, 0) == .identity)
  }

  @Test func concatAppliesTheFirstThenTheSecond() {
    let t = Transform3D.translation(10, 0, 0)
    let s = Transform3D.scale(2, 2, 1)
    let ts = Transform3D.concat(t, s).homography.apply(Point(1, 1))!
    let st = Transform3D.concat(s, t).homography.apply(Point(1, 1))!
    #expect(ts == Point(22, 2))
    #expect(st == Point(12, 2))
    #expect(Transform3D.identity.translated(5, 0, 0).scaled(3, 1, 1).homography.apply(Point(1, 0)) == Point(8, 0))
  }

  @Test func inverseRoundTripsAndSingularIsNil() {
    let m = Transform3D.concat(
      Transform3D.concat(.rotation(0.3, 1, 2, 3), .translation(4, 5, 6)), .perspective(500))
    let inv = m.inverted!
    let id = Transform3D.concat(m, inv)
    for (a, b) in zip(id.elements, Transform3D.identity.elements) { #expect(abs(a - b) < 1e-12) }
    #expect(Transform3D.scale(0, 1, 1).inverted == nil)
    #expect(Transform3D(elements: [Double](repeating: .nan, count: 16))!.inverted == nil)
    #expect(abs(Transform3D.scale(2, 3, 4).determinant - 24) < 1e-12)
  }

  @Test func affinePartsAndPerspective() {
    #expect(!Transform3D.perspective(500).isAffine)
    #expect(Transform3D.perspective(500).m34 == -1.0 / 500)
    let a = Transform3D.affine(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    #expect(a.isAffine)
    let p = a.affineTransform
    #expect(p.a == 1 && p.b == 2 && p.c == 3 && p.d == 4 && p.tx == 5 && p.ty == 6)
    #expect(!Transform3D.rotation(0.5, 0, 1, 0).isAffine)
  }

  @Test func homographyRejectsPointsBehindTheViewer() {
    // Perspective about the origin: w = 1 - x/d... choose a map with w = 1 - x / 100.
    var m = Transform3D.identity
    m.m14 = -0.01
    let h = m.homography
    #expect(h.apply(Point(50, 0)) != nil)
    #expect(h.apply(Point(100, 0)) == nil)
    #expect(h.apply(Point(150, 0)) == nil)
    let inv = h.inverted!
    // The inverse's third coordinate carries the sign of the forward w.
    let forward = h.apply(Point(50, 10))!
    let back = inv.apply(forward)!
    #expect(close(back, Point(50, 10)))
    #expect(Homography(m11: 0, m12: 0, m14: 0, m21: 0, m22: 1, m24: 0, m41: 0, m42: 0, m44: 1).inverted == nil)
  }
}

@Suite struct LayerGeometryTests {
  @Test func checkedConversionVectors() {
    let (parent, child) = parentAndChild()
    #expect(close(parent.convert(Point(0, 0), from: child), Point(75, 25)))
    #expect(close(child.convert(Point(0, 0), from: parent), Point(-75, -25)))
    #expect(close(child.convert(Point(0, 0), to: parent), Point(75, 25)))
    child.transform = .scale(2, 2, 1)
    #expect(close(parent.convert(Point(0, 0), from: child), Point(50, 0)))
  }

  @Test func checkedFrameVectors() {
    let l = Layer(bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(200, 300))
    #expect(l.frame == Rect(x: 150, y: 275, width: 100, height: 50))
    l.anchorPoint = Point(0, 0)
    #expect(l.frame == Rect(x: 200, y: 300, width: 100, height: 50))
    l.anchorPoint = Point(0.5, 0.5)
    l.bounds.origin = Point(11, 22)
    #expect(l.frame == Rect(x: 150, y: 275, width: 100, height: 50))
  }

  @Test func frameSetterSetsPositionAndSizeThroughTheAnchor() {
    let l = Layer()
    l.anchorPoint = Point(0.25, 1)
    l.frame = Rect(x: 10, y: 20, width: 40, height: 80)
    #expect(l.bounds.size == Size(width: 40, height: 80))
    #expect(l.position == Point(20, 100))
    #expect(l.frame == Rect(x: 10, y: 20, width: 40, height: 80))
    l.frame = Rect(x: 50, y: 50, width: -20, height: -10)
    #expect(l.bounds.size == Size(width: 20, height: 10))
    // A transform changes the frame the getter reports, not what the setter wrote.
    l.anchorPoint = Point(0.5, 0.5)
    l.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    l.transform = .rotation(.pi / 4, 0, 0, 1)
    let f = l.frame
    #expect(abs(f.width - 100 * 2.0.squareRoot()) < 1e-9)
    #expect(abs(f.midX - 50) < 1e-9 && abs(f.midY - 50) < 1e-9)
  }

  @Test func convertBetweenSiblingsAndUnrelatedRoots() {
    let root = Layer(bounds: Rect(x: 0, y: 0, width: 300, height: 300), position: Point(150, 150))
    let a = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(50, 50))
    let b = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(100, 50))
    root.addSublayer(a)
    root.addSublayer(b)
    #expect(close(b.convert(Point(0, 0), from: a), Point(-50, 0)))
    let other = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(25, 25))
    // Unrelated roots meet in the roots' superlayer space.
    #expect(close(other.convert(Point(45, 45), from: a), Point(45 + 45 - 20, 45 + 45 - 20)))
    #expect(close(a.convert(Point(5, 5), to: nil), Point(50, 50)))
    let r = b.convert(Rect(x: 0, y: 0, width: 10, height: 10), from: a)
    #expect(r == Rect(x: -50, y: 0, width: 10, height: 10))
    a.transform = .rotation(.pi / 2, 0, 0, 1)
    let rr = root.convert(Rect(x: 0, y: 0, width: 10, height: 10), from: a)
    #expect(abs(rr.minX - 45) < 1e-9 && abs(rr.maxX - 55) < 1e-9)
  }

  @Test func sublayerTransformActsAboutTheParentsAnchor() {
    let parent = Layer(bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(100, 100))
    let child = Layer(bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(150, 100))
    parent.addSublayer(child)
    parent.sublayerTransform = .rotation(.pi / 2, 0, 0, 1)
    // The child's centre (150, 100) turns 90 degrees about the parent's centre (100, 100).
    #expect(close(parent.convert(Point(10, 10), from: child), Point(100, 150)))
    parent.sublayerTransform = .scale(2, 2, 1)
    #expect(close(parent.convert(Point(10, 10), from: child), Point(200, 100)))
  }

  @Test func singularTransformMakesPointsUnconvertible() {
    let (parent, child) = parentAndChild()
    child.transform = .scale(0, 1, 1)
    let p = child.convert(Point(10, 10), from: parent)
    #expect(p.x.isNaN && p.y.isNaN)
    #expect(child.convert(Rect(x: 0, y: 0, width: 1, height: 1), from: parent).isNull)
  }

  @Test func treeEditing() {
    let root = Layer(name: "root")
    let a = Layer(name: "a")
    let b = Layer(name: "b")
    let c = Layer(name: "c")
    root.addSublayer(a)
    root.addSublayer(b)
    root.insertSublayer(c, at: 1)
    #expect(root.sublayers.map(\.name) == ["a", "c", "b"])
    #expect(c.superlayer === root)
    a.addSublayer(c)
    #expect(root.sublayers.map(\.name) == ["a", "b"])
    #expect(c.superlayer === a)
    c.removeFromSuperlayer()
    #expect(c.superlayer == nil && a.sublayers.isEmpty)
    root.addSublayer(a)
    #expect(root.sublayers.map(\.name) == ["b", "a"])
    #expect(root.subtreeInPreorder.map(\.name) == ["root", "b", "a"])
  }
}

/// A layer holds its transforms only while one is not the identity; what it answers is always
/// what was set, bit for bit, and copies never share them.
@Suite struct LayerTransformStorageTests {
  @Test func transformsReadBackBitForBitAndAreHeldOnlyWhenSet() {
    let l = Layer()
    #expect(l._transforms == nil && l.transform == .identity && l.sublayerTransform == .identity)
    let tilt = Transform3D.concat(.rotation(0.5, 0, 1, 0), .perspective(300))
    l.sublayerTransform = tilt
    #expect(l._transforms != nil && l.sublayerTransform == tilt && l.transform == .identity)
    l.sublayerTransform = .identity
    #expect(l._transforms == nil, "both at the identity again: nothing held")
    // A negative zero is not the identity's zero: kept as set.
    var signed = Transform3D.identity
    signed.m12 = -0.0
    l.transform = signed
    #expect(l._transforms != nil && l.transform.m12.sign == .minus)
    var nan = Transform3D.identity
    nan.m41 = .nan
    l.transform = nan
    #expect(l.transform.m41.isNaN)
    let copy = l.deepCopy()
    l.transform = tilt
    #expect(copy.transform.m41.isNaN && l.transform == tilt, "a copy keeps its own transforms")
  }
}
