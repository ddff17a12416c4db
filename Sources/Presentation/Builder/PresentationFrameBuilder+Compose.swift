import LayerModel

extension PresentationFrameBuilder {
  /// Pass 3 over every row: the root, then the top-level subtrees split between threads.
  /// Answers the rows recomputed.
  func _composeAll(_ columns: FrameColumns) -> Int {
    let n = _layerCount
    guard n > 0 else { return 0 }
    _composeRow(0, columns)
    _updateRowSplit()
    var rows = 1
    if let workers = _workers, n >= BuildWorkers.minimumRowsToSplit {
      workers.post(0, .init(kind: .composeAll, lo: rowSplit, hi: n, columns: columns))
      workers.run(for: self) { rows += _composeRows(1..<rowSplit, columns) }
      rows += workers.results[0].rows
    } else {
      rows += _composeRows(1..<n, columns)
    }
    for r in 0..<n { rowChanged[r] = 0 }
    return rows
  }

  /// Pass 3 over the subtrees of the rows pass 1 marked (a marked row recomputes its whole
  /// subtree: every map and box below it depends on its map), split like `_composeAll`.
  /// Answers the rows recomputed.
  func _composeChanged(_ columns: FrameColumns) -> Int {
    let n = _layerCount
    guard n > 0 else { return 0 }
    if rowChanged[0] != 0 { return _composeAll(columns) }
    if let workers = _workers, n >= BuildWorkers.minimumRowsToSplit {
      var rows = 0
      workers.post(0, .init(kind: .composeChanged, lo: rowSplit, hi: n, columns: columns))
      workers.run(for: self) { rows = _composeChangedRows(1..<rowSplit, columns) }
      return rows + workers.results[0].rows
    }
    return _composeChangedRows(1..<n, columns)
  }

  func _composeRows(_ range: Range<Int>, _ columns: FrameColumns) -> Int {
    for r in range { _composeRow(r, columns) }
    return range.count
  }

  /// The marked rows' subtrees within `range` (which is a union of whole subtrees), clearing
  /// the marks. Scans eight marks at a time.
  func _composeChangedRows(_ range: Range<Int>, _ columns: FrameColumns) -> Int {
    let f = frame
    var done = 0
    var r = range.lowerBound
    let end = range.upperBound
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
      let stop = Int(f._subtreeEnd[r])
      for row in r..<stop {
        rowChanged[row] = 0
        _composeRow(row, columns)
      }
      done += stop - r
      r = stop
    }
    return done
  }

  /// The row where the second thread's share of pass 3 starts: the first row of the top-level
  /// subtree (in row order) nearest the middle.
  func _updateRowSplit() {
    let f = frame
    let n = _layerCount
    var r = 1
    var best = n
    var bestDistance = Int.max
    while r < n {
      let d = abs(2 * r - n)
      if d < bestDistance {
        bestDistance = d
        best = r
      }
      r = Int(f._subtreeEnd[r])
    }
    rowSplit = best
  }

  /// One row of pass 3: flags, world maps (affine, or homographies below a projective level),
  /// the degenerate check, and with `FrameColumns.world` the map from the world, the guard row
  /// and the world box clipped by the nearest clipping ancestor.
  @inline(__always)
  func _composeRow(_ r: Int, _ columns: FrameColumns) {
    let f = frame
    let m = Int(f._layer[r].rawValue)
    let pr = Int(f._parent[r])
    // The layer's own level: a lean layer whose numbers changed derives it here (in this tight
    // loop rather than in pass 1) and keeps it; otherwise as stored.
    let lf: UInt8
    let levelMapM: AffineMap
    let levelInverseM: AffineMap
    let box: Box
    if leanLevel[m] && levelDirty[m] != 0 {
      (levelMapM, levelInverseM, lf, box) = _leanLevel(m)
      levelMap[m] = levelMapM
      levelInverse[m] = levelInverseM
      localFlags[m] = lf
      localBounds[m] = box
      levelDirty[m] = 0
    } else {
      lf = localFlags[m]
      levelMapM = levelMap[m]
      levelInverseM = levelInverse[m]
      box = localBounds[m]
    }
    let parentFlags = pr < 0 ? PresentationFrame.Flags.reachable : f._flags[pr]
    let levelProjective = lf & Self.localProjective != 0
    let worldProjective = levelProjective || parentFlags.contains(.worldProjective)
    var flags = PresentationFrame.Flags(rawValue: 0)
    if lf & Self.localHidden != 0 { flags.insert(.hidden) }
    if lf & (Self.localHidden | Self.localAdmitted) == 0 { flags.insert(.notInteractive) }
    if lf & Self.localClips != 0 { flags.insert(.clips) }
    if levelProjective { flags.insert(.projective) }
    if lf & Self.localInvertible == 0 { flags.insert(.singular) }
    if worldProjective { flags.insert(.worldProjective) }
    var reachable =
      lf & Self.localAdmitted != 0 && lf & Self.localInvertible != 0 && parentFlags.contains(.reachable)

    // Maps.
    let world = columns.contains(.world)
    if !worldProjective {
      let h = levelMapM
      let tw = pr < 0 ? h : AffineMap.concat(h, f._toWorld[pr])
      f._toWorld[r] = tw
      f._fromParent[r] = levelInverseM
      if reachable && GeometryLimits.isTooDistorted(tw.a, tw.b, tw.c, tw.d) {
        reachable = false
        flags.insert(.degenerate)
      }
      if world { f._fromWorld[r] = pr < 0 ? levelInverseM : AffineMap.concat(f._fromWorld[pr], levelInverseM) }
    } else {
      let h = levelProjective ? levelHomography[m] : levelMapM.homography
      let inv = levelProjective ? levelHomographyInverse[m] : levelInverseM.homography
      if levelProjective { f._projectiveFromParent[r] = inv } else { f._fromParent[r] = levelInverseM }
      let parentToWorld =
        pr < 0 ? nil : (parentFlags.contains(.worldProjective) ? f._projectiveToWorld[pr] : f._toWorld[pr].homography)
      f._projectiveToWorld[r] = parentToWorld.map { Homography.concat(h, $0) } ?? h
      if world {
        let parentFromWorld =
          pr < 0
          ? nil : (parentFlags.contains(.worldProjective) ? f._projectiveFromWorld[pr] : f._fromWorld[pr].homography)
        f._projectiveFromWorld[r] = parentFromWorld.map { Homography.concat($0, inv) } ?? inv
      }
    }
    f._bounds[r] = box
    let nonEmpty = box.maxX > box.minX && box.maxY > box.minY
    if reachable { flags.insert(.reachable) }
    if reachable && nonEmpty { flags.insert(.hittable) }
    f._flags[r] = flags
    guard world else { return }

    let guardBits = PresentationFrame.Flags.clips.rawValue | PresentationFrame.Flags.projective.rawValue
    f._guardRow[r] = pr < 0 ? -1 : (parentFlags.rawValue & guardBits == 0 ? f._guardRow[pr] : Int32(pr))
    let clip = pr < 0 ? -1 : Int(clipRow[pr])
    var wb = Box.nothing
    if reachable {
      if nonEmpty {
        wb = worldProjective ? _projectiveBox(f._projectiveToWorld[r], box) : _affineBox(f._toWorld[r], box)
      }
      if clip >= 0 { wb = wb.intersection(f._worldBox[clip]) }
    }
    f._worldBox[r] = wb
    clipRow[r] = flags.contains(.clips) ? Int32(r) : Int32(clip)
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
