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
      let children: [Layer]
      var next: Int
    }
    func enter(_ layer: Layer, _ p: Point) -> Visit? {
      guard
        semantics.admits(
          hidden: layer.isHidden, userInteractionEnabled: layer.isUserInteractionEnabled, opacity: layer.opacity),
        let inverse = layer.homographyToSuperlayer.inverted, let q = inverse.apply(p)
      else { return nil }
      if semantics.clipsDescent(masksToBounds: layer.masksToBounds) && !layer.bounds.contains(q) { return nil }
      return Visit(layer: layer, point: q, children: layer._sublayersTopFirst(semantics), next: 0)
    }
    guard let first = enter(self, p) else { return nil }
    var stack = [first]
    while let top = stack.last {
      if top.next < top.children.count {
        stack[stack.count - 1].next += 1
        if let visit = enter(top.children[top.next], top.point) { stack.append(visit) }
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
