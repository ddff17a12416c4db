import LayerModel

extension CompiledScene {
  /// Checks the columns against the layer tree they compile (with `HITBENCH_INTERNAL_CHECKS`),
  /// after every `synchronize()`: the preorder and its topology (parents before children,
  /// subtree sizes, sublayer lists in array order), every layer's model values and flags as
  /// the layer holds them (so an incremental re-read that missed a change is caught), transform
  /// and timing slots, the affine parts, timing links, and animation ranges within the program. O(layers).
  func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      // Released: the columns were checked against the model when last synchronized, and
      // nothing can change them since.
      guard !modelReleased else {
        precondition(layers.isEmpty && childStart.count == count + 1, "compiled scene: a released scene's columns")
        return
      }
      let n = layers.count
      precondition(n >= 1 && layers[0] === root && parent[0] == -1, "compiled scene: the root is not layer 0")
      precondition(childStart.count == n + 1 && Int(childStart[n]) == childList.count, "compiled scene: child ranges")
      // Equal, NaN to NaN (hostile scenes hold NaN values, which the columns keep as they are).
      @inline(__always) func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
      func same(_ a: Transform3D, _ b: Transform3D) -> Bool {
        same(a.m11, b.m11) && same(a.m12, b.m12) && same(a.m13, b.m13) && same(a.m14, b.m14)
          && same(a.m21, b.m21) && same(a.m22, b.m22) && same(a.m23, b.m23) && same(a.m24, b.m24)
          && same(a.m31, b.m31) && same(a.m32, b.m32) && same(a.m33, b.m33) && same(a.m34, b.m34)
          && same(a.m41, b.m41) && same(a.m42, b.m42) && same(a.m43, b.m43) && same(a.m44, b.m44)
      }
      var timedSeen = 0
      for m in 0..<n {
        let l = layers[m]
        precondition(index[ObjectIdentifier(l)] == Int32(m), "compiled scene: layer \(m)'s id")
        precondition(parentColumn[m] == parent[m], "compiled scene: layer \(m)'s parent column")
        if m > 0 {
          let p = Int(parent[m])
          precondition(p >= 0 && p < m && l.superlayer === layers[p], "compiled scene: layer \(m)'s parent \(p)")
          precondition(m + Int(subtreeSize[m]) <= p + Int(subtreeSize[p]), "compiled scene: layer \(m)'s subtree")
        }
        let a = Int(childStart[m])
        let b = Int(childStart[m + 1])
        precondition(a <= b && b - a == l.sublayers.count, "compiled scene: layer \(m)'s sublayers")
        var next = m + 1
        for (k, c) in l.sublayers.enumerated() {
          precondition(
            Int(childList[a + k]) == next && layers[next] === c, "compiled scene: layer \(m)'s sublayer \(k)")
          next += Int(subtreeSize[next])
        }
        precondition(next == m + Int(subtreeSize[m]), "compiled scene: layer \(m)'s subtree size")
        // The model values, as the layer holds them now.
        let s = modelState(m)
        precondition(
          same(s.position.x, l.position.x) && same(s.position.y, l.position.y)
            && same(s.bounds.origin.x, l.bounds.origin.x) && same(s.bounds.origin.y, l.bounds.origin.y)
            && same(s.bounds.size.width, l.bounds.size.width) && same(s.bounds.size.height, l.bounds.size.height)
            && same(s.anchorPoint.x, l.anchorPoint.x) && same(s.anchorPoint.y, l.anchorPoint.y)
            && same(s.anchorPointZ, l.anchorPointZ) && same(s.zPosition, l.zPosition) && same(s.opacity, l.opacity)
            && s.isHidden == l.isHidden,
          "compiled scene: layer \(m)'s values \(s) are not the layer's (\(l.position), \(l.bounds), \(l.anchorPoint), "
            + "\(l.anchorPointZ), \(l.zPosition), \(l.opacity), hidden \(l.isHidden))")
        precondition(
          same(s.transform, l.transform) && same(s.sublayerTransform, l.sublayerTransform),
          "compiled scene: layer \(m)'s transforms are not the layer's")
        let f = bits[m]
        precondition(
          f.contains(.masks) == l.masksToBounds && f.contains(.interactive) == l.isUserInteractionEnabled
            && f.contains(.hasTransform) == (affineSlot[m] > 0)
            && f.contains(.hasSublayerTransform) == (sublayerTransformSlot[m] >= 0)
            && f.contains(.affineTransform) == l.transform.isAffine,
          "compiled scene: layer \(m)'s flags")
        // The affine part: entry 0 (the identity) or the stored transform's, holding its 2D part
        // (the stored transform itself is checked above, through `modelState`).
        let t = l.transform
        let part = affineParts[Int(affineSlot[m])]
        precondition(
          affineSlot[m] >= 0 && affineParts.count <= transforms.count + 1
            && same(part.transform.a, t.m11) && same(part.transform.b, t.m12) && same(part.transform.c, t.m21)
            && same(part.transform.d, t.m22) && same(part.transform.tx, t.m41) && same(part.transform.ty, t.m42),
          "compiled scene: layer \(m)'s affine part")
        precondition(
          f.contains(.hasTiming) == (timingSlot[m] >= 0)
            && (timingSlot[m] < 0 || "\(timings[Int(timingSlot[m])])" == "\(l.timing)"),  // NaN-safe
          "compiled scene: layer \(m)'s timing")
        let tp = Int(timingNode[m])
        precondition(
          f.contains(.hasTiming) ? tp == timedSeen : tp == (m == 0 ? -1 : Int(timingNode[Int(parent[m])])),
          "compiled scene: layer \(m)'s timing link")
        if f.contains(.hasTiming) {
          precondition(
            timedSeen < timingNodes.count && timingNodes[timedSeen] == Int32(m),
            "compiled scene: layer \(m) is not in the timing nodes' list")
          timedSeen += 1
        }
        let r0 = Int(animationStart[m])
        let r1 = Int(animationEnd[m])
        precondition(
          r0 <= r1 && r1 <= animations.records.count && f.contains(.animated) == (r1 > r0)
            && (_takesAnimations || (r1 > r0) == !l._animations.isEmpty),
          "compiled scene: layer \(m)'s animations")
      }
      precondition(timedSeen == timingNodes.count, "compiled scene: the timing nodes' list")
      precondition(
        animatedLayers == (0..<n).compactMap { bits[$0].contains(.animated) ? Int32($0) : nil },
        "compiled scene: the animated layers")
    #endif
  }
}
