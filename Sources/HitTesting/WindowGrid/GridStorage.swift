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
  /// for window boxes; for linear bounds, where the entry can be at any time of the window),
  /// rounded outward: in the cells that box covers (a query tests the point against it in the
  /// cell's list, so a box is listed wherever it can answer; it is at most a float's step wider
  /// than the hull). Four passes over the entries: hulls (rounded outward) and their extent;
  /// each box's cells, mapped once and kept as a span; the cell counts (a box too large for the
  /// cells goes to the overflow list, its span kept empty); the cell lists.
  func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    let count = bounds.count
    reserve(count)
    var extent = Box.nothing
    var sum = 0.0
    outward.withUnsafeMutableBufferPointer { o in
      for i in 0..<count {
        // Entries are finite and non-empty (`MotionIndex.rebuild`): a hull needs no empty case.
        let (s, e) = (bounds[i].start, bounds[i].end)
        let b = Box(
          minX: Swift.min(s.minX, e.minX), minY: Swift.min(s.minY, e.minY), maxX: Swift.max(s.maxX, e.maxX),
          maxY: Swift.max(s.maxY, e.maxY))
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
    let o = outward._unsafeStorage
    // The largest box listed in cells: every box of up to `maxCellsPerBox` cells when their
    // entries fit (as good as always), else the size classes that fit, counted by a pass of
    // their own (on the stack: a SIMD vector indexed by a variable spills whole at every update).
    var maxCells = WindowGridIndex.maxCellsPerBox
    var listed = 0
    span.withUnsafeMutableBufferPointer { spans in
      for i in 0..<count {
        let s = _CellSpan(geometry.span(of: o[i].box))
        spans[i] = s
        let c = s.cells
        listed &+= c <= maxCells ? c : 0
      }
    }
    if listed > entries.capacity - 64 {
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { bySize in
        bySize.initialize(repeating: 0)
        span.withUnsafeBufferPointer { spans in
          for s in spans {
            let c = s.cells
            if c <= maxCells { bySize[Self.sizeClass(c)] &+= c }
          }
        }
        var largest = Self.sizeClass(maxCells)
        while listed > entries.capacity - 64 && largest > 0 {
          listed -= bySize[largest]
          largest -= 1
          maxCells = 1 << largest
        }
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
          overflowBox[overflowCount] = o[i]
          overflowCount += 1
          // Listed in no cell: the last pass then needs no test of its own.
          spans[i] = .empty
          continue
        }
        s.forEachCell(columns) { start[$0 + 1] &+= 1 }
      }
      for c in 0..<cells { start[c + 1] &+= start[c] }
    }
    overflow.reserve(overflowCount)
    overflowBox.reserve(overflowCount)
    entries.reserve(Int(cellStart[cells]))
    entryBox.reserve(Int(cellStart[cells]))
    let eb = entryBox._unsafeStorage
    cellStart.withUnsafeBufferPointer { start in
      fill.withUnsafeMutableBufferPointer { f in
        entries.withUnsafeMutableBufferPointer { e in
          for c in 0..<cells { f[c] = start[c] }
          var i = count - 1
          while i >= 0 {
            defer { i -= 1 }
            BuildPause.checkpoint(every: i)
            let box = o[i]
            spans[i].forEachCell(columns) { c in
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

  /// No cells (an overflow entry's: each end before its start, so `cells` is 0).
  static let empty = _CellSpan(x0: 1, y0: 1, x1: 0, y1: 0)

  @inline(__always) init(x0: UInt16, y0: UInt16, x1: UInt16, y1: UInt16) {
    (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
  }

  /// Cells covered (0 for `empty`).
  @inline(__always) var cells: Int { (Int(x1) &- Int(x0) &+ 1) &* (Int(y1) &- Int(y0) &+ 1) }

  /// Calls `body` with each covered cell's index in a grid of `columns` columns, row by row.
  @inline(__always) func forEachCell(_ columns: Int, _ body: (Int) -> Void) {
    guard x0 <= x1 else { return }
    // One loop that steps to the next row at a row's end: nested loops over a row's few cells
    // were vectorised, and their set-up cost more than the cells (most boxes cover 1-4).
    let width = Int(x1) &- Int(x0)
    var c = Int(y0) &* columns &+ Int(x0)
    var rowEnd = c &+ width
    let lastEnd = Int(y1) &* columns &+ Int(x1)
    while true {
      body(c)
      if c < rowEnd {
        c &+= 1
      } else {
        guard rowEnd < lastEnd else { return }
        rowEnd &+= columns
        c = rowEnd &- width
      }
    }
  }
}
