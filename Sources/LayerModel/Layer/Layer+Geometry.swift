extension Layer {
  /// The layer-to-superlayer map as a 4x4 matrix (docs/semantics.md section 1):
  /// `T(-(bounds.origin + anchorPoint * bounds.size), -anchorPointZ) * transform *
  /// T(position, zPosition) * [T(-pS) * S.sublayerTransform * T(pS)]`, where pS is the
  /// superlayer's anchor in its own bounds space (origin included, see docs/semantics.md).
  public var transformToSuperlayer: Transform3D {
    LayerState(self).transformToSuperlayer(parent: superlayer.map(LayerState.init))
  }

  /// The plane map from this layer's space to its superlayer's (rows and columns 1, 2, 4),
  /// computed as the frame builder computes it.
  public var homographyToSuperlayer: Homography {
    LayerState(self).homographyToSuperlayer(parent: superlayer.map(LayerState.init))
  }

  /// The bounding box of the bounds corners in the superlayer's space (without the superlayer's
  /// sublayerTransform, as CALayer's frame). Null when a corner lies behind the viewer.
  /// Setting it sets `bounds.size` and `position` (through the anchor point), leaving
  /// `bounds.origin` and `transform` alone, as CALayer does.
  public var frame: Rect {
    get {
      let h = LayerState(self).transformToSuperlayer(parent: nil).homography
      var pts: [Point] = []
      for c in bounds.corners {
        guard let p = h.apply(c) else { return .null }
        pts.append(p)
      }
      return Rect.boundingBox(of: pts)
    }
    set {
      let r = newValue.standardized
      bounds.size = r.size
      position = Point(x: r.origin.x + anchorPoint.x * r.size.width, y: r.origin.y + anchorPoint.y * r.size.height)
    }
  }

  /// CALayer `containsPoint:`: the point, in this layer's space, lies in `bounds`.
  public func contains(_ p: Point) -> Bool { bounds.contains(p) }

  /// Maps a point from this layer's space to its root's superlayer space (the window);
  /// nil where a level puts it behind the viewer.
  func _mapToWindow(_ p: Point) -> Point? {
    var q = p
    var node: Layer? = self
    while let n = node {
      guard let r = n.homographyToSuperlayer.apply(q) else { return nil }
      q = r
      node = n.superlayer
    }
    return q
  }

  /// Maps a point from the root's superlayer space (the window) down to this layer's space;
  /// nil where a level is singular or the point is behind the viewer.
  func _mapFromWindow(_ p: Point) -> Point? {
    var q = p
    for n in _pathFromRoot() {
      guard let inv = n.homographyToSuperlayer.inverted, let r = inv.apply(q) else { return nil }
      q = r
    }
    return q
  }

  /// The ancestors of `self` (itself first) up to, not including, `stop`.
  private func _path(upTo stop: Layer?) -> [Layer] {
    var out: [Layer] = []
    var node: Layer? = self
    while let n = node, n !== stop {
      out.append(n)
      node = n.superlayer
    }
    return out
  }

  /// The nearest layer that is an ancestor-or-self of both, or nil for unrelated trees.
  private func _commonAncestor(with other: Layer) -> Layer? {
    var mine = Set<ObjectIdentifier>()
    var node: Layer? = self
    while let n = node {
      mine.insert(ObjectIdentifier(n))
      node = n.superlayer
    }
    node = other
    while let n = node {
      if mine.contains(ObjectIdentifier(n)) { return n }
      node = n.superlayer
    }
    return nil
  }

  /// CALayer `convertPoint:fromLayer:`: up from `layer` to the common ancestor (or, for
  /// unrelated trees, the roots' superlayer space), then down to `self`. A nil `layer` means
  /// the root's superlayer space. NaN where a map on the way is singular or behind the viewer.
  public func convert(_ p: Point, from layer: Layer?) -> Point {
    let nan = Point(x: .nan, y: .nan)
    let common = layer.flatMap { _commonAncestor(with: $0) }
    var q = p
    for n in layer?._path(upTo: common) ?? [] {
      guard let r = n.homographyToSuperlayer.apply(q) else { return nan }
      q = r
    }
    for n in _path(upTo: common).reversed() {
      guard let inv = n.homographyToSuperlayer.inverted, let r = inv.apply(q) else { return nan }
      q = r
    }
    return q
  }

  /// CALayer `convertPoint:toLayer:`.
  public func convert(_ p: Point, to layer: Layer?) -> Point {
    if let layer { return layer.convert(p, from: self) }
    return _mapToWindow(p) ?? Point(x: .nan, y: .nan)
  }

  /// CALayer `convertRect:fromLayer:`: the bounding box of the four converted corners
  /// (null when a corner cannot be converted).
  public func convert(_ r: Rect, from layer: Layer?) -> Rect {
    if r.isNull { return .null }
    let pts = r.corners.map { convert($0, from: layer) }
    if pts.contains(where: { $0.x.isNaN || $0.y.isNaN }) { return .null }
    return Rect.boundingBox(of: pts)
  }

  /// CALayer `convertRect:toLayer:`.
  public func convert(_ r: Rect, to layer: Layer?) -> Rect {
    if r.isNull { return .null }
    let pts = r.corners.map { convert($0, to: layer) }
    if pts.contains(where: { $0.x.isNaN || $0.y.isNaN }) { return .null }
    return Rect.boundingBox(of: pts)
  }
}

/// The animatable state of one layer as a value: what an animation reads and writes, and
/// what the layer's map is computed from, so the model layer, a presentation layer and the frame
/// builder all share one function. About 330 bytes, no references.
public struct LayerState: Sendable {
  public var bounds: Rect
  public var position: Point
  public var anchorPoint: Point
  public var anchorPointZ: Double
  public var zPosition: Double
  public var transform: Transform3D
  public var sublayerTransform: Transform3D
  public var isHidden: Bool
  public var opacity: Double

  package init(
    bounds: Rect, position: Point, anchorPoint: Point, anchorPointZ: Double, zPosition: Double, transform: Transform3D,
    sublayerTransform: Transform3D, isHidden: Bool, opacity: Double
  ) {
    (self.bounds, self.position, self.anchorPoint, self.anchorPointZ) = (bounds, position, anchorPoint, anchorPointZ)
    (self.zPosition, self.transform, self.sublayerTransform) = (zPosition, transform, sublayerTransform)
    (self.isHidden, self.opacity) = (isHidden, opacity)
  }

  /// The layer's own (model) values.
  public init(_ layer: Layer) {
    self.init(
      bounds: layer.bounds, position: layer.position, anchorPoint: layer.anchorPoint, anchorPointZ: layer.anchorPointZ,
      zPosition: layer.zPosition, transform: layer.transform, sublayerTransform: layer.sublayerTransform,
      isHidden: layer.isHidden, opacity: layer.opacity)
  }
  /// The anchor point in the layer's own bounds space, z included.
  @inlinable public var anchorInBounds: (x: Double, y: Double, z: Double) {
    (
      bounds.origin.x + anchorPoint.x * bounds.size.width,
      bounds.origin.y + anchorPoint.y * bounds.size.height, anchorPointZ
    )
  }

  /// The plane map into the parent's space: `transformToSuperlayer(parent:).homography`, in
  /// closed form for the common case (an affine transform under a parent without a
  /// sublayerTransform: z then plays no part), else through the 4x4 products. Only the
  /// parent's sublayerTransform matters, so a caller may pass nil for a parent whose
  /// sublayerTransform is the identity (the frame builder does, to avoid copying its state).
  public func homographyToSuperlayer(parent: LayerState?) -> Homography {
    let m = transform
    if parent?.sublayerTransform.isIdentity ?? true, m.isAffine {
      let a = anchorInBounds
      return Homography(
        m11: m.m11, m12: m.m12, m14: 0, m21: m.m21, m22: m.m22, m24: 0,
        m41: -a.x * m.m11 - a.y * m.m21 + m.m41 + position.x, m42: -a.x * m.m12 - a.y * m.m22 + m.m42 + position.y,
        m44: 1)
    }
    return transformToSuperlayer(parent: parent).homography
  }

  /// This layer's 4x4 map into its parent's space, with the parent's sublayerTransform applied
  /// about the parent's anchor when the parent has one.
  public func transformToSuperlayer(parent: LayerState?) -> Transform3D {
    let a = anchorInBounds
    var m = Transform3D.translation(-a.x, -a.y, -a.z)
    if !transform.isIdentity { m = Transform3D.concat(m, transform) }
    m = Transform3D.concat(m, .translation(position.x, position.y, zPosition))
    if let parent, !parent.sublayerTransform.isIdentity {
      let pa = parent.anchorInBounds
      let around = Transform3D.concat(
        Transform3D.concat(.translation(-pa.x, -pa.y, -pa.z), parent.sublayerTransform),
        .translation(pa.x, pa.y, pa.z))
      m = Transform3D.concat(m, around)
    }
    return m
  }
}
