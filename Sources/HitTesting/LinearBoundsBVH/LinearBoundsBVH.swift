import LayerModel
import Presentation

/// Time-aware with linear bounds, as Embree's motion-blur BVHs store them: for a time segment
/// [T0, T1], each moving group's box at T0 and its change to T1, so that the box interpolated at
/// any t in the segment holds the group (a query at t interpolates each node's box: about twice
/// the cost of a static box test, for boxes that follow the motion instead of covering it).
/// For a group whose root moves piecewise linearly in time (a basic animation or a linear
/// keyframe track, under a fixed parent: particles, scroll views, wiggles) the lines are exact:
/// through its boxes at T0 and T1, moved out by how far the box at any breakpoint (key time,
/// iteration end) strays from them (`MotionBounds.linearBounds`). Other groups' lines come from
/// `sub` sub-segment boxes: the line through the first and last sub-box's edges, moved out by
/// the most any sub-box sticks out of it (then every sub-box, hence the group, is inside the
/// interpolated box over its sub-segment). A binary BVH over the
/// groups (median splits), rebuilt per segment; segment length as `window-grid`'s windows.
/// Fixed layers and each group's members are indexed once (`MotionGroups`).
///
/// Update: O(1) inside a segment, O(groups x (sub x depth + log groups)) when it rebuilds.
/// Query: O(log groups + overlapping leaves + candidates).
public typealias LinearBoundsBVH = LinearBoundsStrategy<LinearGroupBVH>

/// `linear-bvh`'s index: a binary BVH over the moving groups' linear bounds (median splits on
/// the axis where the boxes' centres at mid-segment spread most, leaves of up to 4), each node
/// holding the union of its children's start and end boxes; a query interpolates each node's
/// box at the segment fraction. Rebuilt per segment; no allocation once its buffers have grown.
public struct LinearGroupBVH: LinearBoundsIndex {
  public static let name = "linear-bvh"
  public static let summary =
    "time-aware: Embree-style linear bounds (a box at the segment start plus its change) in a BVH rebuilt per time segment"
  public static let family = StrategyFamily.timeAware

  let tree = _LinearTree()

  public init() {}

  public var memoryFootprint: Int { tree.memoryFootprint }

  public mutating func reserve(_ entries: Int) { tree.reserve(entries) }

  public mutating func rebuild(start: UnsafeBufferPointer<Box>, end: UnsafeBufferPointer<Box>) {
    tree.rebuild(start: start, end: end)
  }

  public func candidates(_ p: Point, at s: Double) -> UnsafeBufferPointer<Int32> { tree.candidates(p, at: s) }
}

/// A box at the segment start and at its end; at fraction s of the segment, the box between.
struct LinearBox {
  var start: Box
  var end: Box

  @inline(__always) func at(_ s: Double) -> Box {
    Box(
      minX: start.minX + (end.minX - start.minX) * s, minY: start.minY + (end.minY - start.minY) * s,
      maxX: start.maxX + (end.maxX - start.maxX) * s, maxY: start.maxY + (end.maxY - start.maxY) * s)
  }

  /// Whether the box at fraction s holds p. Infinite edges (unbounded groups) hold everything on
  /// their side (an infinite start and end would interpolate to NaN).
  @inline(__always) func holds(_ p: Point, at s: Double) -> Bool {
    @inline(__always) func lerp(_ a: Double, _ b: Double) -> Double { a == b ? a : a + (b - a) * s }
    return p.x >= lerp(start.minX, end.minX) && p.x <= lerp(start.maxX, end.maxX)
      && p.y >= lerp(start.minY, end.minY) && p.y <= lerp(start.maxY, end.maxY)
  }

  /// Both boxes' union with another's: a node's linear bounds (interpolation is monotone in
  /// each end, so the union of the ends bounds the children at every s).
  func union(_ o: LinearBox) -> LinearBox {
    LinearBox(start: _union(start, o.start), end: _union(end, o.end))
  }
}

@inline(__always) func _union(_ a: Box, _ b: Box) -> Box {
  if a.isEmpty { return b }
  if b.isEmpty { return a }
  return Box(
    minX: Swift.min(a.minX, b.minX), minY: Swift.min(a.minY, b.minY), maxX: Swift.max(a.maxX, b.maxX),
    maxY: Swift.max(a.maxY, b.maxY))
}

/// The BVH's storage (a class: queries are non-mutating and write their candidates into a
/// buffer the tree owns).
final class _LinearTree {
  static let leafSize = 4
  let leaf = ScratchBuffer<LinearBox>()
  let order = ScratchBuffer<Int32>()
  let centre = ScratchBuffer<Double>()
  let centreY = ScratchBuffer<Double>()
  /// Nodes: bounds, and either two children (`first` = left child, right = first + 1) or a
  /// leaf range of `order` (`count` > 0).
  let nodeBox = ScratchBuffer<LinearBox>()
  let nodeFirst = ScratchBuffer<Int32>()
  let nodeCount = ScratchBuffer<Int32>()
  let stack = ScratchBuffer<Int32>()
  let found = ScratchBuffer<Int32>()
  var nodes = 0

  var memoryFootprint: Int {
    (leaf.capacity + nodeBox.capacity) * MemoryLayout<LinearBox>.stride + (nodeFirst.capacity + nodeCount.capacity) * 4
  }

  func reserve(_ count: Int) {
    leaf.reserve(count)
    order.reserve(count)
    centre.reserve(count)
    centreY.reserve(count)
    found.reserve(count)
    nodeBox.reserve(2 * count + 1)
    nodeFirst.reserve(2 * count + 1)
    nodeCount.reserve(2 * count + 1)
    stack.reserve(2 * count + 64)
  }

  func rebuild(start: UnsafeBufferPointer<Box>, end: UnsafeBufferPointer<Box>) {
    let count = start.count
    reserve(count)
    let l = leaf.base
    let o = order.base
    let cx = centre.base
    let cy = centreY.base
    for i in 0..<count {
      l[i] = LinearBox(start: start[i], end: end[i])
      o[i] = Int32(i)
      // The centre of the box halfway through the segment.
      let mid = l[i].at(0.5)
      cx[i] = mid.isEmpty || !(mid.minX.isFinite && mid.maxX.isFinite) ? 0 : (mid.minX + mid.maxX) * 0.5
      cy[i] = mid.isEmpty || !(mid.minY.isFinite && mid.maxY.isFinite) ? 0 : (mid.minY + mid.maxY) * 0.5
    }
    nodes = 0
    if count > 0 {
      nodes = 1
      _build(0, 0, count)
    }
  }

  /// Builds node `node` over `order[lo ..< hi]`, children split at the median centre, taking the
  /// next two free node slots.
  func _build(_ node: Int, _ lo: Int, _ hi: Int) {
    let o = order.base
    var bounds = leaf.base[Int(o[lo])]
    for i in (lo + 1)..<hi { bounds = bounds.union(leaf.base[Int(o[i])]) }
    nodeBox.base[node] = bounds
    if hi - lo <= Self.leafSize {
      nodeFirst.base[node] = Int32(lo)
      nodeCount.base[node] = Int32(hi - lo)
      return
    }
    let mid = (lo + hi) / 2
    // Split along the axis over which the centres spread most.
    var x0 = Double.infinity
    var x1 = -Double.infinity
    var y0 = Double.infinity
    var y1 = -Double.infinity
    for i in lo..<hi {
      let k = Int(o[i])
      x0 = Swift.min(x0, centre.base[k])
      x1 = Swift.max(x1, centre.base[k])
      y0 = Swift.min(y0, centreY.base[k])
      y1 = Swift.max(y1, centreY.base[k])
    }
    _select(lo, hi, mid, x1 - x0 >= y1 - y0 ? centre.base : centreY.base)
    nodeCount.base[node] = 0
    let left = nodes
    nodes += 2
    nodeFirst.base[node] = Int32(left)
    _build(left, lo, mid)
    _build(left + 1, mid, hi)
  }

  /// Partially orders `order[lo ..< hi]` by centre so that position `k` holds its order
  /// statistic (quickselect; no allocation).
  func _select(_ lo0: Int, _ hi0: Int, _ k: Int, _ c: UnsafeMutablePointer<Double>) {
    let o = order.base
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
          let tmp = o[i]
          o[i] = o[j]
          o[j] = tmp
          i += 1
          j -= 1
        }
      }
      if k <= j { hi = j } else if k >= i { lo = i } else { return }
    }
  }

  /// The entries whose interpolated box holds p at fraction s.
  func candidates(_ p: Point, at s: Double) -> UnsafeBufferPointer<Int32> {
    var n = 0
    if nodes > 0 {
      let st = stack.base
      let out = found.base
      var sp = 1
      st[0] = 0
      while sp > 0 {
        sp -= 1
        let node = Int(st[sp])
        guard nodeBox.base[node].holds(p, at: s) else { continue }
        let count = Int(nodeCount.base[node])
        let first = Int(nodeFirst.base[node])
        if count == 0 {
          st[sp] = Int32(first)
          st[sp + 1] = Int32(first + 1)
          sp += 2
          continue
        }
        for i in first..<(first + count) {
          let k = order.base[i]
          if leaf.base[Int(k)].holds(p, at: s) {
            out[n] = k
            n += 1
          }
        }
      }
    }
    return UnsafeBufferPointer(start: found.base, count: n)
  }
}
