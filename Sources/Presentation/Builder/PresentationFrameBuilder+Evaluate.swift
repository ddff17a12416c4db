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
  /// at its local time), compared with the last build's bit for bit (so an incremental build
  /// equals a full one); a layer that changed has its row marked. Two paths:
  /// - lean (the layer's transform is affine, no sublayerTransform reaches it, its animations
  ///   are all lean): only its 11 presentation numbers are kept; pass 3 derives the level map,
  ///   inverse, bounds and flags from them (equal numbers give equal results);
  /// - general: the whole state, and the level map (a homography when projective), inverse,
  ///   bounds and flags computed here.
  /// Answers whether the order key changed. Writes only layer m's entries (and its row's mark):
  /// threads may evaluate disjoint subtrees at once. `program` is the scene's animations, loaded
  /// once per pass by the caller (reading the property per layer would retain and release it).
  @inline(__always)
  func _evaluate(_ m: Int, animated: Bool, _ program: FrozenAnimationProgram) -> Bool {
    let scene = self.scene
    let b = scene.bits[m]
    let p = Int(scene.parentColumn[m])
    let parentContext = p >= 0 && hasContext[p]
    let runs = animated && b.contains(.animated)
    var changed: Bool
    var zPosition: Double
    if parentContext || !b.contains(.affineTransform) || (runs && b.contains(.generalAnimations)) {
      (changed, zPosition) = _evaluateGeneral(m, b, p, parentContext, runs, program)
    } else {
      var v = scene.lean[m]
      if runs {
        program.applyLean(scene.animationStart[m]..<scene.animationEnd[m], to: &v, atParentTime: _localTime(m))
      }
      changed = !leanLevel[m] || !_same(presentValues[m], v)
      if changed {
        presentValues[m] = v
        leanLevel[m] = true
        levelDirty[m] = 1
      }
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
    let key = _ordersByZPosition && !zPosition.isNaN ? zPosition : 0
    let keyChanged = orderKey[m].bitPattern != key.bitPattern
    if keyChanged {
      orderKey[m] = key
      self.keyChanged[m] = 1
    }
    if changed || keyChanged { rowChanged[Int(rowOf[m])] = 1 }
    return keyChanged
  }

  /// The general path of pass 1 (see `_evaluate`): answers whether the level results changed,
  /// and the presentation zPosition.
  func _evaluateGeneral(
    _ m: Int, _ b: CompiledScene.Bits, _ p: Int, _ parentContext: Bool, _ runs: Bool,
    _ program: FrozenAnimationProgram
  ) -> (Bool, Double) {
    var s = scene.modelState(m)
    if runs {
      program.applyGeneral(scene.animationStart[m]..<scene.animationEnd[m], to: &s, atParentTime: _localTime(m))
    }
    let h = s.homographyToSuperlayer(parent: parentContext ? contextState[p] : nil)
    var map = AffineMap.identity
    var homography = Homography.identity
    let projective = !h.isAffine
    if projective { homography = h } else { map = AffineMap(h) }
    if !s.sublayerTransform.isIdentity {
      contextState[m] = s
      hasContext[m] = true
    } else {
      hasContext[m] = false
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
    flags |= _admissionFlags(hidden: s.isHidden, b, opacity: s.opacity)
    let box = _box(s.bounds)
    var changed = leanLevel[m] || localFlags[m] != flags || !_same(localBounds[m], box)
    if projective {
      changed =
        changed || !_same(levelHomography[m], homography) || !_same(levelHomographyInverse[m], homographyInverse)
    } else {
      changed = changed || !_same(levelMap[m], map) || !_same(levelInverse[m], inverse)
    }
    if changed {
      leanLevel[m] = false
      localFlags[m] = flags
      localBounds[m] = box
      if projective {
        levelHomography[m] = homography
        levelHomographyInverse[m] = homographyInverse
      } else {
        levelMap[m] = map
        levelInverse[m] = inverse
      }
    }
    return (changed, s.zPosition)
  }

  /// Hidden, admitted (`HitTestSemantics.admits`, from the cached rules) and clips
  /// (`clipsDescent`).
  @inline(__always)
  func _admissionFlags(hidden: Bool, _ b: CompiledScene.Bits, opacity: Double) -> UInt8 {
    var flags: UInt8 = hidden ? Self.localHidden : 0
    let transparent = _hasAlphaThreshold && (_alphaInclusive ? opacity <= _alphaThreshold : opacity < _alphaThreshold)
    if !hidden && !(_respectsInteraction && !b.contains(.interactive)) && !transparent {
      flags |= Self.localAdmitted
    }
    if b.contains(.masks) || _clipsEveryLayer { flags |= Self.localClips }
    return flags
  }

  /// Local bounds, standardised; a null rect is empty.
  @inline(__always)
  func _box(_ r: Rect) -> Box {
    r.isNull ? Box.nothing : Box(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
  }

  /// A lean layer's level results, from its presentation numbers: the closed-form affine level
  /// map (as `homographyToSuperlayer` computes it for an affine transform under a parent
  /// without sublayerTransform), its inverse, flags and bounds.
  @inline(__always)
  func _leanLevel(_ m: Int) -> (map: AffineMap, inverse: AffineMap, flags: UInt8, box: Box) {
    let v = presentValues[m]
    let t = scene.affineTransform[m]
    let b = scene.bits[m]
    let ax = v.v[2] + v.v[6] * v.v[4]
    let ay = v.v[3] + v.v[7] * v.v[5]
    let map = AffineMap(
      a: t.a, b: t.b, c: t.c, d: t.d, tx: -ax * t.a - ay * t.c + t.tx + v.v[0], ty: -ax * t.b - ay * t.d + t.ty + v.v[1]
    )
    var flags = _admissionFlags(hidden: b.contains(.hidden), b, opacity: v.v[10])
    var inverse = AffineMap.identity
    if let i = map.inverted {
      inverse = i
      flags |= Self.localInvertible
    }
    return (map, inverse, flags, _box(v.bounds))
  }
}

@inline(__always) func _same(_ a: LeanValues, _ b: LeanValues) -> Bool {
  var same = true
  for i in 0..<11 { same = same && a.v[i].bitPattern == b.v[i].bitPattern }
  return same
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
