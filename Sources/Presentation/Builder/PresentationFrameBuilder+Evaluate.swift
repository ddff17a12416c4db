import LayerModel

extension PresentationFrameBuilder {
  /// Pass 1 over every layer: the root, then the top-level subtrees split between threads.
  /// Answers how many order keys changed.
  func _pass1All(animated: Bool) -> Int {
    let n = _layerCount
    guard n > 0 else { return 0 }
    var keys = _evaluate(0, animated: animated) ? 1 : 0
    if let workers = _workers, n >= BuildWorkers.minimumRowsToSplit {
      workers.post(0, .init(kind: .evaluateRange, lo: modelSplit, hi: n, animated: animated))
      workers.run(for: self) { keys += _evaluateRange(1..<modelSplit, animated: animated) }
      keys += workers.results[0].keysChanged
    } else {
      keys += _evaluateRange(1..<n, animated: animated)
    }
    return keys
  }

  /// Pass 1 over the layers evaluated on every animated build, split like `_pass1All`.
  func _pass1List(animated: Bool) -> Int {
    let list = alwaysEvaluated
    if let workers = _workers, list.count >= BuildWorkers.minimumRowsToSplit {
      // The first entry at or after the model split (ids are in preorder).
      var lo = 0
      var hi = list.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if Int(list[mid]) < modelSplit { lo = mid + 1 } else { hi = mid }
      }
      let split = lo
      var keys = 0
      workers.post(0, .init(kind: .evaluateList, lo: split, hi: list.count, animated: animated))
      workers.run(for: self) { keys = _evaluateList(0..<split, animated: animated) }
      return keys + workers.results[0].keysChanged
    }
    return _evaluateList(0..<list.count, animated: animated)
  }

  func _evaluateRange(_ range: Range<Int>, animated: Bool) -> Int {
    let program = scene.animations
    var keys = 0
    for m in range where _evaluate(m, animated: animated, program) { keys += 1 }
    return keys
  }

  func _evaluateList(_ range: Range<Int>, animated: Bool) -> Int {
    let program = scene.animations
    return alwaysEvaluated.withUnsafeBufferPointer { ms in
      var keys = 0
      for k in range where _evaluate(Int(ms[k]), animated: animated, program) { keys += 1 }
      return keys
    }
  }

  /// Pass 1 for layer m (see the three-argument form).
  func _evaluate(_ m: Int, animated: Bool) -> Bool {
    _evaluate(m, animated: animated, scene.animations)
  }

  /// A worker's share of a pass.
  func _runJob(_ job: BuildWorkers.Job) -> BuildWorkers.Result {
    var result = BuildWorkers.Result()
    switch job.kind {
    case .evaluateRange: result.keysChanged = _evaluateRange(job.lo..<job.hi, animated: job.animated)
    case .evaluateList: result.keysChanged = _evaluateList(job.lo..<job.hi, animated: job.animated)
    case .composeAll: result.rows = _composeRows(job.lo..<job.hi, job.columns)
    case .composeChanged: result.rows = _composeChangedRows(job.lo..<job.hi, job.columns)
    }
    return result
  }

  /// Pass 1 for layer m: its presentation values (model columns with its animations applied
  /// at its local time), level map and inverse, local bounds, flags and order key. Stores them
  /// and marks the layer's row when anything differs from the last build (bit for bit, so an
  /// incremental build equals a full one). Answers whether the order key changed. Writes only
  /// layer m's entries (and its row's mark): threads may evaluate disjoint subtrees at once.
  /// `program` is the scene's animations, loaded once per pass by the caller (reading the
  /// property per layer would retain and release it).
  @inline(__always)
  func _evaluate(_ m: Int, animated: Bool, _ program: FrozenAnimationProgram) -> Bool {
    let scene = self.scene
    let b = scene.bits[m]
    let p = Int(scene.parentColumn[m])
    let parentContext = p >= 0 && hasContext[p]
    let runs = animated && b.contains(.animated)
    var map = AffineMap.identity
    var homography = Homography.identity
    var projective = false
    var bounds: Rect
    var hidden: Bool
    var opacity: Double
    var zPosition: Double
    if parentContext || !b.contains(.affineTransform) || (runs && b.contains(.generalAnimations)) {
      // The general path: a whole state, the level map through the 4x4 products when needed.
      var s = scene.modelState(m)
      if runs {
        program.applyGeneral(
          scene.animationStart[m]..<scene.animationEnd[m], to: &s, atParentTime: _localTime(m))
      }
      let h = s.homographyToSuperlayer(parent: parentContext ? contextState[p] : nil)
      if h.isAffine { map = AffineMap(h) } else { (homography, projective) = (h, true) }
      bounds = s.bounds
      hidden = s.isHidden
      opacity = s.opacity
      zPosition = s.zPosition
      if !s.sublayerTransform.isIdentity {
        contextState[m] = s
        hasContext[m] = true
      } else {
        hasContext[m] = false
      }
    } else {
      // The lean path: 11 numbers, the closed-form affine level map (the transform is affine
      // and no sublayerTransform reaches this layer), as `homographyToSuperlayer` computes it.
      var v = scene.lean[m]
      if runs {
        program.applyLean(scene.animationStart[m]..<scene.animationEnd[m], to: &v, atParentTime: _localTime(m))
      }
      let t = scene.affineTransform[m]
      let ax = v.v[2] + v.v[6] * v.v[4]
      let ay = v.v[3] + v.v[7] * v.v[5]
      map = AffineMap(
        a: t.a, b: t.b, c: t.c, d: t.d, tx: -ax * t.a - ay * t.c + t.tx + v.v[0],
        ty: -ax * t.b - ay * t.d + t.ty + v.v[1])
      bounds = v.bounds
      hidden = b.contains(.hidden)
      opacity = v.v[10]
      zPosition = v.v[9]
      if b.contains(.hasSublayerTransform) {
        var s = scene.modelState(m)
        v.write(into: &s)
        contextState[m] = s
        hasContext[m] = true
      } else {
        hasContext[m] = false
      }
    }

    var flags: UInt8 = 0
    var inverse = AffineMap.identity
    var homographyInverse = Homography.identity
    if projective {
      flags |= Self.localProjective
      if let i = homography.inverted {
        homographyInverse = i
        flags |= Self.localInvertible
      }
    } else if let i = map.inverted {
      inverse = i
      flags |= Self.localInvertible
    }
    // `HitTestSemantics.admits` and `clipsDescent`, from the cached rules.
    if hidden { flags |= Self.localHidden }
    let transparent = _hasAlphaThreshold && (_alphaInclusive ? opacity <= _alphaThreshold : opacity < _alphaThreshold)
    if !hidden && !(_respectsInteraction && !b.contains(.interactive)) && !transparent {
      flags |= Self.localAdmitted
    }
    if b.contains(.masks) || _clipsEveryLayer { flags |= Self.localClips }
    let box =
      bounds.isNull
      ? Box.nothing : Box(minX: bounds.minX, minY: bounds.minY, maxX: bounds.maxX, maxY: bounds.maxY)
    let key = _ordersByZPosition && !zPosition.isNaN ? zPosition : 0

    var changed = localFlags[m] != flags || !_same(localBounds[m], box)
    let keyChanged = orderKey[m].bitPattern != key.bitPattern
    if projective {
      changed =
        changed || !_same(levelHomography[m], homography) || !_same(levelHomographyInverse[m], homographyInverse)
    } else {
      changed = changed || !_same(levelMap[m], map) || !_same(levelInverse[m], inverse)
    }
    guard changed || keyChanged else { return false }
    localFlags[m] = flags
    localBounds[m] = box
    if projective {
      levelHomography[m] = homography
      levelHomographyInverse[m] = homographyInverse
    } else {
      levelMap[m] = map
      levelInverse[m] = inverse
    }
    if keyChanged {
      orderKey[m] = key
      self.keyChanged[m] = 1
    }
    rowChanged[Int(rowOf[m])] = 1
    return keyChanged
  }
}

@inline(__always) func _same(_ a: AffineMap, _ b: AffineMap) -> Bool {
  a.a.bitPattern == b.a.bitPattern && a.b.bitPattern == b.b.bitPattern && a.c.bitPattern == b.c.bitPattern
    && a.d.bitPattern == b.d.bitPattern && a.tx.bitPattern == b.tx.bitPattern && a.ty.bitPattern == b.ty.bitPattern
}

@inline(__always) func _same(_ a: Homography, _ b: Homography) -> Bool {
  a.m11.bitPattern == b.m11.bitPattern && a.m12.bitPattern == b.m12.bitPattern && a.m14.bitPattern == b.m14.bitPattern
    && a.m21.bitPattern == b.m21.bitPattern && a.m22.bitPattern == b.m22.bitPattern
    && a.m24.bitPattern == b.m24.bitPattern && a.m41.bitPattern == b.m41.bitPattern
    && a.m42.bitPattern == b.m42.bitPattern && a.m44.bitPattern == b.m44.bitPattern
}

@inline(__always) func _same(_ a: Box, _ b: Box) -> Bool {
  a.minX.bitPattern == b.minX.bitPattern && a.minY.bitPattern == b.minY.bitPattern
    && a.maxX.bitPattern == b.maxX.bitPattern && a.maxY.bitPattern == b.maxY.bitPattern
}
