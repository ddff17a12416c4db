/// Linear BVH (Lauterbach et al. 2009, Karras 2012): prims sorted by the 32-bit Morton code of
/// their box centres (16 bits per axis over the scene's centroid bounds, four 8-bit radix
/// passes), then split top-down at the highest bit where a range's codes differ (the middle
/// when they are all equal); leaves hold at most 4 prims; boxes are filled bottom-up.
/// O(n) sort plus O(n log n) split searches; the cheapest build, looser trees than SAH.
public struct LinearBuilder: BVHBuilder {
  public static let name = "bvh-lbvh"
  public static let summary =
    "BVH rebuilt per frame from Morton order (LBVH): near-linear build, looser tree than SAH"

  static let leafSize = 4

  var codes: [UInt32] = []
  var order: [Int32] = []
  var scratchCodes: [UInt32] = []
  var scratchOrder: [Int32] = []
  var rows: [Int32] = []
  var boxes: [SIMD4<Float>] = []
  var work: [(node: Int32, start: Int32, end: Int32)] = []
  var counts = [Int](repeating: 0, count: 256)

  public init() {}

  @inline(__always) static func spread(_ v: UInt32) -> UInt32 {
    var x = v & 0xFFFF
    x = (x | (x << 8)) & 0x00FF_00FF
    x = (x | (x << 4)) & 0x0F0F_0F0F
    x = (x | (x << 2)) & 0x3333_3333
    x = (x | (x << 1)) & 0x5555_5555
    return x
  }

  public mutating func build(_ tree: inout BVHTree) {
    tree.nodes.removeAll(keepingCapacity: true)
    let n = tree.primRow.count
    guard n > 0 else { return }
    var cmin = SIMD2<Float>(repeating: .infinity)
    var cmax = SIMD2<Float>(repeating: -.infinity)
    for i in 0..<n {
      let c = _centroid(tree.primBox[i])
      cmin = pointwiseMin(cmin, c)
      cmax = pointwiseMax(cmax, c)
    }
    let ext = cmax - cmin
    let sx: Float = ext.x > 0 && (65535 / ext.x).isFinite ? 65535 / ext.x : 0
    let sy: Float = ext.y > 0 && (65535 / ext.y).isFinite ? 65535 / ext.y : 0
    // NaN-safe quantisation: Int(NaN) is undefined at -Ounchecked.
    @inline(__always) func quantise(_ v: Float) -> UInt32 { v >= 1 ? (v < 65535 ? UInt32(v) : 65535) : 0 }
    codes.removeAll(keepingCapacity: true)
    order.removeAll(keepingCapacity: true)
    let bound = tree.primRow.capacity
    if codes.capacity < bound {
      codes.reserveCapacity(bound)
      order.reserveCapacity(bound)
      rows.reserveCapacity(bound)
      boxes.reserveCapacity(bound)
    }
    for i in 0..<n {
      let c = _centroid(tree.primBox[i])
      let x = quantise((c.x - cmin.x) * sx)
      let y = quantise((c.y - cmin.y) * sy)
      codes.append(Self.spread(x) | (Self.spread(y) << 1))
      order.append(Int32(i))
    }
    _radixSort()
    rows.removeAll(keepingCapacity: true)
    boxes.removeAll(keepingCapacity: true)
    for k in 0..<n {
      let i = Int(order[k])
      rows.append(tree.primRow[i])
      boxes.append(tree.primBox[i])
    }
    swap(&tree.primRow, &rows)
    swap(&tree.primBox, &boxes)

    tree._startBuild(&work)
    while let (node, s32, e32) = work.popLast() {
      let start = Int(s32)
      let end = Int(e32)
      if end - start <= Self.leafSize {
        tree.nodes[Int(node)].first = s32
        tree.nodes[Int(node)].count = e32 - s32
        continue
      }
      let a = codes[start]
      let b = codes[end - 1]
      var mid: Int
      if a == b {
        mid = (start + end) / 2
      } else {
        let bit = UInt32(31 - (a ^ b).leadingZeroBitCount)
        // First index whose code has `bit` set (codes are sorted and share the higher bits).
        var lo = start
        var hi = end - 1
        while lo < hi {
          let m = (lo + hi) / 2
          if (codes[m] >> bit) & 1 == 1 { hi = m } else { lo = m + 1 }
        }
        mid = lo
      }
      if mid <= start || mid >= end { mid = (start + end) / 2 }
      tree._split(node, s32, Int32(mid), e32, &work)
    }
    tree._fitBoxes()
  }

  /// LSD radix sort of (codes, order) by code, 8 bits a pass, into reused buffers.
  mutating func _radixSort() {
    let n = codes.count
    if scratchCodes.count < n {
      scratchCodes = [UInt32](repeating: 0, count: Swift.max(n, codes.capacity))
      scratchOrder = [Int32](repeating: 0, count: Swift.max(n, codes.capacity))
    }
    for pass in 0..<4 {
      let shift = UInt32(pass * 8)
      for k in 0..<256 { counts[k] = 0 }
      for i in 0..<n { counts[Int((codes[i] >> shift) & 0xFF)] += 1 }
      var sum = 0
      for k in 0..<256 {
        let c = counts[k]
        counts[k] = sum
        sum += c
      }
      for i in 0..<n {
        let c = codes[i]
        let k = Int((c >> shift) & 0xFF)
        scratchCodes[counts[k]] = c
        scratchOrder[counts[k]] = order[i]
        counts[k] += 1
      }
      for i in 0..<n {
        codes[i] = scratchCodes[i]
        order[i] = scratchOrder[i]
      }
    }
  }
}
