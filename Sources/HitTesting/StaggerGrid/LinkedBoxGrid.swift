import Columns
import LayerModel
import Presentation

/// Uniform grids of linked lists over a fixed extent, one per level (cells four times wider at
/// each level), for entries that move one at a time: each entry occupies up to `slots` cells of
/// the finest level where its box covers that few (a node per cell, in a block of its own, so
/// moving it touches only its own nodes); the coarsest level is one cell wide or at most
/// `levelLimit` levels up, and an entry that fits none (or is not finite) goes on an overflow
/// list every lookup visits. Levels keep a box that grows with its window out of the overflow
/// list: a lookup reads one cell per level. A box reaching past the extent is listed in the edge
/// cells it reaches, and a point outside is looked up in the nearest one (`GridGeometry`).
/// Nodes are doubly linked: a move is O(levels + cells it left + cells it entered). No
/// allocation after `reset`.
final class LinkedBoxGrid {
  static let slots = 16
  static let levelLimit = 6
  /// Each level's geometry and the index of its first cell in `head`.
  var geometry = ColumnBuffer<GridGeometry>()
  var levelStart = ColumnBuffer<Int>()
  private(set) var levels = 0
  /// The first node of each cell's list (levels one after another), and of the overflow list
  /// (index `cells`); -1: empty.
  var head = ColumnBuffer<Int32>()
  /// Node i belongs to entry i / slots; its cell (-1: unused) and its neighbours.
  var nodeCell = ColumnBuffer<Int32>()
  var next = ColumnBuffer<Int32>()
  var prev = ColumnBuffer<Int32>()
  private(set) var cells = 0

  /// Sizes the grid for `entries` entries over `extent` with finest cells of about `cellSide`
  /// (at most 128 a side), every entry unplaced.
  func reset(entries: Int, extent: Box, cellSide: Double) {
    let box = extent.isFiniteAndNonEmpty ? extent : Box(minX: 0, minY: 0, maxX: 1, maxY: 1)
    let wide = Swift.max(box.maxX - box.minX, box.maxY - box.minY)
    var side = Swift.max(cellSide.isFinite ? cellSide : 0, wide / 128)
    geometry.reserve(Self.levelLimit)
    levelStart.reserve(Self.levelLimit + 1)
    levels = 0
    cells = 0
    while levels < Self.levelLimit {
      let g = GridGeometry(extent: box, side: side, limit: 128)
      geometry[levels] = g
      levelStart[levels] = cells
      cells += g.cellCount
      levels += 1
      if g.cellCount == 1 { break }
      side *= 4
    }
    levelStart[levels] = cells
    head.reserve(cells + 1, filling: -1)
    let nodes = entries * Self.slots
    nodeCell.reserve(nodes, filling: -1)
    next.reserve(nodes, filling: -1)
    prev.reserve(nodes, filling: -1)
  }

  /// The finest level where b covers at most `slots` cells, with its span; nil when none does
  /// or b is not finite (the overflow list).
  @inline(__always) func _level(of b: Box) -> (level: Int, span: (x0: Int, y0: Int, x1: Int, y1: Int))? {
    guard b.isFiniteAndNonEmpty else { return nil }
    for k in 0..<levels {
      let span = geometry[k].span(of: b)
      if (span.x1 - span.x0 + 1) * (span.y1 - span.y0 + 1) <= Self.slots { return (k, span) }
    }
    return nil
  }

  var memoryFootprint: Int {
    head.memoryFootprint + nodeCell.memoryFootprint + next.memoryFootprint + prev.memoryFootprint
      + geometry.memoryFootprint + levelStart.memoryFootprint
  }

  @inline(__always) func _unlink(_ node: Int) {
    let n = next[node]
    let p = prev[node]
    let c = Int(nodeCell[node])
    if p >= 0 { next[Int(p)] = n } else { head[c] = n }
    if n >= 0 { prev[Int(n)] = p }
    nodeCell[node] = -1
  }

  @inline(__always) func _link(_ node: Int, _ c: Int) {
    let h = head[c]
    next[node] = h
    prev[node] = -1
    if h >= 0 { prev[Int(h)] = Int32(node) }
    head[c] = Int32(node)
    nodeCell[node] = Int32(c)
  }

  /// Places entry k in the cells its box covers at its level (nowhere when empty; the overflow
  /// list when no level holds it or it is not finite).
  func move(_ k: Int, to box: Box) {
    let base = k * Self.slots
    for s in 0..<Self.slots where nodeCell[base + s] >= 0 { _unlink(base + s) }
    guard !box.isEmpty else { return }
    guard let (level, span) = _level(of: box) else {
      _link(base, cells)
      return
    }
    let g = geometry[level]
    let first = levelStart[level]
    var s = 0
    for y in span.y0...span.y1 {
      for x in span.x0...span.x1 {
        _link(base + s, first + y * g.columns + x)
        s += 1
      }
    }
  }

  /// Offers the entries listed in p's cell of every level and in the overflow list whose boxes
  /// (`boxes`, by entry: what each is listed by; one for every entry placed) hold p, until the visitor answers false;
  /// answers how many entries it looked at. A coarse level's cell lists many entries far from
  /// the point: the box test passes them over before the search reads anything of theirs.
  @inline(__always) func visit<Visitor: MotionIndexVisitor>(
    _ p: Point, boxes: UnsafeBufferPointer<Box>, _ visitor: inout Visitor
  ) -> Int {
    guard !p.x.isNaN, !p.y.isNaN else { return 0 }
    let nx = next._unsafeStorage
    let hd = head._unsafeStorage
    let geo = geometry._unsafeStorage
    let first = levelStart._unsafeStorage
    var count = 0
    var level = 0
    while level <= levels {
      var n = level < levels ? hd[first[level] + geo[level].cell(of: p)] : hd[cells]
      level &+= 1
      while n >= 0 {
        count &+= 1
        let e = n / Int32(Self.slots)
        if boxes[Int(e)].holds(p) && !visitor.offer(e) { return count }
        n = nx[Int(n)]
      }
    }
    return count
  }
}
