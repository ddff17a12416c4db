import Columns
import LayerModel
import Presentation

/// The grid's storage (a class: an index is a value that shares it; only its builder writes).
final class _GridStorage {
  var geometry = GridGeometry()
  var cellStart = ColumnBuffer<Int32>()
  var fill = ColumnBuffer<Int32>()
  var entries = ColumnBuffer<Int32>()
  var overflow = ColumnBuffer<Int32>()
  /// Each cell entry's and overflow entry's box, beside it: a query streams through them.
  var entryBox = ColumnBuffer<OutwardBox>()
  var overflowBox = ColumnBuffer<OutwardBox>()
  /// Every box, rounded outward, and the cells it covers (by entry), for the passes that list
  /// them: each box's cells are mapped once.
  var outward = ColumnBuffer<OutwardBox>()
  var span = ColumnBuffer<_CellSpan>()

  var memoryFootprint: Int {
    cellStart.memoryFootprint + fill.memoryFootprint + entries.memoryFootprint + overflow.memoryFootprint
      + entryBox.memoryFootprint + overflowBox.memoryFootprint + outward.memoryFootprint + span.memoryFootprint
  }

  /// Every table at its bound for this many boxes (the cell limit squared, `entriesPerBox`
  /// cell entries a box), so no later window of as many boxes allocates.
  func reserve(_ boxes: Int) {
    let limit = Self.limit(boxes)
    cellStart.reserve(limit * limit + 1)
    fill.reserve(limit * limit + 1)
    overflow.reserve(boxes)
    overflowBox.reserve(boxes)
    outward.reserve(boxes)
    span.reserve(boxes)
    entries.reserve(boxes * Self.entriesPerBox + 64)
    entryBox.reserve(boxes * Self.entriesPerBox + 64)
  }

  /// Cell entries a box may take on average: when the boxes' cells add up to more, the
  /// largest boxes go to the overflow list until they fit (a window of unusually large boxes
  /// answers from a longer overflow list instead of allocating).
  static let entriesPerBox = 8

  static func limit(_ boxes: Int) -> Int { Swift.min(2048, Swift.max(128, Int(Double(boxes).squareRoot()))) }

  /// Which of the nine size classes (1, 2, 3-4, 5-8, ..., 129-256 cells) a box of `cells`
  /// cells is in.
  @inline(__always) static func sizeClass(_ cells: Int) -> Int {
    cells <= 1 ? 0 : Int.bitWidth - (cells - 1).leadingZeroBitCount
  }

  /// Lists entry i under its hull, the union of `bounds[i].start` and `bounds[i].end` (equal
  /// for window boxes; for linear bounds, where the entry can be at any time of the window).
  /// Four passes over the entries: hulls (rounded outward) and their extent; each hull's cells,
  /// mapped once and kept as a span; the cell counts; the cell lists.
  func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    let count = bounds.count
    reserve(count)
    // Entries are finite and non-empty (`MotionIndex.rebuild`): a hull needs no empty case.
    @inline(__always) func hull(_ i: Int) -> Box {
      let (s, e) = (bounds[i].start, bounds[i].end)
      return Box(
        minX: Swift.min(s.minX, e.minX), minY: Swift.min(s.minY, e.minY), maxX: Swift.max(s.maxX, e.maxX),
        maxY: Swift.max(s.maxY, e.maxY))
    }
    var extent = Box.nothing
    var sum = 0.0
    outward.withUnsafeMutableBufferPointer { o in
      for i in 0..<count {
        let b = hull(i)
        extent = extent.union(b)
        sum += Swift.max(b.maxX - b.minX, b.maxY - b.minY)
        o[i] = OutwardBox(b)
      }
    }
    let limit = Self.limit(count)
    if count == 0 || !extent.isFiniteAndNonEmpty {
      geometry = GridGeometry()
    } else {
      let side = Swift.max(
        sum / Double(count), Swift.max(extent.maxX - extent.minX, extent.maxY - extent.minY) / Double(limit))
      geometry = GridGeometry(extent: extent, side: side, limit: limit)
    }
    BuildPause.checkpoint()
    let geometry = self.geometry
    let cells = geometry.cellCount
    // The largest box listed in cells: cell entries by size class, then the classes that fit
    // (counted on the stack: a SIMD vector indexed by a variable spills whole at every update).
    var maxCells = WindowGridIndex.maxCellsPerBox
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { bySize in
      bySize.initialize(repeating: 0)
      span.withUnsafeMutableBufferPointer { spans in
        for i in 0..<count {
          let s = _CellSpan(geometry.span(of: hull(i)))
          spans[i] = s
          let c = s.cells
          if c <= WindowGridIndex.maxCellsPerBox { bySize[Self.sizeClass(c)] &+= c }
        }
      }
      var listed = bySize.reduce(0, &+)
      var largest = Self.sizeClass(maxCells)
      while listed > entries.capacity - 64 && largest > 0 {
        listed -= bySize[largest]
        largest -= 1
        maxCells = 1 << largest
      }
    }
    BuildPause.checkpoint()
    var overflowCount = 0
    let columns = geometry.columns
    let spans = span._unsafeStorage
    cellStart.withUnsafeMutableBufferPointer { start in
      for c in 0...cells { start[c] = 0 }
      // Descending entry order: a cell lists the top-most group first.
      var i = count - 1
      while i >= 0 {
        defer { i -= 1 }
        BuildPause.checkpoint(every: i)
        let s = spans[i]
        if s.cells > maxCells {
          overflow[overflowCount] = Int32(i)
          overflowBox[overflowCount] = outward[i]
          overflowCount += 1
          continue
        }
        for y in s.rows { for x in s.columns { start[y * columns + x + 1] &+= 1 } }
      }
      for c in 0..<cells { start[c + 1] &+= start[c] }
    }
    overflow.reserve(overflowCount)
    overflowBox.reserve(overflowCount)
    entries.reserve(Int(cellStart[cells]))
    entryBox.reserve(Int(cellStart[cells]))
    let eb = entryBox._unsafeStorage
    let o = outward._unsafeStorage
    cellStart.withUnsafeBufferPointer { start in
      fill.withUnsafeMutableBufferPointer { f in
        entries.withUnsafeMutableBufferPointer { e in
          for c in 0..<cells { f[c] = start[c] }
          var i = count - 1
          while i >= 0 {
            defer { i -= 1 }
            BuildPause.checkpoint(every: i)
            let s = spans[i]
            if s.cells > maxCells { continue }
            let box = o[i]
            for y in s.rows {
              for x in s.columns {
                let c = y * columns + x
                let k = Int(f[c])
                e[k] = Int32(i)
                eb[k] = box
                f[c] = Int32(k &+ 1)
              }
            }
          }
        }
      }
    }
  }

  /// Visits the entries of the point's cell list and of the overflow list whose boxes may hold
  /// it, merged in descending entry order, until the visitor answers false; answers how many list
  /// entries were looked at. The lists are read in place: nothing is written per entry, so a
  /// dense cell costs only the entries before the search stops.
  @inline(__always)
  func _visit<Visitor: MotionIndexVisitor>(_ p: Point, _ visitor: inout Visitor) -> Int {
    guard !p.x.isNaN, !p.y.isNaN else { return 0 }
    let c = geometry.cell(of: p)
    let e = entries._unsafeStorage
    let eb = UnsafePointer(entryBox._unsafeStorage)
    let iStart = Int(cellStart[c])
    var i = iStart
    let iEnd = Int(cellStart[c + 1])
    let jEnd = overflow.count
    if jEnd == 0 {
      while true {
        i = OutwardBox.firstHolding(p, in: eb, from: i, to: iEnd)
        guard i < iEnd else { return iEnd &- iStart }
        if !visitor.offer(e[i]) { return i &- iStart &+ 1 }
        i &+= 1
      }
    }
    let o = overflow._unsafeStorage
    let ob = UnsafePointer(overflowBox._unsafeStorage)
    i = OutwardBox.firstHolding(p, in: eb, from: i, to: iEnd)
    var j = OutwardBox.firstHolding(p, in: ob, from: 0, to: jEnd)
    while i < iEnd || j < jEnd {
      if j >= jEnd || (i < iEnd && e[i] > o[j]) {
        if !visitor.offer(e[i]) { return i &- iStart &+ 1 &+ j }
        i = OutwardBox.firstHolding(p, in: eb, from: i &+ 1, to: iEnd)
      } else {
        if !visitor.offer(o[j]) { return i &- iStart &+ j &+ 1 }
        j = OutwardBox.firstHolding(p, in: ob, from: j &+ 1, to: jEnd)
      }
    }
    return i &- iStart &+ j
  }
}

/// The cells a box covers, as inclusive column and row ranges in 16 bits each (8 bytes: a grid
/// has at most `_GridStorage.limit` cells a side, 2,048).
struct _CellSpan: BitwiseCopyable {
  var x0: UInt16
  var y0: UInt16
  var x1: UInt16
  var y1: UInt16

  @inline(__always) init(_ s: (x0: Int, y0: Int, x1: Int, y1: Int)) {
    // The geometry clamps into its cells, at most the limit (2,048) a side: truncating to 16
    // bits loses nothing (the invariant check compares every kept span with the mapping).
    (x0, y0, x1, y1) = (
      UInt16(truncatingIfNeeded: s.x0), UInt16(truncatingIfNeeded: s.y0), UInt16(truncatingIfNeeded: s.x1),
      UInt16(truncatingIfNeeded: s.y1)
    )
  }

  @inline(__always) var columns: ClosedRange<Int> { Int(x0)...Int(x1) }
  @inline(__always) var rows: ClosedRange<Int> { Int(y0)...Int(y1) }
  @inline(__always) var cells: Int { (Int(x1) &- Int(x0) &+ 1) &* (Int(y1) &- Int(y0) &+ 1) }
}
