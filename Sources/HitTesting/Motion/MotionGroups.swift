import LayerModel
import Presentation

/// The scene split into groups that move rigidly, what the time-aware strategies index
/// (docs/time-aware.md). A layer *moves* when its own level can change with time (it has
/// animations, or an animated parent's sublayerTransform reaches it). Each moving layer roots a
/// group: the layers below it up to the next moving layer keep fixed positions in its space, so
/// their boxes there are computed once; group 0 holds the layers with no moving ancestor, in
/// world space. Per frame, only the groups' own motion needs indexing (a scroll view, not its
/// thousand cells).
///
/// Each group keeps its members sorted by hit-test rank (highest first) and, when it has more
/// than a few, a static grid over their boxes in its space. A query asks the world group's
/// grid, then each group whose window box (from `MotionBounds`) holds the point: the point is
/// mapped into the group's space at t, its grid gives the members whose boxes hold it, and each
/// candidate's exact test runs on its lazily evaluated rows (`LazyPresentation`), highest rank
/// first; the first to pass wins (with a static order; otherwise every candidate is tested and
/// the top-most kept by `isAbove`).
///
/// Memory: O(layers). Built once per scene (allocates); queries and per-window work allocate
/// nothing.
final class MotionGroups {
  let scene: CompiledScene
  let semantics: HitTestSemantics
  let lazy: LazyPresentation
  let motion: MotionBounds

  /// Group g's root layer (-1 for the world group, g = 0).
  var root: [Int32] = []
  /// Group g's members are `members[memberStart[g] ..< memberStart[g + 1]]`, highest rank first;
  /// `memberBox` their boxes in the group's space (aligned with `members`).
  var memberStart: [Int32] = []
  var members: [Int32] = []
  var memberBox: [Box] = []
  /// The hull of group g's member boxes (and the root's own bounds) in its space.
  var hull: [Box] = []
  /// The highest rank in group g, root included (static order only).
  var maxRank: [Int32] = []
  /// The largest `maxRank` of groups 0 ... g: with a static order, a list of groups in
  /// descending index can stop at the first group g with `prefixMaxRank[g]` at or below the
  /// best rank found (no group after it can be above).
  var prefixMaxRank: [Int32] = []
  /// Static grids of the larger groups (`gridOf[g]`, -1: scan the members).
  var gridOf: [Int32] = []
  var grids: [StaticGrid] = []
  /// Hit-test rank per layer (the presentation frame's row), when the order is static.
  var rank: [Int32] = []

  /// The moving groups (g >= 1).
  var movingCount: Int { root.count - 1 }
  /// The scene's `changeVersion` the groups were built for.
  var version = -1

  /// Rebuilds the groups when the scene changed since they were built; answers whether it did
  /// (then every window box is stale).
  func refresh() -> Bool {
    scene.synchronize()
    guard scene.changeVersion != version else { return false }
    _build()
    return true
  }

  init(scene: CompiledScene, semantics: HitTestSemantics) {
    self.scene = scene
    self.semantics = semantics
    lazy = LazyPresentation(scene: scene, semantics: semantics, columns: .all)
    motion = MotionBounds(scene: scene, semantics: semantics)
    _build()
  }

  /// Whether layer m's own level can change with time: it is animated, or its parent is and
  /// carries a sublayerTransform context into it (applied about the parent's anchor, so the
  /// parent's animated bounds or anchor move it too).
  func _moves(_ m: Int) -> Bool {
    let b = scene.bits[m]
    if b.contains(.animated) { return true }
    let p = Int(scene.parent[m])
    guard p >= 0 else { return false }
    let pb = scene.bits[p]
    return pb.contains(.animated) && (pb.contains(.generalAnimations) || pb.contains(.hasSublayerTransform))
  }

  func _build() {
    let n = scene.count
    lazy.prepare(at: 0)
    version = scene.changeVersion
    // Ranks: the static order's rows (the model tree's order keys).
    rank = (0..<n).map { lazy.staticRank($0) }
    // Groups: each moving layer roots one; the rest belong to their parent's group.
    var groupOf = [Int32](repeating: 0, count: n)
    root = [-1]
    for m in 0..<n {
      if _moves(m) {
        groupOf[m] = Int32(root.count)
        root.append(Int32(m))
      } else {
        groupOf[m] = m == 0 ? 0 : groupOf[Int(scene.parent[m])]
      }
    }
    let groups = root.count
    var lists = [[Int32]](repeating: [], count: groups)
    for m in 0..<n where !_moves(m) { lists[Int(groupOf[m])].append(Int32(m)) }
    memberStart = [0]
    members = []
    memberBox = []
    hull = []
    maxRank = []
    prefixMaxRank = []
    gridOf = []
    grids = []
    for g in 0..<groups {
      var list = lists[g]
      list.sort { rank[Int($0)] > rank[Int($1)] }
      var h = Box.nothing
      var top: Int32 = g == 0 ? -1 : rank[Int(root[g])]
      let start = members.count
      for m in list {
        let b = _boxInGroup(Int(m), root: Int(root[g]))
        members.append(m)
        memberBox.append(b)
        h = _hull(h, b)
        top = Swift.max(top, rank[Int(m)])
      }
      if g > 0 { h = _hull(h, _ownBounds(Int(root[g]))) }
      memberStart.append(Int32(members.count))
      hull.append(h)
      maxRank.append(top)
      prefixMaxRank.append(Swift.max(top, prefixMaxRank.last ?? -1))
      let count = members.count - start
      if count > 8 {
        gridOf.append(Int32(grids.count))
        grids.append(StaticGrid(boxes: Array(memberBox[start..<members.count]), over: h))
      } else {
        gridOf.append(-1)
      }
    }
  }

  func _hull(_ a: Box, _ b: Box) -> Box {
    if a.isEmpty { return b }
    if b.isEmpty { return a }
    return Box(
      minX: Swift.min(a.minX, b.minX), minY: Swift.min(a.minY, b.minY), maxX: Swift.max(a.maxX, b.maxX),
      maxY: Swift.max(a.maxY, b.maxY))
  }

  /// A layer's model bounds as a box in its own space (a union of every value its bounds can
  /// take is what the moving root's own box needs: taken from the motion bounds' window box
  /// instead; this is only the model value, for the hull).
  func _ownBounds(_ m: Int) -> Box {
    let r = scene.modelState(m).bounds
    return r.isNull ? .nothing : Box(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
  }

  /// Member m's box in its group root's space (the world for group 0): its bounds through the
  /// fixed levels between it and the root, padded; empty when it can never be hit into; the
  /// whole plane when part of it can fall behind the viewer.
  func _boxInGroup(_ m: Int, root r: Int) -> Box {
    let f = lazy.frame
    lazy.ensure(m)
    if r < 0 { return f.worldBox[m] }
    // The product of the levels from m up to (not including) the root: fixed, so the model's.
    var h = Homography.identity
    var a = m
    while a != r {
      let p = Int(scene.parent[a])
      let parentState: LayerState? =
        scene.bits[p].contains(.hasSublayerTransform) ? scene.modelState(p) : nil
      h = Homography.concat(h, scene.modelState(a).homographyToSuperlayer(parent: parentState))
      a = p
    }
    let own = _ownBounds(m)
    guard !own.isEmpty, own.minX.isFinite, own.minY.isFinite, own.maxX.isFinite, own.maxY.isFinite else {
      return .nothing
    }
    guard let inverse = h.inverted else { return .everything }
    return ConservativeBox.projective(h, inverse: inverse, own)
  }

  /// Group g's window box: where its root and members can be over the window last computed by
  /// `motion` for the root.
  func windowBox(_ g: Int) -> Box {
    let r = Int(root[g])
    let own = motion.box(r)
    return _hull(own, motion.region(of: r, local: hull[g]))
  }

  // MARK: Queries

  /// The search state of one query: the best candidate so far.
  struct Best {
    var layer = -1
    var rank: Int32 = -1
  }

  /// Tests group g's members (and with `includeRoot` its root) for world point p, updating
  /// `best`. Counts candidates tested into `candidates`.
  @inline(__always)
  func query<Counter: WorkCounter>(
    group g: Int, _ p: Point, _ best: inout Best, candidates: inout Int, counter: inout Counter
  ) {
    let f = lazy.frame
    let ordered = lazy.orderIsStatic
    if ordered && maxRank[g] <= best.rank { return }
    var q = p
    // How far the conversion into the group's space can be off: member boxes are widened by
    // it (the members' exact tests convert the world point with maps of their own).
    var error = (x: 0.0, y: 0.0)
    if g > 0 {
      let r = Int(root[g])
      lazy.ensure(r)
      if !ordered || rank[r] > best.rank {
        candidates &+= 1
        if f.isCandidate(r, p) { _take(r, &best) }
      }
      guard let local = f._fromWorldWithError(r, p) else { return }
      q = local.point
      error = local.error
    }
    let start = Int(memberStart[g])
    let end = Int(memberStart[g + 1])
    // (A method rather than a nested function: one capturing these inout values allocated a
    // context per call.)
    let grid = Int(gridOf[g])
    if grid >= 0, let cell = grids[grid].cell(of: q, within: error) {
      for k in grids[grid].entries(cell)
      where !_consider(start + Int(k), q, error, p, ordered, &best, &candidates, &counter) {
        return
      }
    } else {
      // No grid, or the point's uncertainty straddles cells: every member.
      var i = start
      while i < end {
        if !_consider(i, q, error, p, ordered, &best, &candidates, &counter) { return }
        i &+= 1
      }
    }
  }

  /// Member i as a candidate for world point p (q in its group's space): answers whether the
  /// search goes on (with a static order, not after a hit: ranks only decrease along a list).
  @inline(__always)
  func _consider<Counter: WorkCounter>(
    _ i: Int, _ q: Point, _ error: (x: Double, y: Double), _ p: Point, _ ordered: Bool, _ best: inout Best,
    _ candidates: inout Int, _ counter: inout Counter
  ) -> Bool {
    counter.tested(1)
    let m = Int(members[i])
    if ordered && rank[m] <= best.rank { return false }
    let b = memberBox[i]
    guard q.x >= b.minX - error.x && q.x <= b.maxX + error.x && q.y >= b.minY - error.y && q.y <= b.maxY + error.y
    else { return true }
    candidates &+= 1
    lazy.ensure(m)
    if lazy.frame.isCandidate(m, p) {
      _take(m, &best)
      return !ordered
    }
    return true
  }

  @inline(__always) func _take(_ m: Int, _ best: inout Best) {
    if best.layer < 0 || (lazy.orderIsStatic ? rank[m] > best.rank : lazy.isAbove(m, best.layer)) {
      best.layer = m
      best.rank = rank[m]
    }
  }
}

/// A uniform grid over fixed boxes, built once: each cell lists the boxes overlapping it in
/// their given order (so a list sorted by rank stays sorted). Boxes too large for the cell cap
/// are listed in every cell they touch up to the cap, the rest in an overflow list scanned for
/// every query... kept simple: cells are sized so the median box spans about one cell.
struct StaticGrid {
  var originX = 0.0
  var originY = 0.0
  var inverseSide = 1.0
  var columns = 1
  var rows = 1
  var cellStart: [Int32] = [0, 0]
  var entries: [Int32] = []

  init(boxes: [Box], over extent: Box) {
    let finite = boxes.filter {
      !$0.isEmpty && $0.minX.isFinite && $0.maxX.isFinite && $0.minY.isFinite && $0.maxY.isFinite
    }
    guard !finite.isEmpty, !extent.isEmpty, extent.minX.isFinite, extent.maxX.isFinite, extent.minY.isFinite,
      extent.maxY.isFinite
    else {
      // Nothing finite to grid: one cell listing every box.
      cellStart = [0, Int32(boxes.count)]
      entries = (0..<boxes.count).map { Int32($0) }
      return
    }
    var extents = finite.map { Swift.max($0.maxX - $0.minX, $0.maxY - $0.minY) }
    extents.sort()
    let w = extent.maxX - extent.minX
    let h = extent.maxY - extent.minY
    // At least the median extent, and at most 256 x 256 cells.
    let side = Swift.max(extents[extents.count / 2], Swift.max(w, h) / 256, 1e-9)
    originX = extent.minX
    originY = extent.minY
    inverseSide = 1 / side
    columns = _cellCount(w * inverseSide, limit: 256)
    rows = _cellCount(h * inverseSide, limit: 256)
    let cells = columns * rows
    var counts = [Int32](repeating: 0, count: cells + 1)
    func span(_ b: Box) -> (Int, Int, Int, Int) {
      if b.isEmpty { return (1, 0, 1, 0) }
      return (
        _clampedCell(b.minX, originX, columns), _clampedCell(b.maxX, originX, columns),
        _clampedCell(b.minY, originY, rows), _clampedCell(b.maxY, originY, rows)
      )
    }
    for b in boxes {
      let (x0, x1, y0, y1) = span(b)
      if x0 > x1 { continue }
      for y in y0...y1 { for x in x0...x1 { counts[y * columns + x] += 1 } }
    }
    cellStart = [Int32](repeating: 0, count: cells + 1)
    for c in 0..<cells { cellStart[c + 1] = cellStart[c] + counts[c] }
    var fill = Array(cellStart[0..<cells])
    entries = [Int32](repeating: 0, count: Int(cellStart[cells]))
    for (i, b) in boxes.enumerated() {
      let (x0, x1, y0, y1) = span(b)
      if x0 > x1 { continue }
      for y in y0...y1 {
        for x in x0...x1 {
          let c = y * columns + x
          entries[Int(fill[c])] = Int32(i)
          fill[c] += 1
        }
      }
    }
  }

  /// The column (or row) of a coordinate, clamped into the grid (boxes beyond the extent go to
  /// the edge cells; an infinite coordinate to the far edge).
  func _clampedCell(_ v: Double, _ origin: Double, _ count: Int) -> Int {
    let c = (v - origin) * inverseSide
    guard c >= 0 else { return 0 }
    guard c < Double(count) else { return count - 1 }
    return Int(c)
  }

  /// The cell holding every point within `error` of q (the nearest cell for a point outside the
  /// grid: boxes beyond the extent are in the edge cells), or nil when they straddle cells (or q
  /// is not a number): then the caller tests every box.
  @inline(__always) func cell(of q: Point, within error: (x: Double, y: Double)) -> Int? {
    guard !q.x.isNaN, !q.y.isNaN else { return nil }
    let x0 = _clampedCell(q.x - error.x, originX, columns)
    let y0 = _clampedCell(q.y - error.y, originY, rows)
    guard x0 == _clampedCell(q.x + error.x, originX, columns), y0 == _clampedCell(q.y + error.y, originY, rows)
    else { return nil }
    return y0 * columns + x0
  }

  @inline(__always) func entries(_ cell: Int) -> ArraySlice<Int32> {
    entries[Int(cellStart[cell])..<Int(cellStart[cell + 1])]
  }
}
