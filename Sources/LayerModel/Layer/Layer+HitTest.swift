extension Layer {
  /// CALayer `hitTest:` (or UIView `hitTest:withEvent:` under `.uiview`): the top-most layer of
  /// this subtree whose bounds contain `p`, where `p` is in this layer's superlayer space (for a
  /// root, the window). Walks the tree top-most first, converting the point one level at a time,
  /// with an explicit stack: O(layers visited) time, O(depth) heap, no recursion, so a
  /// 100,000-deep chain is safe.
  public func hitTest(_ p: Point, semantics: HitTestSemantics = .calayer) -> Layer? {
    struct Visit {
      let layer: Layer
      let point: Point
      /// The composite map from the layer's space to the window, for the distortion limit.
      let toWindow: Homography
      let children: [Layer]
      var next: Int
    }
    func enter(_ layer: Layer, _ p: Point, _ parentToWindow: Homography?) -> Visit? {
      let h = layer.homographyToSuperlayer
      guard
        semantics.admits(
          hidden: layer.isHidden, userInteractionEnabled: layer.isUserInteractionEnabled, opacity: layer.opacity),
        let inverse = h.inverted, let q = inverse.apply(p)
      else { return nil }
      // A layer distorted beyond what Double resolves is degenerate, like a singular one.
      let toWindow = parentToWindow.map { Homography.concat(h, $0) } ?? h
      if toWindow.isAffine
        && GeometryLimits.isTooDistorted(toWindow.m11, toWindow.m12, toWindow.m21, toWindow.m22)
      {
        return nil
      }
      if semantics.clipsDescent(masksToBounds: layer.masksToBounds) && !layer.bounds.contains(q) { return nil }
      return Visit(layer: layer, point: q, toWindow: toWindow, children: layer._sublayersTopFirst(semantics), next: 0)
    }
    guard let first = enter(self, p, nil) else { return nil }
    var stack = [first]
    while let top = stack.last {
      if top.next < top.children.count {
        stack[stack.count - 1].next += 1
        if let visit = enter(top.children[top.next], top.point, top.toWindow) { stack.append(visit) }
        continue
      }
      // No sublayer answered: the layer itself, and the first answer is the final one.
      if top.layer.bounds.contains(top.point) { return top.layer }
      stack.removeLast()
    }
    return nil
  }

  /// Sublayers in the order hit testing asks them: top-most first. Under the CALayer preset a
  /// larger `zPosition` comes first and ties keep the later sublayer first.
  func _sublayersTopFirst(_ semantics: HitTestSemantics) -> [Layer] {
    let reversed = Array(sublayers.reversed())
    guard semantics.ordersByZPosition, reversed.count > 1 else { return reversed }
    // Stable sort of the reversed list by descending key keeps later sublayers first on ties.
    return reversed.enumerated().sorted { a, b in
      let ka = semantics.orderKey(zPosition: a.element.zPosition)
      let kb = semantics.orderKey(zPosition: b.element.zPosition)
      return ka != kb ? ka > kb : a.offset < b.offset
    }.map(\.element)
  }
}
