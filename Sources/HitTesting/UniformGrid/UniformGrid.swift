import LayerModel
import Presentation

/// A uniform grid rebuilt every presentation frame. The grid spans the bounding box of the
/// hittable rows' finite world boxes, with about one cell per row, square cells (the cell side
/// is `sqrt(area / rows)`, at most 2048 cells a side). A two-pass counting sort writes every
/// row into each cell its box overlaps, rows visited in descending priority, so each cell's
/// list is in descending priority and its first exact hit is the cell's answer. A row that
/// would span more than `maxCellsPerRow` cells, or has an infinite box, goes to one overflow
/// list (also descending) that a query checks down to the cell's answer; memory therefore
/// stays within `maxCellsPerRow` references per row. See docs/strategies.md for why the rule
/// is sound on every scene kind.
///
/// Update: O(n + references). Query: one cell's list plus the overflow rows above its answer.
public struct UniformGrid: FrameStrategy {
  public static let name = "grid"
  public static let summary =
    "uniform grid rebuilt per frame by counting sort, big layers in an overflow list: cheap rebuild, O(1) queries"

  /// Rows covering more cells than this go to the overflow list.
  public static let maxCellsPerRow = 64
  static let maxCellsPerSide = 2048

  @usableFromInline var binding = FrameBinding()
  /// The cells (`GridGeometry`, the mapping every grid here shares); no cells while `hasCells`
  /// is false (nothing hittable and finite).
  @usableFromInline var geometry = GridGeometry()
  @usableFromInline var hasCells = false
  /// The far corner of the hittable rows' boxes: the grid answers for [origin, limit].
  @usableFromInline var limitX = 0.0
  @usableFromInline var limitY = 0.0
  /// Cell c's rows are `cellRows[cellStart[c] ..< cellStart[c + 1]]`.
  @usableFromInline var cellStart: [Int32] = []
  @usableFromInline var cellRows: [Int32] = []
  @usableFromInline var overflow: [Int32] = []
  /// Each row's cell range (x0, y0, x1, y1), or x0 = -1 when the row is not in the grid.
  var span: [SIMD4<Int32>] = []
  var candidates: [Int32] = []
  /// The previous overflow list's buffer, reused while merging.
  var spill: [Int32] = []
  var sample: [Double] = []

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    binding.bind(frame)
    defer { _checkInvariants() }
    let n = frame.count
    candidates.removeAll(keepingCapacity: true)
    overflow.removeAll(keepingCapacity: true)
    // Every bound is the row count n itself, never an array's capacity (which the allocator
    // rounds up): `span` is indexed by candidate, and there can be n candidates.
    if span.count < n {
      candidates.reserveCapacity(n)
      overflow.reserveCapacity(n)
      spill.reserveCapacity(n)
      span = [SIMD4<Int32>](repeating: .zero, count: n)
    }
    var extent = Box.nothing
    var r = n - 1
    while r >= 0 {
      defer { r -= 1 }
      guard let b = frame.candidateBox(r) else { continue }
      guard b.isFiniteAndNonEmpty else {
        overflow.append(Int32(r))
        continue
      }
      candidates.append(Int32(r))
      extent = extent.union(b)
    }
    let count = candidates.count
    guard count > 0 else {
      hasCells = false
      geometry = GridGeometry()
      cellStart.removeAll(keepingCapacity: true)
      cellRows.removeAll(keepingCapacity: true)
      return
    }
    // Cell side: about one cell per row, square cells, but never under the median box extent
    // (so a typical row covers at most 4 cells); a degenerate extent gets one cell.
    let w = Swift.max(extent.maxX - extent.minX, 0)
    let h = Swift.max(extent.maxY - extent.minY, 0)
    var side = Swift.max((Swift.max(w * h, 0) / Double(count)).squareRoot(), _medianExtent(frame))
    if !(side > 0) || !side.isFinite { side = Swift.max(w, h, 1) }
    side = Swift.max(side, Swift.max(w, h) / Double(Self.maxCellsPerSide))
    geometry = GridGeometry(extent: extent, side: side, limit: Self.maxCellsPerSide)
    hasCells = true
    limitX = extent.maxX
    limitY = extent.maxY
    let cells = geometry.cellCount
    // Buffers only grow (with headroom), so a moving scene stops allocating once warmed up.
    // The side is at least sqrt(area / rows), so cells <= rows + 2 * maxCellsPerSide + 1 (from
    // rounding each side up): reserve that bound once per topology.
    if cellStart.count < cells + 1 {
      cellStart = [Int32](repeating: 0, count: Swift.max(cells + 1, n + 2 * Self.maxCellsPerSide + 2))
    }
    // Pass 1: count references per cell (and mark the rows that overflow). Pass 2: fill, rows
    // in descending priority, advancing each cell's start; overflow rows merge (descending)
    // into the overflow list, which already holds the infinite boxes. Unsafe buffers inside:
    // no uniqueness checks in the inner loops.
    // The geometry as a local (no access to self in the loops).
    let g = geometry
    let cols = g.columns
    @inline(__always) func col(_ x: Double) -> Int { g.column(x) }
    @inline(__always) func row(_ y: Double) -> Int { g.row(y) }
    let maxCells = Self.maxCellsPerRow
    var references = 0
    // Each box read once, through a buffer taken once (not four reads through the frame).
    frame.worldBox.withUnsafeBufferPointer { boxes in
      cellStart.withUnsafeMutableBufferPointer { start in
        span.withUnsafeMutableBufferPointer { spans in
          candidates.withUnsafeBufferPointer { cand in
            for c in 0..<(cells + 1) { start[c] = 0 }
            for k in 0..<count {
              let b = boxes[Int(cand[k])]
              let cx0 = col(b.minX)
              let cx1 = col(b.maxX)
              let cy0 = row(b.minY)
              let cy1 = row(b.maxY)
              if (cx1 &- cx0 &+ 1) &* (cy1 &- cy0 &+ 1) > maxCells {
                spans[k] = SIMD4(-1, 0, 0, 0)
                continue
              }
              spans[k] = SIMD4(Int32(cx0), Int32(cy0), Int32(cx1), Int32(cy1))
              var cy = cy0
              while cy <= cy1 {
                var c = cy &* cols &+ cx0 &+ 1
                let end = c &+ (cx1 &- cx0)
                while c <= end {
                  start[c] &+= 1
                  c &+= 1
                }
                cy &+= 1
              }
            }
            for c in 0..<cells { start[c &+ 1] &+= start[c] }
            references = Int(start[cells])
          }
        }
      }
    }
    // References per frame vary as layers move (a scrolled screen overlaps more cells): take
    // three times the first frame's need, at least 12 per row, and double on growth, so the
    // steady state stops allocating within the first frames.
    if cellRows.count < references {
      cellRows = [Int32](repeating: 0, count: Swift.max(references * 3, count * 12))
    }
    swap(&spill, &overflow)
    overflow.removeAll(keepingCapacity: true)
    var oi = 0
    cellStart.withUnsafeMutableBufferPointer { start in
      cellRows.withUnsafeMutableBufferPointer { refs in
        span.withUnsafeBufferPointer { spans in
          candidates.withUnsafeBufferPointer { cand in
            for k in 0..<count {
              let sp = spans[k]
              let r = cand[k]
              if sp.x < 0 {
                while oi < spill.count && spill[oi] > r {
                  overflow.append(spill[oi])
                  oi += 1
                }
                overflow.append(r)
                continue
              }
              var cy = Int(sp.y)
              while cy <= Int(sp.w) {
                var c = cy &* cols &+ Int(sp.x)
                let end = cy &* cols &+ Int(sp.z)
                while c <= end {
                  refs[Int(start[c])] = r
                  start[c] &+= 1
                  c &+= 1
                }
                cy &+= 1
              }
            }
          }
        }
        // Each start has advanced to its cell's end: shift back by one cell.
        var c = cells
        while c > 0 {
          start[c] = start[c &- 1]
          c &-= 1
        }
        start[0] = 0
      }
    }
    while oi < spill.count {
      overflow.append(spill[oi])
      oi += 1
    }
  }

  /// The median of max(width, height) over up to 256 of the rows in the grid, picked at a
  /// fixed stride (deterministic, O(1) in n): the typical box size.
  mutating func _medianExtent(_ frame: PresentationFrame) -> Double {
    let n = candidates.count
    let k = Swift.min(n, 256)
    guard k > 0 else { return 0 }
    if sample.count < 256 { sample = [Double](repeating: 0, count: 256) }
    for i in 0..<k {
      let r = Int(candidates[i * n / k])
      sample[i] = Swift.max(
        frame.worldBox[r].maxX - frame.worldBox[r].minX, frame.worldBox[r].maxY - frame.worldBox[r].minY)
    }
    // Insertion sort of at most 256 values: no allocation.
    for i in 1..<Swift.max(k, 1) {
      let v = sample[i]
      var j = i - 1
      while j >= 0 && sample[j] > v {
        sample[j + 1] = sample[j]
        j -= 1
      }
      sample[j + 1] = v
    }
    return sample[k / 2]
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int {
    (cellStart.capacity + cellRows.capacity + overflow.capacity + candidates.capacity) * 4 + span.capacity * 16
  }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _checkCurrent(binding)
    let f = binding.frame
    var best: Int32 = -1
    if hasCells, p.x >= geometry.originX, p.y >= geometry.originY, p.x <= limitX, p.y <= limitY {
      let c = geometry.cell(of: p)
      var k = Int(cellStart[c])
      let end = Int(cellStart[c + 1])
      while k < end {
        let r = Int(cellRows[k])
        counter.tested(1)
        if p.x >= f.worldBox[r].minX && p.x <= f.worldBox[r].maxX && p.y >= f.worldBox[r].minY
          && p.y <= f.worldBox[r].maxY
          && f.isCandidate(r, p, counting: &counter)
        {
          best = Int32(r)
          break
        }
        k &+= 1
      }
    }
    var o = 0
    while o < overflow.count {
      let r = overflow[o]
      o &+= 1
      if r <= best { break }
      counter.tested(1)
      if p.x >= f.worldBox[Int(r)].minX && p.x <= f.worldBox[Int(r)].maxX && p.y >= f.worldBox[Int(r)].minY
        && p.y <= f.worldBox[Int(r)].maxY && f.isCandidate(Int(r), p, counting: &counter)
      {
        best = r
        break
      }
    }
    return best >= 0 ? f.layer[Int(best)] : nil
  }
}
