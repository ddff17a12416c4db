import LayerModel

extension PresentationFrameBuilder {
  /// Pass 3 over every row. Answers the rows recomputed.
  func _composeAll(_ columns: FrameColumns) -> Int {
    let n = _layerCount
    guard n > 0 else { return 0 }
    let rows: Int
    if let workers = _workers, n >= BuildWorkers.minimumRowsToSplit {
      let chain = _composeChains(all: true, columns)
      rows = chain + _runParts(workers, .composeAll, columns: columns) { _rowPart($0) }.rows
      _clearChains()
    } else {
      rows = _composeRows(0..<n, columns)
    }
    for r in 0..<n { rowChanged[r] = 0 }
    return rows
  }

  /// Pass 3 over the subtrees of the rows pass 1 marked (a marked row recomputes its whole
  /// subtree: every map and box below it depends on its map). Answers the rows recomputed.
  func _composeChanged(_ columns: FrameColumns) -> Int {
    let n = _layerCount
    guard n > 0 else { return 0 }
    if rowChanged[0] != 0 { return _composeAll(columns) }
    if let workers = _workers, n >= BuildWorkers.minimumRowsToSplit {
      let chain = _composeChains(all: false, columns)
      let rows = chain + _runParts(workers, .composeChanged, columns: columns) { _rowPart($0) }.rows
      _clearChains()
      return rows
    }
    inheritedEnd[0] = 0
    return _composeChangedRows(0..<n, part: 0, columns)
  }

  /// Part k of the rows: equal shares, split at any row.
  @inline(__always) func _rowPart(_ k: Int) -> Range<Int> {
    (k * _layerCount / threads)..<((k + 1) * _layerCount / threads)
  }

  /// Before a split pass 3: composes the rows on the paths from the root to each part's first
  /// row (the rows after a split read them), marking them so the parts skip them, and notes
  /// in `inheritedEnd` where the marked subtree each part starts inside ends (a part starting
  /// inside one recomputes every row up to its end). With `all`, every chain row is composed;
  /// otherwise those in a marked subtree. Answers the rows composed.
  func _composeChains(all: Bool, _ columns: FrameColumns) -> Int {
    let composer = _RowComposer(self, columns)
    let parentRow = frame._parent
    let subtreeEnd = frame._subtreeEnd
    var composed = 0
    for k in 0..<threads {
      let start = _rowPart(k).lowerBound
      inheritedEnd[k] = 0
      guard start > 0 else { continue }
      // The ancestors of `start`, bottom up, into chainRows[0 ..< depth].
      var depth = 0
      var a = Int(parentRow[start])
      while a >= 0 {
        chainRows[depth] = Int32(a)
        depth += 1
        a = Int(parentRow[a])
      }
      // Top down: a chain row is recomputed when it or a row above it is marked.
      var marked = all
      for i in stride(from: depth - 1, through: 0, by: -1) {
        let c = Int(chainRows[i])
        if !marked && rowChanged[c] != 0 {
          marked = true
          inheritedEnd[k] = Int(subtreeEnd[c])
        }
        if chainMark[c] == 0 {
          chainMark[c] = 1
          if marked {
            composer.compose(c)
            composed += 1
          }
        }
      }
    }
    return composed
  }

  /// Clears the chain marks of the split rows' ancestors.
  func _clearChains() {
    let parentRow = frame._parent
    for k in 1..<threads {
      var a = Int(parentRow[_rowPart(k).lowerBound])
      while a >= 0 && chainMark[a] != 0 {
        chainMark[a] = 0
        a = Int(parentRow[a])
      }
    }
  }

  /// The rows of `range` (chain rows skipped when split). Answers how many were composed.
  func _composeRows(_ range: Range<Int>, _ columns: FrameColumns) -> Int {
    let composer = _RowComposer(self, columns)
    var done = 0
    if _workers == nil || _layerCount < BuildWorkers.minimumRowsToSplit {
      for r in range { composer.compose(r) }
      return range.count
    }
    for r in range where chainMark[r] == 0 {
      composer.compose(r)
      done += 1
    }
    return done
  }

  /// The marked rows' subtrees within `range`, which is part `part` (it first recomputes up to
  /// `inheritedEnd[part]` when it starts inside a marked subtree), skipping chain rows when
  /// split, clearing the marks. Scans eight marks at a time. Answers the rows composed.
  func _composeChangedRows(_ range: Range<Int>, part: Int, _ columns: FrameColumns) -> Int {
    let f = frame
    let composer = _RowComposer(self, columns)
    let split = _workers != nil && _layerCount >= BuildWorkers.minimumRowsToSplit
    let chain = chainMark.base
    let marked = rowChanged.base
    // (A nested function counting into a captured variable would box it: one allocation per
    // call of this function.)
    @inline(__always) func composeRun(_ lo: Int, _ hi: Int) -> Int {
      var done = 0
      for row in lo..<hi {
        marked[row] = 0
        if split && chain[row] != 0 { continue }
        composer.compose(row)
        done += 1
      }
      return done
    }
    var done = 0
    let end = range.upperBound
    var r = range.lowerBound
    let inherited = Swift.min(inheritedEnd[part], end)
    if inherited > r {
      done += composeRun(r, inherited)
      r = inherited
    }
    let marks = UnsafeRawPointer(rowChanged.base)
    while r < end {
      if r + 8 <= end && marks.loadUnaligned(fromByteOffset: r, as: UInt64.self) == 0 {
        r += 8
        continue
      }
      if rowChanged[r] == 0 {
        r += 1
        continue
      }
      let stop = Swift.min(Int(f._subtreeEnd[r]), end)
      done += composeRun(r, stop)
      r = stop
    }
    return done
  }
}

/// Pass 3's row computation over the frame's and the builder's columns, their base addresses
/// loaded once per pass: reading them through the two objects in the loop would reload each
/// one after every store (a store through a column may, for all the compiler knows, change an
/// object's fields).
struct _RowComposer {
  // The frame's columns.
  let layer: UnsafeMutablePointer<LayerID>
  let parent: UnsafeMutablePointer<Int32>
  let flags: UnsafeMutablePointer<PresentationFrame.Flags>
  let bounds: UnsafeMutablePointer<Box>
  let fromParent: UnsafeMutablePointer<AffineMap>
  let toWorld: UnsafeMutablePointer<AffineMap>
  let fromWorld: UnsafeMutablePointer<AffineMap>
  let worldBox: UnsafeMutablePointer<Box>
  let guardRow: UnsafeMutablePointer<Int32>
  let projectiveFromParent: UnsafeMutablePointer<Homography>
  let projectiveToWorld: UnsafeMutablePointer<Homography>
  let projectiveFromWorld: UnsafeMutablePointer<Homography>
  // The builder's (per model layer, except clipRow: per row).
  let leanLevel: UnsafeMutablePointer<Bool>
  let presentValues: UnsafeMutablePointer<LeanValues>
  let linearInverse: UnsafeMutablePointer<LinearInverse>
  let localFlags: UnsafeMutablePointer<UInt8>
  let localBounds: UnsafeMutablePointer<Box>
  let levelMap: UnsafeMutablePointer<AffineMap>
  let levelInverse: UnsafeMutablePointer<AffineMap>
  let levelHomography: UnsafeMutablePointer<Homography>
  let levelHomographyInverse: UnsafeMutablePointer<Homography>
  let clipRow: UnsafeMutablePointer<Int32>
  // The scene's.
  let affineTransform: UnsafeMutablePointer<AffineMap>
  let bits: UnsafeMutablePointer<CompiledScene.Bits>
  let rules: AdmissionRules
  let world: Bool

  init(_ b: PresentationFrameBuilder, _ columns: FrameColumns) {
    let f = b.frame
    layer = f._layer.baseAddress!
    parent = f._parent.baseAddress!
    flags = f._flags.baseAddress!
    bounds = f._bounds.baseAddress!
    fromParent = f._fromParent.baseAddress!
    toWorld = f._toWorld.baseAddress!
    fromWorld = f._fromWorld.baseAddress!
    worldBox = f._worldBox.baseAddress!
    guardRow = f._guardRow.baseAddress!
    projectiveFromParent = f._projectiveFromParent.baseAddress!
    projectiveToWorld = f._projectiveToWorld.baseAddress!
    projectiveFromWorld = f._projectiveFromWorld.baseAddress!
    leanLevel = b.leanLevel.base
    presentValues = b.presentValues.base
    linearInverse = b.linearInverse.base
    localFlags = b.localFlags.base
    localBounds = b.localBounds.base
    levelMap = b.levelMap.base
    levelInverse = b.levelInverse.base
    levelHomography = b.levelHomography.base
    levelHomographyInverse = b.levelHomographyInverse.base
    clipRow = b.clipRow.base
    affineTransform = b.scene.affineTransform.base
    bits = b.scene.bits.base
    rules = b._rules
    world = columns.contains(.world)
  }

  typealias Builder = PresentationFrameBuilder

  /// One row of pass 3: flags, world maps (affine, or homographies below a projective level),
  /// the degenerate check, and with `FrameColumns.world` the map from the world, the guard row
  /// and the world box clipped by the nearest clipping ancestor.
  @inline(__always)
  func compose(_ r: Int) {
    let m = Int(layer[r].rawValue)
    let pr = Int(parent[r])
    // The layer's own level: a lean layer derives it from its numbers (cheaper than storing
    // and reloading it); a general one has it stored by pass 1.
    let lf: UInt8
    let levelMapM: AffineMap
    let levelInverseM: AffineMap
    let box: Box
    if leanLevel[m] {
      (levelMapM, levelInverseM, lf, box) = _leanLevel(m)
    } else {
      lf = localFlags[m]
      levelMapM = levelMap[m]
      levelInverseM = levelInverse[m]
      box = localBounds[m]
    }
    let parentFlags = pr < 0 ? PresentationFrame.Flags.reachable : flags[pr]
    let levelProjective = lf & Builder.localProjective != 0
    let worldProjective = levelProjective || parentFlags.contains(.worldProjective)
    var rowFlags = PresentationFrame.Flags(rawValue: 0)
    if lf & Builder.localHidden != 0 { rowFlags.insert(.hidden) }
    if lf & (Builder.localHidden | Builder.localAdmitted) == 0 { rowFlags.insert(.notInteractive) }
    if lf & Builder.localClips != 0 { rowFlags.insert(.clips) }
    if levelProjective { rowFlags.insert(.projective) }
    if lf & Builder.localInvertible == 0 { rowFlags.insert(.singular) }
    if worldProjective { rowFlags.insert(.worldProjective) }
    var reachable =
      lf & Builder.localAdmitted != 0 && lf & Builder.localInvertible != 0 && parentFlags.contains(.reachable)

    // Maps.
    if !worldProjective {
      let h = levelMapM
      let tw = pr < 0 ? h : AffineMap.concat(h, toWorld[pr])
      toWorld[r] = tw
      fromParent[r] = levelInverseM
      if reachable && GeometryLimits.isTooDistorted(tw.a, tw.b, tw.c, tw.d) {
        reachable = false
        rowFlags.insert(.degenerate)
      }
      if world { fromWorld[r] = pr < 0 ? levelInverseM : AffineMap.concat(fromWorld[pr], levelInverseM) }
    } else {
      let h = levelProjective ? levelHomography[m] : levelMapM.homography
      let inv = levelProjective ? levelHomographyInverse[m] : levelInverseM.homography
      if levelProjective { projectiveFromParent[r] = inv } else { fromParent[r] = levelInverseM }
      let parentToWorld =
        pr < 0 ? nil : (parentFlags.contains(.worldProjective) ? projectiveToWorld[pr] : toWorld[pr].homography)
      projectiveToWorld[r] = parentToWorld.map { Homography.concat(h, $0) } ?? h
      if world {
        let parentFromWorld =
          pr < 0 ? nil : (parentFlags.contains(.worldProjective) ? projectiveFromWorld[pr] : fromWorld[pr].homography)
        projectiveFromWorld[r] = parentFromWorld.map { Homography.concat($0, inv) } ?? inv
      }
    }
    bounds[r] = box
    let nonEmpty = box.maxX > box.minX && box.maxY > box.minY
    if reachable { rowFlags.insert(.reachable) }
    if reachable && nonEmpty { rowFlags.insert(.hittable) }
    flags[r] = rowFlags
    guard world else { return }

    let guardBits = PresentationFrame.Flags.clips.rawValue | PresentationFrame.Flags.projective.rawValue
    guardRow[r] = pr < 0 ? -1 : (parentFlags.rawValue & guardBits == 0 ? guardRow[pr] : Int32(pr))
    let clip = pr < 0 ? -1 : Int(clipRow[pr])
    var wb = Box.nothing
    if reachable {
      if nonEmpty {
        wb = worldProjective ? _projectiveBox(projectiveToWorld[r], box) : _affineBox(toWorld[r], box)
      }
      if clip >= 0 { wb = wb.intersection(worldBox[clip]) }
    }
    worldBox[r] = wb
    clipRow[r] = rowFlags.contains(.clips) ? Int32(r) : Int32(clip)
  }

  /// A lean layer's level results, from its presentation numbers: the closed-form affine level
  /// map (as `homographyToSuperlayer` computes it for an affine transform under a parent
  /// without sublayerTransform), its inverse (`AffineMap.inverted`, whose linear part and
  /// `1 / det` depend on the transform only and are kept), flags and bounds.
  @inline(__always)
  func _leanLevel(_ m: Int) -> (map: AffineMap, inverse: AffineMap, flags: UInt8, box: Box) {
    let v = UnsafeRawPointer(presentValues + m).assumingMemoryBound(to: Double.self)
    let t = affineTransform[m]
    let b = bits[m]
    let ax = v[2] + v[6] * v[4]
    let ay = v[3] + v[7] * v[5]
    let map = AffineMap(
      a: t.a, b: t.b, c: t.c, d: t.d, tx: -ax * t.a - ay * t.c + t.tx + v[0], ty: -ax * t.b - ay * t.d + t.ty + v[1])
    var flags = rules.flags(hidden: b.contains(.hidden), b, opacity: v[10])
    var inverse = AffineMap.identity
    if let i = linearInverse[m].inverse(of: map) {
      inverse = i
      flags |= Builder.localInvertible
    }
    return (map, inverse, flags, _box(Rect(x: v[2], y: v[3], width: v[4], height: v[5])))
  }

  /// The world box of local bounds under an affine map: the box of the four mapped corners
  /// (the image of a rectangle is their parallelogram), padded by a relative 1e-9 against
  /// rounding; the whole plane when a corner is not finite.
  @inline(__always)
  func _affineBox(_ w: AffineMap, _ b: Box) -> Box {
    let x0 = b.minX * w.a
    let x1 = b.maxX * w.a
    let y0 = b.minY * w.c
    let y1 = b.maxY * w.c
    let u0 = b.minX * w.b
    let u1 = b.maxX * w.b
    let v0 = b.minY * w.d
    let v1 = b.maxY * w.d
    let ax = x0 + y0 + w.tx
    let bx = x1 + y0 + w.tx
    let cx = x1 + y1 + w.tx
    let dx = x0 + y1 + w.tx
    let ay = u0 + v0 + w.ty
    let by = u1 + v0 + w.ty
    let cy = u1 + v1 + w.ty
    let dy = u0 + v1 + w.ty
    return _padded(
      Swift.min(Swift.min(ax, bx), Swift.min(cx, dx)), Swift.min(Swift.min(ay, by), Swift.min(cy, dy)),
      Swift.max(Swift.max(ax, bx), Swift.max(cx, dx)), Swift.max(Swift.max(ay, by), Swift.max(cy, dy)))
  }

  /// The same under a homography: the four corners when all are in front of the viewer (then
  /// the whole rect is, and its image is their convex hull), else the whole plane.
  func _projectiveBox(_ h: Homography, _ b: Box) -> Box {
    guard let a = h.apply(Point(b.minX, b.minY)), let c1 = h.apply(Point(b.maxX, b.minY)),
      let c2 = h.apply(Point(b.maxX, b.maxY)), let d = h.apply(Point(b.minX, b.maxY))
    else { return .everything }
    return _padded(
      Swift.min(Swift.min(a.x, c1.x), Swift.min(c2.x, d.x)), Swift.min(Swift.min(a.y, c1.y), Swift.min(c2.y, d.y)),
      Swift.max(Swift.max(a.x, c1.x), Swift.max(c2.x, d.x)), Swift.max(Swift.max(a.y, c1.y), Swift.max(c2.y, d.y)))
  }

  @inline(__always)
  func _padded(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> Box {
    // One sum times zero is 0 exactly when all four are finite.
    guard (minX * 0 + maxX * 0) + (minY * 0 + maxY * 0) == 0 else { return .everything }
    let padX = (abs(minX) + abs(maxX)) * 1e-9 + 1e-300
    let padY = (abs(minY) + abs(maxY)) * 1e-9 + 1e-300
    return Box(minX: minX - padX, minY: minY - padY, maxX: maxX + padX, maxY: maxY + padY)
  }
}
