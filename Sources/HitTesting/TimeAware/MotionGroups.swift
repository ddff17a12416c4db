import Columns
import LayerModel
import Presentation

/// The scene split into groups that move rigidly, what the time-aware strategies index
/// (docs/time-aware.md). A layer *moves* when its own level can change with time (it has
/// animations, or an animated parent's sublayerTransform reaches it). Each moving layer roots a
/// group: the layers below it up to the next moving layer keep fixed positions in its space, so
/// their boxes there are computed once; group 0 holds the layers with no moving ancestor, in
/// world space, whose rows are pinned in the lazy presentation (evaluated once per scene, not
/// per frame). Per frame, only the groups' own motion needs indexing (a scroll view, not its
/// thousand cells).
///
/// Each group keeps its members sorted by hit-test rank (highest first) and, when it has more
/// than a few, a grid over their boxes in its space. Flat columns, built once per scene change
/// (allocates), read by queries through `View` (no allocation, no reference counting).
///
/// Memory: about 60 bytes per layer.
public final class MotionGroups {
  let scene: CompiledScene
  let semantics: HitTestSemantics
  /// The lazy presentation the queries evaluate candidates with (its fixed rows pinned).
  let lazy: LazyPresentation

  /// Group g's root layer (-1 for the world group, g = 0).
  var root = ColumnBuffer<Int32>()
  /// Group g's members are `members[memberStart[g] ..< memberStart[g + 1]]`, highest rank first;
  /// `memberBox` their boxes in the group's space (aligned with `members`).
  var memberStart = ColumnBuffer<Int32>()
  var members = ColumnBuffer<Int32>()
  var memberBox = ColumnBuffer<Box>()
  /// The hull of group g's member boxes (and the root's own model bounds) in its space.
  var hull = ColumnBuffer<Box>()
  /// The highest rank in group g, root included (static order only).
  var maxRank = ColumnBuffer<Int32>()
  /// The largest `maxRank` of groups 0 ... g: with a static order, a list of groups in
  /// descending index can stop at the first group g with `prefixMaxRank[g]` at or below the
  /// best rank found (no group after it can be above).
  var prefixMaxRank = ColumnBuffer<Int32>()
  /// Group g's member grid (-1: scan the members), its geometry, and where its cells start in
  /// `cellStart` (each grid has its cell count + 1 entries there); `cellEntries` hold member
  /// offsets within the group, highest rank first.
  var gridOf = ColumnBuffer<Int32>()
  var gridGeometry = ColumnBuffer<GridGeometry>()
  var gridCellBase = ColumnBuffer<Int32>()
  var cellStart = ColumnBuffer<Int32>()
  var cellEntries = ColumnBuffer<Int32>()
  /// Group g's root is decided by `LazyPresentation.leanCandidate` (a member-less group whose
  /// root's presentation is its lean numbers under a pinned parent).
  var leanRoot = ColumnBuffer<Bool>()
  /// Group g's lean root is decided by its world box alone wherever its position takes it
  /// (`LazyPresentation.decidesByWorldBox`): where its window's lines are exact, the entry's
  /// bounds decide it (`WindowEntry.exactWithin`).
  var boxAlone = ColumnBuffer<Bool>()
  /// Hit-test rank per layer (the presentation frame's row of the model tree's order).
  var rank = ColumnBuffer<Int32>()
  /// Each layer's group.
  var groupOf = ColumnBuffer<Int32>()
  /// Whether every layer of the world group ranks below every moving group's (a still
  /// background under moving content): with a static order, a query then searches the world
  /// group last, and only when no moving layer holds the point.
  private(set) var worldBelowMoving = false

  /// Groups (the world group included).
  private(set) var count = 1
  /// The moving groups (g >= 1).
  var movingCount: Int { count - 1 }

  /// The layers moving group g holds: its root and its members.
  func layerCount(of g: Int) -> Int { 1 + Int(memberStart[g + 1] - memberStart[g]) }
  /// The scene's `changeVersion` the groups were built for.
  private(set) var version = -1

  /// Groups with more members than this get a grid.
  static let gridThreshold = 8

  init(scene: CompiledScene, semantics: HitTestSemantics) {
    self.scene = scene
    self.semantics = semantics
    lazy = LazyPresentation(scene: scene, semantics: semantics, columns: .all)
    _build()
  }

  /// Rebuilds the groups when the scene changed since they were built; answers whether it did
  /// (then every bound is stale).
  func refresh() -> Bool {
    scene.synchronize()
    guard scene.changeVersion != version else { return false }
    _build()
    return true
  }

  /// Whether layer m's own level can change with time: it is animated (in what the semantics
  /// read: a fade under `calayer` moves nothing), or its parent is and carries a
  /// sublayerTransform context into it (applied about the parent's anchor, so the parent's
  /// animated bounds or anchor move it too).
  func _moves(_ m: Int) -> Bool {
    if scene.animatesHitTesting(m, under: semantics) { return true }
    let p = Int(scene.parent[m])
    guard p >= 0 else { return false }
    let pb = scene.bits[p]
    return scene.animatesHitTesting(p, under: semantics)
      && (pb.contains(.generalAnimations) || pb.contains(.hasSublayerTransform))
  }

  func _build() {
    let n = scene.count
    lazy.prepare(at: 0)
    version = scene.changeVersion
    rank.reserve(n)
    groupOf.reserve(n)
    // Groups: each moving layer roots one; the rest belong to their parent's group.
    var roots: [Int32] = [-1]
    for m in 0..<n {
      rank[m] = lazy.staticRank(m)
      if _moves(m) {
        groupOf[m] = Int32(roots.count)
        roots.append(Int32(m))
      } else {
        groupOf[m] = m == 0 ? 0 : groupOf[Int(scene.parent[m])]
      }
    }
    // The world group's rows hold at every time: pinned, so candidates never evaluate them.
    for m in 0..<n where groupOf[m] == 0 { lazy.pin(m) }
    count = roots.count
    var lists = [[Int32]](repeating: [], count: count)
    for m in 0..<n where !_moves(m) { lists[Int(groupOf[m])].append(Int32(m)) }
    root.reserve(count)
    memberStart.reserve(count + 1)
    members.reserve(n)
    memberBox.reserve(n)
    hull.reserve(count)
    maxRank.reserve(count)
    prefixMaxRank.reserve(count)
    gridOf.reserve(count)
    leanRoot.reserve(count)
    boxAlone.reserve(count)
    var geometries: [GridGeometry] = []
    var cellBases: [Int32] = []
    var starts: [Int32] = []
    var entries: [Int32] = []
    var used = 0
    memberStart[0] = 0
    var prefix: Int32 = -1
    for g in 0..<count {
      root[g] = roots[g]
      var list = lists[g]
      list.sort { rank[Int($0)] > rank[Int($1)] }
      var h = Box.nothing
      var top: Int32 = g == 0 ? -1 : rank[Int(roots[g])]
      let start = used
      for m in list {
        let b = _boxInGroup(Int(m), root: Int(roots[g]))
        members[used] = m
        memberBox[used] = b
        used += 1
        h = h.union(b)
        top = Swift.max(top, rank[Int(m)])
      }
      if g > 0 { h = h.union(_ownBounds(Int(roots[g]))) }
      memberStart[g + 1] = Int32(used)
      hull[g] = h
      maxRank[g] = top
      prefix = Swift.max(prefix, top)
      prefixMaxRank[g] = prefix
      leanRoot[g] = g > 0 && list.isEmpty && lazy.canDecideLean(Int(roots[g]))
      boxAlone[g] = leanRoot[g] && lazy.decidesByWorldBox(Int(roots[g]))
      if list.count > Self.gridThreshold {
        gridOf[g] = Int32(geometries.count)
        let geometry = Self._memberGrid(Array((start..<used).map { memberBox[$0] }), over: h)
        geometries.append(geometry)
        cellBases.append(Int32(starts.count))
        Self._fill(geometry, (start..<used).map { memberBox[$0] }, &starts, &entries)
      } else {
        gridOf[g] = -1
      }
    }
    // A group's root is the lowest of its layers (a layer draws before its sublayers).
    var lowestMoving = Int32.max
    for g in 1..<count { lowestMoving = Swift.min(lowestMoving, rank[Int(roots[g])]) }
    worldBelowMoving = maxRank[0] < lowestMoving
    gridGeometry.reserve(geometries.count)
    gridCellBase.reserve(cellBases.count)
    for (i, geometry) in geometries.enumerated() {
      gridGeometry[i] = geometry
      gridCellBase[i] = cellBases[i]
    }
    cellStart.reserve(starts.count)
    for (i, v) in starts.enumerated() { cellStart[i] = v }
    cellEntries.reserve(entries.count)
    for (i, v) in entries.enumerated() { cellEntries[i] = v }
    _checkInvariants()
  }

  /// A grid over a group's member boxes: cells no smaller than the median box, at most 256 a
  /// side, over the hull.
  static func _memberGrid(_ boxes: [Box], over extent: Box) -> GridGeometry {
    var extents = boxes.filter(\.isFiniteAndNonEmpty).map { Swift.max($0.maxX - $0.minX, $0.maxY - $0.minY) }
    guard !extents.isEmpty, extent.isFiniteAndNonEmpty else { return GridGeometry() }
    extents.sort()
    let side = Swift.max(
      extents[extents.count / 2], Swift.max(extent.maxX - extent.minX, extent.maxY - extent.minY) / 256)
    return GridGeometry(extent: extent, side: side, limit: 256)
  }

  /// A counting sort of `boxes` into the grid's cells (in the given order, so a rank-sorted
  /// list stays sorted), appended to `starts` (cells + 1 entries) and `entries`.
  static func _fill(_ geometry: GridGeometry, _ boxes: [Box], _ starts: inout [Int32], _ entries: inout [Int32]) {
    let cells = geometry.cellCount
    var counts = [Int32](repeating: 0, count: cells)
    for b in boxes where !b.isEmpty {
      let s = geometry.span(of: b)
      for y in s.y0...s.y1 { for x in s.x0...s.x1 { counts[y * geometry.columns + x] += 1 } }
    }
    let base = Int32(entries.count)
    var fill = [Int32](repeating: 0, count: cells)
    var running = base
    for c in 0..<cells {
      starts.append(running)
      fill[c] = running
      running += counts[c]
    }
    starts.append(running)
    entries.append(contentsOf: [Int32](repeating: 0, count: Int(running - base)))
    for (i, b) in boxes.enumerated() where !b.isEmpty {
      let s = geometry.span(of: b)
      for y in s.y0...s.y1 {
        for x in s.x0...s.x1 {
          let c = y * geometry.columns + x
          entries[Int(fill[c])] = Int32(i)
          fill[c] += 1
        }
      }
    }
  }

  /// A layer's model bounds as a box in its own space (for the hull; the root's own box comes
  /// from the motion bounds).
  func _ownBounds(_ m: Int) -> Box {
    let r = scene.modelState(m).bounds
    return r.isNull ? .nothing : Box(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
  }

  /// Member m's box in its group root's space (the world for group 0): its bounds through the
  /// fixed levels between it and the root (`ConservativeBox`); empty when it can never be hit
  /// into; the whole plane when part of it can fall behind the viewer.
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
    guard own.isFiniteAndNonEmpty else { return .nothing }
    guard let inverse = h.inverted else { return .everything }
    return ConservativeBox.projective(h, inverse: inverse, own)
  }

  var memoryFootprint: Int {
    root.memoryFootprint + memberStart.memoryFootprint + members.memoryFootprint + memberBox.memoryFootprint
      + hull.memoryFootprint + maxRank.memoryFootprint + prefixMaxRank.memoryFootprint + gridOf.memoryFootprint
      + gridGeometry.memoryFootprint + gridCellBase.memoryFootprint + cellStart.memoryFootprint
      + cellEntries.memoryFootprint + leanRoot.memoryFootprint + boxAlone.memoryFootprint + rank.memoryFootprint
      + groupOf.memoryFootprint
  }
}
