extension Layer {
  /// CALayer `presentationLayer` at clock time `t`: a copy of the whole tree with every active
  /// animation applied, returned at this layer's place in it. Each copy's `modelLayer` is the
  /// layer it came from; the model is never changed. O(layers x animations), iterative.
  /// As with any layer, `superlayer` is weak: to walk up a presentation tree, keep its root
  /// (`rootLayer.presentation(at:)`).
  public func presentation(at t: Double) -> Layer {
    let root = rootLayer
    let copyRoot = root._copyPresentation(localTime: root.localTime(atClockTime: t))
    copyRoot.modelLayer = root
    var stack: [(model: Layer, copy: Layer, time: Double)] = [(root, copyRoot, root.localTime(atClockTime: t))]
    var found: Layer? = root === self ? copyRoot : nil
    while let (model, copy, time) = stack.popLast() {
      for child in model.sublayers {
        let childTime = child.timing.layerLocalTime(fromParent: time)
        let c = child._copyPresentation(localTime: childTime)
        c.modelLayer = child
        copy._appendSublayerUnchecked(c)
        if child === self { found = c }
        stack.append((child, c, childTime))
      }
    }
    return found!
  }

  private func _copyPresentation(localTime: Double) -> Layer {
    let c = _copyProperties()
    c._setState(presentationState(atLocalTime: localTime))
    return c
  }
}
