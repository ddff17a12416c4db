import CPrefetch
import LayerModel

extension PresentationFrameBuilder {
  /// Pass 1 over every layer: the root, then the top-level subtrees split between threads
  /// (a layer on the general path reads its parent's context, so parts are whole subtrees).
  /// Answers how many order keys changed.
  func _pass1All(animated: Bool) -> Int {
    let n = _layerCount
    guard n > 0 else { return 0 }
    let keys = _evaluate(0, animated: animated) ? 1 : 0
    guard _splits, let workers = _workers else {
      return keys + _evaluateRange(1..<n, animated: animated)
    }
    return keys
      + _runParts(workers, .evaluateRange, animated: animated) { modelSplits[$0]..<modelSplits[$0 + 1] }.keysChanged
  }

  /// Pass 1 over the layers evaluated one by one on every animated build, split like
  /// `_pass1All`.
  func _pass1List(animated: Bool) -> Int {
    let count = alwaysEvaluated.count
    guard let workers = _workers, _splitsList(count) else { return _evaluateList(0..<count, animated: animated) }
    return alwaysEvaluated.withUnsafeBufferPointer { list in
      // The first entry at or after a model split (ids are in preorder).
      func entry(_ split: Int) -> Int {
        var lo = 0
        var hi = list.count
        while lo < hi {
          let mid = (lo + hi) / 2
          if Int(list[mid]) < split { lo = mid + 1 } else { hi = mid }
        }
        return lo
      }
      return _runParts(workers, .evaluateList, animated: animated) { k in
        (k == 0 ? 0 : entry(modelSplits[k]))..<(k == splitParts - 1 ? count : entry(modelSplits[k + 1]))
      }.keysChanged
    }
  }

  /// Pass 1 for the tracks on an animated build, in equal parts (tracks are independent):
  /// answers how many order keys changed. (A build that switches between the model and the
  /// presentation tree is a full one and evaluates every layer one by one.)
  func _pass1Tracks() -> Int {
    let n = tracks.count
    guard n > 0 else { return 0 }
    // The track loop's scratch, sized on the first build that runs it (a lazy presentation's
    // builder never does, so it never holds them).
    if trackTime.count < n {
      trackTime.reserve(n, filling: 0)
      trackChanged.reserve(n, filling: 0)
      trackActive.reserve(n, filling: ActiveTime(progress: 0, cycle: 0, seconds: 0))
    }
    guard let workers = _workers, _splitsList(n) else { return _evaluateTracks(0..<n) }
    let parts = splitParts
    return _runParts(workers, .evaluateTracks) { k in (k * n / parts)..<((k + 1) * n / parts) }.keysChanged
  }

  /// Whether a list of pass 1 this long is split (`BuildWorkers.minimumListToSplit`, in a scene
  /// large enough to split at all).
  @inline(__always) func _splitsList(_ count: Int) -> Bool {
    _splits && count >= BuildWorkers.minimumListToSplit
  }

  /// Runs one pass in `splitParts` parts, each claimed by whichever thread is free
  /// (`BuildWorkers`). Answers the parts' results summed.
  func _runParts(
    _ workers: BuildWorkers, _ kind: BuildWorkers.JobKind, animated: Bool = true, columns: FrameColumns = .all,
    _ part: (Int) -> Range<Int>
  ) -> BuildWorkers.Result {
    let parts = splitParts
    for k in 0..<parts {
      let r = part(k)
      workers.jobs[k] = .init(
        kind: kind, part: k, lo: r.lowerBound, hi: r.upperBound, animated: animated, columns: columns)
    }
    workers.run(parts: parts, for: self)
    _splitPasses += 1
    var total = BuildWorkers.Result()
    for k in 0..<parts {
      total.rows += workers.results[k].rows
      total.keysChanged += workers.results[k].keysChanged
    }
    return total
  }

  /// Tracks `range`: their local times, the program's track loop, then the row marks and order
  /// keys of the layers whose numbers changed.
  func _evaluateTracks(_ range: Range<Int>) -> Int {
    tracks.withUnsafeBufferPointer { all in
      let tr = all.baseAddress!
      let program = scene.animations
      let model = UnsafePointer(scene.lean._unsafeStorage)
      let present = presentValues._unsafeStorage
      let timingNode = scene.timingNode._unsafeStorage
      let rowOf = self.rowOf._unsafeStorage
      let orderKey = self.orderKey._unsafeStorage
      var keys = 0
      // In blocks, so that the track loop's second pass and the marks find the block's tracks
      // still in cache (one pass over memory instead of four on large scenes).
      var lo = range.lowerBound
      while lo < range.upperBound {
        let block = lo..<Swift.min(lo + 256, range.upperBound)
        // Tracks can be scattered over the layers: the lines of those that are (`_isScattered`)
        // are asked for together first (see `_composeChangedRows`).
        var previous = -3  // the first track gets its hints
        for i in block {
          let m = Int(tr[i].layer)
          defer { previous = m }
          guard Self._isScattered(m, after: previous) else { continue }
          hitbench_prefetch_read(timingNode + m)
          hitbench_prefetch_read(model + m)
          hitbench_prefetch_read(UnsafeRawPointer(model + m) + 64)
          hitbench_prefetch_write(present + m)
          hitbench_prefetch_write(UnsafeRawPointer(present + m) + 64)
          hitbench_prefetch_read(rowOf + m)
          hitbench_prefetch_read(orderKey + m)
        }
        for i in block { trackTime[i] = _localTime(Int(tr[i].layer)) }
        let changedCount = program.evaluateTracks(
          tr, block, localTimes: trackTime._unsafeStorage, model: model, present: present,
          changed: trackChanged._unsafeStorage,
          scratch: trackActive._unsafeStorage)
        if changedCount > 0 {
          for i in block where trackChanged[i] != 0 {
            let m = Int(tr[i].layer)
            rowChanged[Int(rowOf[m])] = 1
            // The zPosition number is the order key's source.
            if _setOrderKey(m, present[m].v[9]) { keys += 1 }
          }
        }
        lo = block.upperBound
      }
      return keys
    }
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

  /// Pass 1 for layer m (see the full form).
  func _evaluate(_ m: Int, animated: Bool, force: Bool = false) -> Bool {
    _evaluate(m, animated: animated, scene.animations, force: force)
  }

  /// A worker's share of a pass.
  func _runJob(_ job: BuildWorkers.Job) -> BuildWorkers.Result {
    var result = BuildWorkers.Result()
    switch job.kind {
    case .evaluateRange: result.keysChanged = _evaluateRange(job.lo..<job.hi, animated: job.animated)
    case .evaluateList: result.keysChanged = _evaluateList(job.lo..<job.hi, animated: job.animated)
    case .evaluateTracks: result.keysChanged = _evaluateTracks(job.lo..<job.hi)
    case .composeAll: result.rows = _composeRows(job.lo..<job.hi, job.columns)
    case .composeChanged: result.rows = _composeChangedRows(job.lo..<job.hi, part: job.part, job.columns)
    }
    return result
  }

  /// Pass 1 for layer m: its presentation values (model columns with its animations applied
  /// at its local time), compared with the last build's bit for bit (so an incremental build
  /// equals a full one); a layer that changed (or with `force`) has its row marked. Two paths:
  /// - lean (the layer's transform is affine, no sublayerTransform reaches it, its animations
  ///   are all lean): only its 11 presentation numbers are kept; pass 3 derives the level map,
  ///   inverse, bounds and flags from them (equal numbers give equal results);
  /// - general: the whole state, and the level map (a homography when projective), inverse,
  ///   bounds and flags computed here.
  /// Answers whether the order key changed. Writes only layer m's entries (and its row's mark):
  /// threads may evaluate disjoint subtrees at once. `program` is the scene's animations, loaded
  /// once per pass by the caller (reading the property per layer would retain and release it).
  @inline(__always)
  func _evaluate(_ m: Int, animated: Bool, _ program: FrozenAnimationProgram, force: Bool = false) -> Bool {
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
      changed = force || !leanLevel[m] || !_same(presentValues[m], v)
      if changed {
        presentValues[m] = v
        leanLevel[m] = true
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
    let keyChanged = _setOrderKey(m, zPosition)
    if changed || force || keyChanged { rowChanged[Int(rowOf[m])] = 1 }
    return keyChanged
  }

  /// Sets layer m's order key from its presentation zPosition; answers whether it changed (and
  /// then marks it for `_collectResorts`).
  @inline(__always)
  func _setOrderKey(_ m: Int, _ zPosition: Double) -> Bool {
    let key = _ordersByZPosition && !zPosition.isNaN ? zPosition : 0
    guard orderKey[m].bitPattern != key.bitPattern else { return false }
    orderKey[m] = key
    keyChanged[m] = 1
    return true
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

  @inline(__always)
  func _admissionFlags(hidden: Bool, _ b: CompiledScene.Bits, opacity: Double) -> UInt8 {
    _rules.flags(hidden: hidden, b, opacity: opacity)
  }
}

/// The semantics' admission rules as plain values, and the level flags they give.
package struct AdmissionRules {
  let clipsEveryLayer: Bool
  let respectsInteraction: Bool
  let hasAlphaThreshold: Bool
  let alphaThreshold: Double
  let alphaInclusive: Bool

  package init(_ semantics: HitTestSemantics) {
    clipsEveryLayer = semantics.requiresPointInsideBeforeDescending
    respectsInteraction = semantics.respectsUserInteraction
    hasAlphaThreshold = semantics.alphaThreshold != nil
    alphaThreshold = semantics.alphaThreshold ?? 0
    alphaInclusive = semantics.alphaThresholdIsInclusive
  }

  /// Hidden, admitted (`HitTestSemantics.admits`) and clips (`clipsDescent`).
  @inline(__always)
  func flags(hidden: Bool, _ b: CompiledScene.Bits, opacity: Double) -> UInt8 {
    var flags: UInt8 = hidden ? PresentationFrameBuilder.localHidden : 0
    let transparent = hasAlphaThreshold && (alphaInclusive ? opacity <= alphaThreshold : opacity < alphaThreshold)
    if !hidden && !(respectsInteraction && !b.contains(.interactive)) && !transparent {
      flags |= PresentationFrameBuilder.localAdmitted
    }
    if b.contains(.masks) || clipsEveryLayer { flags |= PresentationFrameBuilder.localClips }
    return flags
  }
}

/// Local bounds, standardised; a null rect is empty.
@inline(__always) func _box(_ r: Rect) -> Box {
  r.isNull ? Box.nothing : Box(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
}

/// `AffineMap.inverted` in two steps: the part that depends on the linear entries only (the
/// adjugate's linear entries times `k = 1 / det`, and whether they are usable), kept per lean
/// layer, then the translation for a map with those linear entries. The same operations on
/// the same values: the same bits, one division per layer per model change instead of per
/// frame.
package struct LinearInverse: Sendable {
  var a: Double, b: Double, c: Double, d: Double, k: Double
  /// det is non-zero and finite and the four entries are finite.
  var usable: Bool

  package init(_ m: AffineMap) {
    let det = m.a * m.d - m.b * m.c
    let k = 1 / det
    a = m.d * k
    b = -m.b * k
    c = -m.c * k
    d = m.a * k
    self.k = k
    usable = det != 0 && det.isFinite && (a * 0 + b * 0) + (c * 0 + d * 0) == 0
  }

  /// The inverse of `m` (whose linear entries are the ones this was made from), or nil.
  @inline(__always) package func inverse(of m: AffineMap) -> AffineMap? {
    let tx = (m.c * m.ty - m.d * m.tx) * k
    let ty = (m.b * m.tx - m.a * m.ty) * k
    guard usable, tx * 0 + ty * 0 == 0 else { return nil }
    return AffineMap(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
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
