import LayerModel
import Presentation

/// A uniform grid over a changing list of boxes, rebuilt in place (counting sort into cell
/// lists): the time-aware strategies' top level, over the moving groups' window boxes. Cell side
/// from the boxes' mean extent, about one cell per box (128 to 2048 a side) over the boxes'
/// finite extent; a box reaching past it (or the whole plane) is listed in the edge cells it
/// reaches, and a point outside is looked up in the nearest edge cell. A box spanning more
/// than `maxCellsPerBox` cells goes to one overflow list instead, so memory stays within
/// that many entries per box. Cell lists and the overflow list are in descending index. No
/// allocation once its buffers have grown to the largest list seen.
final class BoxGrid {
  var originX = 0.0
  var originY = 0.0
  var inverseSide = 1.0
  var columns = 1
  var rows = 1
  let cellStart = ScratchBuffer<Int32>()
  let fill = ScratchBuffer<Int32>()
  let entries = ScratchBuffer<Int32>()
  var entryCount = 0
  /// Boxes spanning too many cells, descending.
  let overflow = ScratchBuffer<Int32>()
  var overflowCount = 0

  static let maxCellsPerBox = 256

  /// Rebuilds over `boxes[0 ..< count]`; entries are indices into them, descending within a cell.
  func rebuild(_ boxes: UnsafePointer<Box>, count: Int) {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var extent = 0.0
    var finite = 0
    for i in 0..<count {
      let b = boxes[i]
      guard !b.isEmpty, b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { continue }
      minX = Swift.min(minX, b.minX)
      minY = Swift.min(minY, b.minY)
      maxX = Swift.max(maxX, b.maxX)
      maxY = Swift.max(maxY, b.maxY)
      extent += Swift.max(b.maxX - b.minX, b.maxY - b.minY)
      finite += 1
    }
    if finite == 0 {
      minX = 0
      minY = 0
      maxX = 1
      maxY = 1
      extent = 1
      finite = 1
    }
    let w = maxX - minX
    let h = maxY - minY
    // About one cell per box, cells no smaller than the mean box: up to 2048 a side (a
    // million small boxes need more than a fixed 128 x 128 would give: dozens per cell).
    let limit = Swift.min(2048, Swift.max(128, Int(Double(finite).squareRoot())))
    let side = Swift.max(extent / Double(finite), Swift.max(w, h) / Double(limit), 1e-9)
    originX = minX
    originY = minY
    inverseSide = 1 / side
    columns = _cellCount(w * inverseSide, limit: limit)
    rows = _cellCount(h * inverseSide, limit: limit)
    let cells = columns * rows
    // The cell tables at their bound for this many boxes (limit squared), and the entries with
    // room to grow: windows change length, and with them the cells and the lists, and a
    // buffer grown by exactly what one window needs would allocate again at the next.
    cellStart.reserve(limit * limit + 1)
    fill.reserve(limit * limit + 1)
    let start = cellStart.base
    for c in 0...cells { start[c] = 0 }
    overflow.reserve(count)
    overflowCount = 0
    var i = count - 1
    while i >= 0 {
      defer { i -= 1 }
      let (x0, x1, y0, y1) = _span(boxes[i])
      if x0 > x1 { continue }
      if (x1 - x0 + 1) * (y1 - y0 + 1) > Self.maxCellsPerBox {
        overflow.base[overflowCount] = Int32(i)
        overflowCount += 1
        continue
      }
      for y in y0...y1 { for x in x0...x1 { start[y * columns + x + 1] &+= 1 } }
    }
    for c in 0..<cells { start[c + 1] &+= start[c] }
    entryCount = Int(start[cells])
    if entryCount > entries.capacity { entries.reserve(Swift.max(entryCount * 2, count * 4) + 64) }
    let f = fill.base
    for c in 0..<cells { f[c] = start[c] }
    let e = entries.base
    // Descending index: groups are numbered in drawing order, so a cell lists the top-most
    // first and, once a query has a hit, the groups after it are rejected by rank alone.
    i = count - 1
    while i >= 0 {
      defer { i -= 1 }
      let (x0, x1, y0, y1) = _span(boxes[i])
      if x0 > x1 || (x1 - x0 + 1) * (y1 - y0 + 1) > Self.maxCellsPerBox { continue }
      for y in y0...y1 {
        for x in x0...x1 {
          let c = y * columns + x
          e[Int(f[c])] = Int32(i)
          f[c] &+= 1
        }
      }
    }
  }

  @inline(__always) func _span(_ b: Box) -> (Int, Int, Int, Int) {
    if b.isEmpty { return (1, 0, 1, 0) }
    return (
      _cell(b.minX, originX, columns), _cell(b.maxX, originX, columns), _cell(b.minY, originY, rows),
      _cell(b.maxY, originY, rows)
    )
  }

  @inline(__always) func _cell(_ v: Double, _ origin: Double, _ count: Int) -> Int {
    let c = (v - origin) * inverseSide
    guard c >= 0 else { return 0 }
    guard c < Double(count) else { return count - 1 }
    return Int(c)
  }

  /// The entries of the cell holding p (the nearest cell when p is outside): a range of
  /// `entries`.
  @inline(__always) func lookup(_ p: Point) -> Range<Int> {
    guard !p.x.isNaN, !p.y.isNaN else { return 0..<0 }
    let c = _cell(p.y, originY, rows) * columns + _cell(p.x, originX, columns)
    return Int(cellStart.base[c])..<Int(cellStart.base[c + 1])
  }

  /// The overflow list: boxes too big for the cells.
  @inline(__always) var overflowEntries: UnsafeBufferPointer<Int32> {
    UnsafeBufferPointer(start: overflow.base, count: overflowCount)
  }

  var memoryFootprint: Int { (cellStart.capacity + fill.capacity + entries.capacity + overflow.capacity) * 4 }
}

/// Cells along one side for an extent of `cells` cell sides: at least 1, at most `limit`, and
/// 1 when the extent is not a finite number (an overflowing width or a zero side).
@inline(__always) func _cellCount(_ cells: Double, limit: Int) -> Int {
  guard cells.isFinite else { return cells == .infinity ? limit : 1 }
  return Swift.max(1, Swift.min(limit, Int(Swift.min(cells.rounded(.up), Double(limit)))))
}
