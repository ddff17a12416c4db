import CPrefetch
import LayerModel

extension PresentationFrameBuilder {
  /// Pass 3 over every row. Answers the rows recomputed.
  func _composeAll(_ columns: FrameColumns) -> Int {
    frame.recomputedEveryRow = true
    frame._changedRunCount = 0
    let n = _layerCount
    guard n > 0 else { return 0 }
    let rows: Int
    if _splits, let workers = _workers {
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
    guard n > 0, rowChanged[0] == 0 else { return _composeAll(columns) }
    let cap = runsPerPart
    let split = splitParts
    if partRunCount.count < split || partRuns.count < split * cap {
      partRuns.reserve(split * cap)
      partRunCount.reserve(split)
      frame._changedRuns.reserve(split * cap)
    }
    let rows: Int
    let parts: Int
    if _splits, let workers = _workers,
      _markedRowsReach(BuildWorkers.minimumChangedRowsToSplit)
    {
      let chain = _composeChains(all: false, columns)
      rows = chain + _runParts(workers, .composeChanged, columns: columns) { _rowPart($0) }.rows
      _clearChains()
      parts = split
    } else {
      inheritedEnd[0] = 0
      rows = _composeChangedRows(0..<n, part: 0, columns)
      parts = 1
    }
    _gatherChangedRuns(parts: parts)
    return rows
  }

  /// Whether the marked rows' subtrees hold at least `count` rows (the scan stops there).
  func _markedRowsReach(_ count: Int) -> Bool {
    let n = _layerCount
    let marks = UnsafeRawPointer(rowChanged._unsafeStorage)
    let subtreeEnd = frame._subtreeEnd
    var rows = 0
    var r = Self._nextMarked(marks, from: 0, before: n)
    while r < n {
      let end = Int(subtreeEnd[r])
      rows += end - r
      if rows >= count { return true }
      r = Self._nextMarked(marks, from: end, before: n)
    }
    return false
  }

  /// Whether row or layer `x`, read after `previous`, is away from it (more than two ahead, or
  /// behind): only then is a prefetch hint worth its instructions. Rows read in order are what
  /// the hardware prefetcher follows, and a dense build (every particle marked) paid about 200
  /// instructions a row in hints.
  @inline(__always)
  static func _isScattered(_ x: Int, after previous: Int) -> Bool {
    x &- previous > 2 || x < previous
  }

  /// The first row in `r ..< end` whose mark (one byte a row in `marks`) is set, or `end`:
  /// eight marks at a time over unmarked stretches.
  @inline(__always)
  static func _nextMarked(_ marks: UnsafeRawPointer, from r: Int, before end: Int) -> Int {
    var r = r
    while r < end {
      if r + 8 <= end && marks.loadUnaligned(fromByteOffset: r, as: UInt64.self) == 0 {
        r += 8
      } else if marks.load(fromByteOffset: r, as: UInt8.self) == 0 {
        r += 1
      } else {
        return r
      }
    }
    return end
  }

  /// The parts' runs, in row order (adjacent runs joined), into the frame's `changedRuns()`;
  /// a part that recorded too many makes the build one that recomputed every row. The runs
  /// cover every row composed, chain rows included: a chain row is composed only under a
  /// marked row, whose part records the run that starts there, and each later part that starts
  /// inside that subtree records it from its start (`inheritedEnd`).
  func _gatherChangedRuns(parts: Int) {
    let f = frame
    let cap = runsPerPart
    var total = 0
    for k in 0..<parts {
      let c = Int(partRunCount[k])
      guard c >= 0 else {
        f.recomputedEveryRow = true
        f._changedRunCount = 0
        return
      }
      for i in 0..<c {
        let run = partRuns[k * cap + i]
        if total > 0 && f._changedRuns[total - 1].end >= run.start {
          var last = f._changedRuns[total - 1]
          last.end = Swift.max(last.end, run.end)
          f._changedRuns[total - 1] = last
        } else {
          f._changedRuns[total] = run
          total += 1
        }
      }
    }
    f.recomputedEveryRow = false
    f._changedRunCount = total
  }

  /// Part k of the rows: equal shares, split at any row.
  @inline(__always) func _rowPart(_ k: Int) -> Range<Int> {
    (k * _layerCount / splitParts)..<((k + 1) * _layerCount / splitParts)
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
    for k in 0..<splitParts {
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
    for k in 1..<splitParts {
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
    if !_splits {
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
  /// split, clearing the marks. Answers the rows composed.
  func _composeChangedRows(_ range: Range<Int>, part: Int, _ columns: FrameColumns) -> Int {
    let f = frame
    let composer = _RowComposer(self, columns)
    let split = _splits
    let chain = chainMark._unsafeStorage
    let marked = rowChanged._unsafeStorage
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
    // The runs composed, for the frame's `changedRuns()` (written in place, not through a
    // nested function: see above).
    let cap = runsPerPart
    let runs = partRuns._unsafeStorage + part * cap
    var runCount = 0
    let inherited = Swift.min(inheritedEnd[part], end)
    if inherited > r {
      done += composeRun(r, inherited)
      runs[0] = RowRun(start: Int32(r), end: Int32(inherited))
      runCount = 1
      r = inherited
    }
    let marks = UnsafeRawPointer(rowChanged._unsafeStorage)
    let subtreeEnd = f._subtreeEnd
    // In batches, so that cold cache lines are waited for together, not one by one: the rows
    // of a sparse build are scattered and, after a frame interval asleep, not in cache.
    // 1. the next `batchMarks` marks (a sequential scan), their subtree ends and layers
    //    prefetched; 2. their subtrees (a mark inside an earlier one's subtree is skipped),
    //    each one's rows prefetched; 3. composed. Only scattered marks and runs get hints
    //    (`_isScattered`).
    let batchMarks = 32
    return withUnsafeTemporaryAllocation(of: RowRun.self, capacity: batchMarks) { batch in
      var stop = r
      var lastMark = r - 3  // the first mark gets its hints
      while r < end {
        var found = 0
        while found < batchMarks {
          r = Self._nextMarked(marks, from: r, before: end)
          guard r < end else { break }
          if Self._isScattered(r, after: lastMark) {
            hitbench_prefetch_read(subtreeEnd.baseAddress! + r)
            composer.prefetchHead(r)
          }
          lastMark = r
          batch[found] = RowRun(start: Int32(r), end: Int32(r))
          found += 1
          r += 1
        }
        var runsFound = 0
        for k in 0..<found {
          let q = Int(batch[k].start)
          guard q >= stop else { continue }
          let runEnd = Swift.min(Int(subtreeEnd[q]), end)
          if Self._isScattered(q, after: stop) { composer.prefetch(q, Swift.min(runEnd, q + 8)) }
          stop = runEnd
          batch[runsFound] = RowRun(start: Int32(q), end: Int32(stop))
          runsFound += 1
        }
        for k in 0..<runsFound {
          let run = batch[k]
          done += composeRun(Int(run.start), Int(run.end))
          if runCount < cap { runs[runCount] = run }
          runCount += 1
        }
        r = Swift.max(r, stop)
      }
      partRunCount[part] = runCount > cap ? -1 : Int32(runCount)
      return done
    }
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
  let localFlags: UnsafeMutablePointer<UInt8>
  let localBounds: UnsafeMutablePointer<Box>
  let levelMap: UnsafeMutablePointer<AffineMap>
  let levelInverse: UnsafeMutablePointer<AffineMap>
  let levelHomography: UnsafeMutablePointer<Homography>
  let levelHomographyInverse: UnsafeMutablePointer<Homography>
  let clipRow: UnsafeMutablePointer<Int32>
  // The scene's.
  let affineSlot: UnsafeMutablePointer<Int32>
  let affineParts: UnsafeMutablePointer<AffinePart>
  let bits: UnsafeMutablePointer<CompiledScene.Bits>
  let rules: AdmissionRules
  let world: Bool
  /// Injected faults (verification self-tests only; `faulty` is false otherwise).
  let faults: InjectedFaults
  let faulty: Bool

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
    leanLevel = b.leanLevel._unsafeStorage
    presentValues = b.presentValues._unsafeStorage
    localFlags = b.localFlags._unsafeStorage
    localBounds = b.localBounds._unsafeStorage
    levelMap = b.levelMap._unsafeStorage
    levelInverse = b.levelInverse._unsafeStorage
    levelHomography = b.levelHomography._unsafeStorage
    levelHomographyInverse = b.levelHomographyInverse._unsafeStorage
    clipRow = b.clipRow._unsafeStorage
    affineSlot = b.scene.affineSlot._unsafeStorage
    affineParts = b.scene.affineParts._unsafeStorage
    bits = b.scene.bits._unsafeStorage
    rules = b._rules
    world = columns.contains(.world)
    faults = b.scene._faults
    faulty = faults.changesRows
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
    var lf: UInt8
    var levelMapM: AffineMap
    var levelInverseM: AffineMap
    var box: Box
    if leanLevel[m] {
      (levelMapM, levelInverseM, lf, box) = _leanLevel(m)
    } else {
      lf = localFlags[m]
      levelMapM = levelMap[m]
      levelInverseM = levelInverse[m]
      box = localBounds[m]
    }
    if faulty { _inject(m, &levelMapM, &levelInverseM, &lf, &box) }
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
      var h = levelProjective ? levelHomography[m] : levelMapM.homography
      var inv = levelProjective ? levelHomographyInverse[m] : levelInverseM.homography
      if faulty && levelProjective && m == faults.shiftLayer {
        h = Homography.concat(h, .translation(faults.shift, faults.shift))
        inv = Homography.concat(.translation(-faults.shift, -faults.shift), inv)
      }
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
        wb =
          worldProjective
          ? ConservativeBox.projective(projectiveToWorld[r], inverse: projectiveFromWorld[r], box)
          : ConservativeBox.affine(toWorld[r], inverse: fromWorld[r], box)
      }
      if clip >= 0 { wb = wb.intersection(worldBox[clip]) }
    }
    worldBox[r] = wb
    clipRow[r] = rowFlags.contains(.clips) ? Int32(r) : Int32(clip)
  }

  /// Prefetches a marked row's layer and parent, which `prefetch(_:_:)` then reads (a hint, as
  /// below).
  @inline(__always)
  func prefetchHead(_ r: Int) {
    hitbench_prefetch_read(layer + r)
    hitbench_prefetch_read(parent + r)
  }

  /// Prefetches what composing rows `lo ..< hi` reads and writes on the lean path (and the
  /// parent row's maps and the clip row's box, which the first row reads): a hint, no result
  /// depends on it.
  @inline(__always)
  func prefetch(_ lo: Int, _ hi: Int) {
    let pr = Int(parent[lo])
    if pr >= 0 {
      hitbench_prefetch_read(toWorld + pr)
      if world {
        hitbench_prefetch_read(fromWorld + pr)
        let clip = Int(clipRow[pr])
        if clip >= 0 { hitbench_prefetch_read(worldBox + clip) }
      }
    }
    for r in lo..<hi {
      let m = Int(layer[r].rawValue)
      hitbench_prefetch_read(presentValues + m)
      hitbench_prefetch_read(UnsafeRawPointer(presentValues + m) + 64)
      hitbench_prefetch_read(affineSlot + m)
      hitbench_prefetch_read(bits + m)
      hitbench_prefetch_read(leanLevel + m)
      hitbench_prefetch_write(toWorld + r)
      hitbench_prefetch_write(fromParent + r)
      hitbench_prefetch_write(bounds + r)
      hitbench_prefetch_write(flags + r)
      if world {
        hitbench_prefetch_write(fromWorld + r)
        hitbench_prefetch_write(worldBox + r)
        hitbench_prefetch_write(guardRow + r)
        hitbench_prefetch_write(clipRow + r)
      }
    }
  }

  /// Applies the injected faults to layer m's level results: its hit region shrunk, its map into
  /// its parent translated (the inverse with it), a flag flipped.
  func _inject(_ m: Int, _ map: inout AffineMap, _ inverse: inout AffineMap, _ lf: inout UInt8, _ box: inout Box) {
    let d = faults.shrinkHitRegions
    if d > 0 {
      box = Box(minX: box.minX + d, minY: box.minY + d, maxX: box.maxX - d, maxY: box.maxY - d)
    }
    if m == faults.shiftLayer {
      let s = faults.shift
      map.tx += s
      map.ty += s
      // inverse(p - (s, s)).
      inverse.tx -= s * (inverse.a + inverse.c)
      inverse.ty -= s * (inverse.b + inverse.d)
    }
    if m == faults.flagLayer {
      switch faults.flag {
      case .hidden:
        if lf & Builder.localHidden != 0 {
          lf &= ~Builder.localHidden
          lf |= Builder.localAdmitted
        } else {
          lf |= Builder.localHidden
          lf &= ~Builder.localAdmitted
        }
      case .masksToBounds: lf ^= Builder.localClips
      }
    }
  }

  /// A lean layer's level results, from its presentation numbers (`LeanLevel`).
  @inline(__always)
  func _leanLevel(_ m: Int) -> (map: AffineMap, inverse: AffineMap, flags: UInt8, box: Box) {
    let part = affineParts + Int(affineSlot[m])
    return LeanLevel.compute(
      UnsafeRawPointer(presentValues + m).assumingMemoryBound(to: Double.self), transform: part.pointee.transform,
      bits: bits[m], rules: rules, inverse: part.pointee.inverse)
  }
}

/// A lean layer's level results from its 11 presentation numbers: the closed-form affine level
/// map (as `homographyToSuperlayer` computes it for an affine transform under a parent without
/// sublayerTransform), its inverse (`AffineMap.inverted` in two steps: `LinearInverse`), local
/// flags and bounds. The one computation pass 3 and the time-aware strategies' per-candidate
/// evaluation share, so both give the same bits.
enum LeanLevel {
  @inline(__always)
  static func compute(
    _ v: UnsafePointer<Double>, transform t: AffineMap, bits b: CompiledScene.Bits, rules: AdmissionRules,
    inverse linear: LinearInverse
  ) -> (map: AffineMap, inverse: AffineMap, flags: UInt8, box: Box) {
    compute(UnsafeRawPointer(v).load(as: LeanValues.self), transform: t, bits: b, rules: rules, inverse: linear)
  }

  @inline(__always)
  static func compute(
    _ values: LeanValues, transform t: AffineMap, bits b: CompiledScene.Bits, rules: AdmissionRules,
    inverse linear: LinearInverse
  ) -> (map: AffineMap, inverse: AffineMap, flags: UInt8, box: Box) {
    let v = values.v
    let ax = v[2] + v[6] * v[4]
    let ay = v[3] + v[7] * v[5]
    let map = AffineMap(
      a: t.a, b: t.b, c: t.c, d: t.d, tx: -ax * t.a - ay * t.c + t.tx + v[0], ty: -ax * t.b - ay * t.d + t.ty + v[1])
    var flags = rules.flags(hidden: b.contains(.hidden), b, opacity: v[10])
    var inverse = AffineMap.identity
    if let i = linear.inverse(of: map) {
      inverse = i
      flags |= PresentationFrameBuilder.localInvertible
    }
    return (map, inverse, flags, _box(Rect(x: v[2], y: v[3], width: v[4], height: v[5])))
  }
}
