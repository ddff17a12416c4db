import Columns
import LayerModel
import Presentation

/// A uniform grid of linked lists over a fixed extent, for entries that move one at a time:
/// each entry occupies up to `slots` cells (a node per cell, in a block of its own, so moving
/// it touches only its own nodes); an entry covering more cells goes on an overflow list every
/// lookup visits. A box reaching past the extent is listed in the edge cells it reaches, and a
/// point outside is looked up in the nearest one (`GridGeometry`). Nodes are doubly linked: a
/// move is O(cells it left + cells it entered). No allocation after `reset`.
final class LinkedBoxGrid {
  static let slots = 16
  private(set) var geometry = GridGeometry()
  /// The first node of each cell's list, and of the overflow list (index `cells`); -1: empty.
  var head = ColumnBuffer<Int32>()
  /// Node i belongs to entry i / slots; its cell (-1: unused) and its neighbours.
  var nodeCell = ColumnBuffer<Int32>()
  var next = ColumnBuffer<Int32>()
  var prev = ColumnBuffer<Int32>()
  var cells: Int { geometry.cellCount }

  /// Sizes the grid for `entries` entries over `extent` with cells of about `cellSide` (at
  /// most 128 a side), every entry unplaced.
  func reset(entries: Int, extent: Box, cellSide: Double) {
    let box = extent.isFiniteAndNonEmpty ? extent : Box(minX: 0, minY: 0, maxX: 1, maxY: 1)
    let side = Swift.max(cellSide.isFinite ? cellSide : 0, Swift.max(box.maxX - box.minX, box.maxY - box.minY) / 128)
    geometry = GridGeometry(extent: box, side: side, limit: 128)
    head.reserve(cells + 1, filling: -1)
    let nodes = entries * Self.slots
    nodeCell.reserve(nodes, filling: -1)
    next.reserve(nodes, filling: -1)
    prev.reserve(nodes, filling: -1)
  }

  var memoryFootprint: Int {
    head.memoryFootprint + nodeCell.memoryFootprint + next.memoryFootprint + prev.memoryFootprint
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

  /// Places entry k in the cells its box covers (nowhere when empty; the overflow list when it
  /// covers too many or is not finite).
  func move(_ k: Int, to box: Box) {
    let base = k * Self.slots
    for s in 0..<Self.slots where nodeCell[base + s] >= 0 { _unlink(base + s) }
    guard !box.isEmpty else { return }
    let span = geometry.span(of: box)
    guard box.isFiniteAndNonEmpty, (span.x1 - span.x0 + 1) * (span.y1 - span.y0 + 1) <= Self.slots else {
      _link(base, cells)
      return
    }
    var s = 0
    for y in span.y0...span.y1 {
      for x in span.x0...span.x1 {
        _link(base + s, y * geometry.columns + x)
        s += 1
      }
    }
  }

  /// Writes the entries listed in p's cell and in the overflow list to `out`; answers how many.
  @inline(__always) func entries(at p: Point, into out: UnsafeMutablePointer<Int32>) -> Int {
    guard !p.x.isNaN, !p.y.isNaN else { return 0 }
    let nx = next._unsafeStorage
    var count = 0
    var n = head[geometry.cell(of: p)]
    var overflowNext = true
    while true {
      if n < 0 {
        guard overflowNext else { break }
        overflowNext = false
        n = head[cells]
        continue
      }
      out[count] = n / Int32(Self.slots)
      count &+= 1
      n = nx[Int(n)]
    }
    return count
  }
}
