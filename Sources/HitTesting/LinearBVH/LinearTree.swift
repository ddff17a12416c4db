import Columns
import LayerModel
import Presentation

/// The BVH's storage (a class: an index is a value that shares it; only its builder writes,
/// and a query writes only the traversal stack). Boxes in single precision rounded outward
/// (`_LinearBox32`), leaves stored in tree order so a leaf's boxes are read in sequence, and no
/// scratch beyond the entries' order: the build reads the centres from the boxes it was given.
final class _LinearTree {
  static let leafSize = 4
  /// Entry of each leaf position, and its box (position i in `order`).
  var order = ColumnBuffer<Int32>()
  var leafBox = ColumnBuffer<_LinearBox32>()
  /// Nodes (`_LinearNode`: bounds, and either two children or a leaf range of `order`). A
  /// median split leaves at least two entries in every leaf below the root, so there are at
  /// most max(1, entries - 1) nodes.
  var node = ColumnBuffer<_LinearNode>()
  /// The traversal stack: a node pops itself and pushes two, so it holds at most the depth + 1.
  var stack = ColumnBuffer<Int32>()
  var nodes = 0
  var depth = 0
  /// Ranges of more entries than this are split by entry, not in space (`_bandEntries`).
  var bandEntries = Int.max

  /// The least entries a band holds, and how many entries' boxes should hold a point in one.
  static let leastBand = 1024
  static let bandCoverage = 16.0

  var memoryFootprint: Int {
    order.memoryFootprint + leafBox.memoryFootprint + node.memoryFootprint + stack.memoryFootprint
  }

  func reserve(_ count: Int) {
    order.reserve(count)
    leafBox.reserve(count)
    node.reserve(Swift.max(count, 1))
    // Halving from `count` to a leaf takes at most its bit width levels.
    stack.reserve(Int.bitWidth - count.leadingZeroBitCount + 2)
  }

  func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    let count = bounds.count
    reserve(count)
    for i in 0..<count { order[i] = Int32(i) }
    nodes = 0
    depth = 0
    bandEntries = Self._bandEntries(bounds)
    if count > 0 {
      nodes = 1
      _build(0, 0, count, level: 1, bounds)
    }
    precondition(depth + 1 <= stack.count, "a tree deeper than its traversal stack")
    _checkInvariants(bounds)
  }

  /// How many entries a band holds at most: where about `bandCoverage` of their boxes hold a
  /// point (the boxes' areas over the area of their hull tell how many hold one on average),
  /// and no fewer than `leastBand`. Where the entries' boxes pile up (a hundred particles over
  /// a point at a million), the top of the tree splits them by entry, the higher half visited
  /// first, and a query that has found a layer in a band skips every band below it
  /// (`MotionIndexVisitor.skips`): an unordered visit offered each of the hundred, through a
  /// path of nodes each. Elsewhere (a few boxes over a point) one band: the tree as before.
  static func _bandEntries(_ bounds: UnsafeBufferPointer<LinearBox>) -> Int {
    var area = 0.0
    var hull = Box.nothing
    for b in bounds {
      let u = b.start.union(b.end)
      area += (u.maxX - u.minX) * (u.maxY - u.minY)
      hull = hull.union(u)
    }
    let covered = (hull.maxX - hull.minX) * (hull.maxY - hull.minY)
    let coverage = area / covered
    guard covered > 0, coverage.isFinite, coverage > bandCoverage else { return Int.max }
    return Swift.max(leastBand, Int(Double(bounds.count) * bandCoverage / coverage))
  }

  /// The centre of entry k's box halfway through the window along x or y, doubled twice (only
  /// compared: the scale does not matter).
  @inline(__always)
  static func _centre(_ k: Int, x: Bool, _ bounds: UnsafeBufferPointer<LinearBox>) -> Double {
    let (s, e) = (bounds[k].start, bounds[k].end)
    return x ? (s.minX + s.maxX) + (e.minX + e.maxX) : (s.minY + s.maxY) + (e.minY + e.maxY)
  }

  /// Builds node `n` over `order[lo ..< hi]`, children split at the median centre (by entry, a
  /// band, where the range holds more than `bandEntries`: the range is then still in ascending
  /// entry order, as no split above it moved one), taking the next two free node slots; its
  /// bounds once its children's are known.
  func _build(
    _ n: Int, _ lo: Int, _ hi: Int, level: Int, _ bounds: UnsafeBufferPointer<LinearBox>
  ) {
    depth = Swift.max(depth, level)
    if hi - lo <= Self.leafSize {
      // The range is final: the selects of other nodes permute other ranges.
      var union = _LinearBox32(holding: bounds[Int(order[lo])].start, bounds[Int(order[lo])].end)
      leafBox[lo] = union
      for i in (lo + 1)..<hi {
        let k = Int(order[i])
        let b = _LinearBox32(holding: bounds[k].start, bounds[k].end)
        leafBox[i] = b
        union = union.union(b)
      }
      node[n] = _LinearNode(box: union, first: Int32(lo), count: Int32(hi - lo))
      return
    }
    let mid = (lo + hi) / 2
    // A band's largest entry, read before the children's spatial splits permute the range.
    let band = hi - lo > bandEntries ? order[hi - 1] : nil
    if band == nil { _splitInSpace(lo, hi, mid, bounds) }
    let left = nodes
    precondition(left + 1 < node.count, "more nodes than a median split makes")
    nodes += 2
    _build(left, lo, mid, level: level + 1, bounds)
    _build(left + 1, mid, hi, level: level + 1, bounds)
    let box = node[left].box.union(node[left + 1].box)
    node[n] = _LinearNode(box: box, first: Int32(left), count: band.map { -$0 - 1 } ?? 0)
  }

  /// Orders `order[lo ..< hi]` so that position `mid` holds the median centre along the axis
  /// over which the centres spread most.
  func _splitInSpace(_ lo: Int, _ hi: Int, _ mid: Int, _ bounds: UnsafeBufferPointer<LinearBox>) {
    var x0 = Double.infinity
    var x1 = -Double.infinity
    var y0 = Double.infinity
    var y1 = -Double.infinity
    for i in lo..<hi {
      let k = Int(order[i])
      let cx = Self._centre(k, x: true, bounds)
      let cy = Self._centre(k, x: false, bounds)
      x0 = Swift.min(x0, cx)
      x1 = Swift.max(x1, cx)
      y0 = Swift.min(y0, cy)
      y1 = Swift.max(y1, cy)
    }
    _select(lo, hi, mid, x: x1 - x0 >= y1 - y0, bounds)
  }

  /// Partially orders `order[lo ..< hi]` by centre so that position `k` holds its order
  /// statistic (quickselect; no allocation).
  func _select(
    _ lo0: Int, _ hi0: Int, _ k: Int, x: Bool, _ bounds: UnsafeBufferPointer<LinearBox>
  ) {
    order.withUnsafeMutableBufferPointer { o in
      @inline(__always) func c(_ i: Int) -> Double { Self._centre(Int(o[i]), x: x, bounds) }
      var lo = lo0
      var hi = hi0 - 1
      while lo < hi {
        let pivot = c((lo + hi) / 2)
        var i = lo
        var j = hi
        while i <= j {
          while c(i) < pivot { i += 1 }
          while c(j) > pivot { j -= 1 }
          if i <= j {
            o.swapAt(i, j)
            i += 1
            j -= 1
          }
        }
        if k <= j { hi = j } else if k >= i { lo = i } else { return }
      }
    }
  }

  /// Offers the entries whose interpolated box at fraction s holds p, until the visitor answers
  /// false; answers how many it offered.
  @inline(__always)
  func visit<Visitor: MotionIndexVisitor>(_ p: Point, at s: Double, _ visitor: inout Visitor) -> Int {
    // A tree without bands walks without their test (2-3% of a particles query at 10k).
    bandEntries == .max ? _visit(p, s, &visitor, _NoBands.self) : _visit(p, s, &visitor, _Bands.self)
  }

  @inline(__always)
  func _visit<Visitor: MotionIndexVisitor, Banded: _BandTest>(
    _ p: Point, _ s: Double, _ visitor: inout Visitor, _: Banded.Type
  ) -> Int {
    guard nodes > 0 else { return 0 }
    let st = stack._unsafeStorage
    let tree = node._unsafeStorage
    let leaves = leafBox._unsafeStorage
    let entries = order._unsafeStorage
    var n = 0
    var sp = 1
    st[0] = 0
    while sp > 0 {
      sp &-= 1
      let visited = tree + Int(st[sp])
      let count = Int(visited.pointee.count)
      // A band none of whose entries can beat what the query has found.
      if Banded.on && count < 0 && visitor.skips(upTo: Int32(-count - 1)) { continue }
      guard visited.pointee.box.holds(p, at: s) else { continue }
      let f = Int(visited.pointee.first)
      if count <= 0 {
        // The right child popped first: in a band, the higher entries.
        st[sp] = Int32(f)
        st[sp &+ 1] = Int32(f &+ 1)
        sp &+= 2
        continue
      }
      var i = f
      while i < f &+ count {
        if leaves[i].holds(p, at: s) {
          n &+= 1
          if !visitor.offer(entries[i]) { return n }
        }
        i &+= 1
      }
    }
    return n
  }

  /// Checks the tree (with `HITBENCH_INTERNAL_CHECKS`): every entry in exactly one leaf, its
  /// box holding the entry's at both ends, each node's bounds holding its children's. O(entries).
  func _checkInvariants(_ bounds: UnsafeBufferPointer<LinearBox>) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active, nodes > 0 else { return }
      let count = bounds.count
      precondition(nodes <= Swift.max(count - 1, 1), "\(nodes) nodes for \(count) entries")
      var seen = [Bool](repeating: false, count: count)
      // Each node's largest entry, children (made after their parent) first.
      var most = [Int32](repeating: -1, count: nodes)
      for n in (0..<nodes).reversed() {
        let (c, f) = (Int(node[n].count), Int(node[n].first))
        most[n] = c > 0 ? (f..<(f + c)).map { order[$0] }.max()! : Swift.max(most[f], most[f + 1])
        if c < 0 { precondition(Int32(-c - 1) == most[n], "band \(n): largest entry \(-c - 1), not \(most[n])") }
      }
      for n in 0..<nodes {
        let c = Int(node[n].count)
        let f = Int(node[n].first)
        let b = node[n].box
        if c <= 0 {
          precondition(f + 1 < nodes, "node \(n): children \(f) beyond the tree")
          for child in [f, f + 1] {
            precondition(b.union(node[child].box) == b, "node \(n) does not hold child \(child)")
          }
        } else {
          for i in f..<(f + c) {
            let k = Int(order[i])
            precondition(!seen[k], "entry \(k) in two leaves")
            seen[k] = true
            precondition(
              leafBox[i].holds(start: bounds[k].start, end: bounds[k].end), "leaf box \(i) does not hold entry \(k)")
            precondition(b.union(leafBox[i]) == b, "node \(n) does not hold entry \(k)")
          }
        }
      }
      precondition(seen.allSatisfy { $0 }, "an entry in no leaf")
    #endif
  }
}

/// Whether a visit of `_LinearTree` tests its bands (a static choice: each way specialises).
protocol _BandTest { static var on: Bool { get } }
enum _Bands: _BandTest { static var on: Bool { true } }
enum _NoBands: _BandTest { static var on: Bool { false } }

/// A node of `_LinearTree`, in one record so that a visit reads one line, not one a column (four
/// columns chained four cache misses a node at a million entries): its bounds, and either two
/// children (`first` = left child, right = first + 1; `count` 0, or for a band, split by entry,
/// minus one less its largest entry) or a leaf range of the tree's `order` (`count` > 0 entries
/// from `first`). 40 bytes.
struct _LinearNode: BitwiseCopyable {
  var box: _LinearBox32
  var first: Int32
  var count: Int32
}
