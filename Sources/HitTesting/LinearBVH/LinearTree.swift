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
  /// Nodes: bounds, and either two children (`first` = left child, right = first + 1) or a
  /// leaf range of `order` (`count` > 0). A median split leaves at least two entries in every
  /// leaf below the root, so there are at most max(1, entries - 1) nodes.
  var nodeBox = ColumnBuffer<_LinearBox32>()
  var nodeFirst = ColumnBuffer<Int32>()
  var nodeCount = ColumnBuffer<Int32>()
  /// The traversal stack: a node pops itself and pushes two, so it holds at most the depth + 1.
  var stack = ColumnBuffer<Int32>()
  var nodes = 0
  var depth = 0

  var memoryFootprint: Int {
    order.memoryFootprint + leafBox.memoryFootprint + nodeBox.memoryFootprint + nodeFirst.memoryFootprint
      + nodeCount.memoryFootprint + stack.memoryFootprint
  }

  func reserve(_ count: Int) {
    order.reserve(count)
    leafBox.reserve(count)
    nodeBox.reserve(Swift.max(count, 1))
    nodeFirst.reserve(Swift.max(count, 1))
    nodeCount.reserve(Swift.max(count, 1))
    // Halving from `count` to a leaf takes at most its bit width levels.
    stack.reserve(Int.bitWidth - count.leadingZeroBitCount + 2)
  }

  func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    let count = bounds.count
    reserve(count)
    for i in 0..<count { order[i] = Int32(i) }
    nodes = 0
    depth = 0
    if count > 0 {
      nodes = 1
      _build(0, 0, count, level: 1, bounds)
    }
    precondition(depth + 1 <= stack.count, "a tree deeper than its traversal stack")
    _checkInvariants(bounds)
  }

  /// The centre of entry k's box halfway through the window along x or y, doubled twice (only
  /// compared: the scale does not matter).
  @inline(__always)
  static func _centre(_ k: Int, x: Bool, _ bounds: UnsafeBufferPointer<LinearBox>) -> Double {
    let (s, e) = (bounds[k].start, bounds[k].end)
    return x ? (s.minX + s.maxX) + (e.minX + e.maxX) : (s.minY + s.maxY) + (e.minY + e.maxY)
  }

  /// Builds node `node` over `order[lo ..< hi]`, children split at the median centre, taking the
  /// next two free node slots; its bounds once its children's are known.
  func _build(
    _ node: Int, _ lo: Int, _ hi: Int, level: Int, _ bounds: UnsafeBufferPointer<LinearBox>
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
      nodeBox[node] = union
      nodeFirst[node] = Int32(lo)
      nodeCount[node] = Int32(hi - lo)
      return
    }
    let mid = (lo + hi) / 2
    // Split along the axis over which the centres spread most.
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
    let left = nodes
    precondition(left + 1 < nodeBox.count, "more nodes than a median split makes")
    nodes += 2
    nodeCount[node] = 0
    nodeFirst[node] = Int32(left)
    _build(left, lo, mid, level: level + 1, bounds)
    _build(left + 1, mid, hi, level: level + 1, bounds)
    nodeBox[node] = nodeBox[left].union(nodeBox[left + 1])
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
    guard nodes > 0 else { return 0 }
    let st = stack._unsafeStorage
    let box = nodeBox._unsafeStorage
    let first = nodeFirst._unsafeStorage
    let counts = nodeCount._unsafeStorage
    let leaves = leafBox._unsafeStorage
    let entries = order._unsafeStorage
    var n = 0
    var sp = 1
    st[0] = 0
    while sp > 0 {
      sp &-= 1
      let node = Int(st[sp])
      guard box[node].holds(p, at: s) else { continue }
      let count = Int(counts[node])
      let f = Int(first[node])
      if count == 0 {
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
      for node in 0..<nodes {
        let c = Int(nodeCount[node])
        let f = Int(nodeFirst[node])
        let b = nodeBox[node]
        if c == 0 {
          precondition(f + 1 < nodes, "node \(node): children \(f) beyond the tree")
          for child in [f, f + 1] {
            precondition(b.union(nodeBox[child]) == b, "node \(node) does not hold child \(child)")
          }
        } else {
          for i in f..<(f + c) {
            let k = Int(order[i])
            precondition(!seen[k], "entry \(k) in two leaves")
            seen[k] = true
            precondition(
              leafBox[i].holds(start: bounds[k].start, end: bounds[k].end), "leaf box \(i) does not hold entry \(k)")
            precondition(b.union(leafBox[i]) == b, "node \(node) does not hold entry \(k)")
          }
        }
      }
      precondition(seen.allSatisfy { $0 }, "an entry in no leaf")
    #endif
  }
}
