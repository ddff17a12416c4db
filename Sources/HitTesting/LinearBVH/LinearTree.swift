import Columns
import LayerModel
import Presentation

/// The BVH's storage (a class: an index is a value that shares it; only its builder writes,
/// and a query writes only the traversal stack).
final class _LinearTree {
  static let leafSize = 4
  var leaf = ColumnBuffer<LinearBox>()
  var order = ColumnBuffer<Int32>()
  var centreX = ColumnBuffer<Double>()
  var centreY = ColumnBuffer<Double>()
  /// Nodes: bounds, and either two children (`first` = left child, right = first + 1) or a
  /// leaf range of `order` (`count` > 0).
  var nodeBox = ColumnBuffer<LinearBox>()
  var nodeFirst = ColumnBuffer<Int32>()
  var nodeCount = ColumnBuffer<Int32>()
  var stack = ColumnBuffer<Int32>()
  var nodes = 0

  var memoryFootprint: Int {
    leaf.memoryFootprint + order.memoryFootprint + centreX.memoryFootprint + centreY.memoryFootprint
      + nodeBox.memoryFootprint + nodeFirst.memoryFootprint + nodeCount.memoryFootprint + stack.memoryFootprint
  }

  func reserve(_ count: Int) {
    leaf.reserve(count)
    order.reserve(count)
    centreX.reserve(count)
    centreY.reserve(count)
    nodeBox.reserve(2 * count + 1)
    nodeFirst.reserve(2 * count + 1)
    nodeCount.reserve(2 * count + 1)
    stack.reserve(2 * count + 64)
  }

  func rebuild(start: UnsafeBufferPointer<Box>, end: UnsafeBufferPointer<Box>) {
    let count = start.count
    reserve(count)
    for i in 0..<count {
      let l = LinearBox(start: start[i], end: end[i])
      leaf[i] = l
      order[i] = Int32(i)
      // The centre of the box halfway through the window.
      let mid = l.at(0.5)
      centreX[i] = mid.isEmpty || !(mid.minX.isFinite && mid.maxX.isFinite) ? 0 : (mid.minX + mid.maxX) * 0.5
      centreY[i] = mid.isEmpty || !(mid.minY.isFinite && mid.maxY.isFinite) ? 0 : (mid.minY + mid.maxY) * 0.5
    }
    nodes = 0
    if count > 0 {
      nodes = 1
      _build(0, 0, count)
    }
    _checkInvariants(count)
  }

  /// Builds node `node` over `order[lo ..< hi]`, children split at the median centre, taking the
  /// next two free node slots.
  func _build(_ node: Int, _ lo: Int, _ hi: Int) {
    var bounds = leaf[Int(order[lo])]
    for i in (lo + 1)..<hi { bounds = bounds.union(leaf[Int(order[i])]) }
    nodeBox[node] = bounds
    if hi - lo <= Self.leafSize {
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
      x0 = Swift.min(x0, centreX[k])
      x1 = Swift.max(x1, centreX[k])
      y0 = Swift.min(y0, centreY[k])
      y1 = Swift.max(y1, centreY[k])
    }
    if x1 - x0 >= y1 - y0 {
      centreX.withUnsafeMutableBufferPointer { _select(lo, hi, mid, $0) }
    } else {
      centreY.withUnsafeMutableBufferPointer { _select(lo, hi, mid, $0) }
    }
    nodeCount[node] = 0
    let left = nodes
    nodes += 2
    nodeFirst[node] = Int32(left)
    _build(left, lo, mid)
    _build(left + 1, mid, hi)
  }

  /// Partially orders `order[lo ..< hi]` by centre so that position `k` holds its order
  /// statistic (quickselect; no allocation).
  func _select(_ lo0: Int, _ hi0: Int, _ k: Int, _ c: UnsafeMutableBufferPointer<Double>) {
    order.withUnsafeMutableBufferPointer { o in
      var lo = lo0
      var hi = hi0 - 1
      while lo < hi {
        let pivot = c[Int(o[(lo + hi) / 2])]
        var i = lo
        var j = hi
        while i <= j {
          while c[Int(o[i])] < pivot { i += 1 }
          while c[Int(o[j])] > pivot { j -= 1 }
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

  /// Writes the entries whose interpolated box holds p at fraction s to `out`.
  @inline(__always)
  func candidates(_ p: Point, at s: Double, into out: UnsafeMutablePointer<Int32>) -> Int {
    guard nodes > 0 else { return 0 }
    let st = stack._unsafeStorage
    let box = nodeBox._unsafeStorage
    let first = nodeFirst._unsafeStorage
    let counts = nodeCount._unsafeStorage
    let leaves = leaf._unsafeStorage
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
        let k = entries[i]
        if leaves[Int(k)].holds(p, at: s) {
          out[n] = k
          n &+= 1
        }
        i &+= 1
      }
    }
    return n
  }

  /// Checks the tree (with `HITBENCH_INTERNAL_CHECKS`): every entry in exactly one leaf, each
  /// node's bounds holding its children's at both ends. O(entries).
  func _checkInvariants(_ count: Int) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active, nodes > 0 else { return }
      var seen = [Bool](repeating: false, count: count)
      for node in 0..<nodes {
        let c = Int(nodeCount[node])
        let f = Int(nodeFirst[node])
        let b = nodeBox[node]
        if c == 0 {
          precondition(f + 1 < nodes, "node \(node): children \(f) beyond the tree")
          for child in [f, f + 1] {
            let cb = nodeBox[child]
            precondition(b.union(cb) == b, "node \(node) does not hold child \(child)")
          }
        } else {
          for i in f..<(f + c) {
            let k = Int(order[i])
            precondition(!seen[k], "entry \(k) in two leaves")
            seen[k] = true
            precondition(b.union(leaf[k]) == b, "node \(node) does not hold entry \(k)")
          }
        }
      }
      precondition(seen.allSatisfy { $0 }, "an entry in no leaf")
    #endif
  }
}
