/// Top-down binned SAH build (Wald 2007): at each node the prims' centroids are binned into 16
/// bins along the longer axis of their bounds; the split with the lowest surface-area cost
/// (half-perimeters in 2D) wins, unless keeping a leaf is cheaper. Leaves hold at most 4 prims
/// (8 when no split helps). O(n log n), an explicit work stack, no allocation after warm-up.
public struct SAHBuilder: BVHBuilder {
  public static let name = "bvh-sah"
  public static let summary =
    "BVH rebuilt per frame with a binned SAH build: best trees, costliest rebuild; many queries per frame"

  static let binCount = 16
  static let leafSize = 4
  static let maxLeafSize = 8

  var work: [(node: Int32, start: Int32, end: Int32)] = []
  var binBoxes = [SIMD4<Float>](repeating: _emptyBox, count: 16)
  var binCounts = [Int32](repeating: 0, count: 16)
  var rightBoxes = [SIMD4<Float>](repeating: _emptyBox, count: 16)
  var rightCounts = [Int32](repeating: 0, count: 16)

  public init() {}

  public mutating func build(_ tree: inout BVHTree) {
    tree._startBuild(&work)
    while let (node, s32, e32) = work.popLast() {
      let start = Int(s32)
      let end = Int(e32)
      var box = _emptyBox
      var cmin = SIMD2<Float>(repeating: .infinity)
      var cmax = SIMD2<Float>(repeating: -.infinity)
      for i in start..<end {
        box = _union(box, tree.primBox[i])
        let c = _centroid(tree.primBox[i])
        cmin = pointwiseMin(cmin, c)
        cmax = pointwiseMax(cmax, c)
      }
      tree.nodes[Int(node)].box = box
      let count = end - start
      func makeLeaf() {
        tree.nodes[Int(node)].first = Int32(start)
        tree.nodes[Int(node)].count = Int32(count)
      }
      if count <= Self.leafSize {
        makeLeaf()
        continue
      }
      let extent = cmax - cmin
      let axis = extent.x >= extent.y ? 0 : 1
      let lo = cmin[axis]
      let span = extent[axis]
      var mid = start
      // A subnormal span would make the scale infinite and 0 * inf NaN: bin only with a finite
      // scale, and convert with a NaN-safe clamp (Int(NaN) is undefined at -Ounchecked).
      if span > 0 && span.isFinite && (Float(Self.binCount) / span).isFinite {
        let scale = Float(Self.binCount) / span
        for b in 0..<Self.binCount {
          binBoxes[b] = _emptyBox
          binCounts[b] = 0
        }
        @inline(__always) func bin(_ c: SIMD2<Float>) -> Int {
          let v = (c[axis] - lo) * scale
          return v >= 1 ? (v < Float(Self.binCount - 1) ? Int(v) : Self.binCount - 1) : 0
        }
        for i in start..<end {
          let b = bin(_centroid(tree.primBox[i]))
          binBoxes[b] = _union(binBoxes[b], tree.primBox[i])
          binCounts[b] += 1
        }
        // Right-to-left sweep, then left-to-right: the cost of splitting after bin k.
        var rightBox = _emptyBox
        var rightCount: Int32 = 0
        var k = Self.binCount - 1
        while k >= 1 {
          defer { k -= 1 }
          rightBox = _union(rightBox, binBoxes[k])
          rightCount += binCounts[k]
          rightBoxes[k] = rightBox
          rightCounts[k] = rightCount
        }
        var bestCost = Float.infinity
        var bestSplit = -1
        var leftBox = _emptyBox
        var leftCount: Int32 = 0
        for k in 0..<(Self.binCount - 1) {
          leftBox = _union(leftBox, binBoxes[k])
          leftCount += binCounts[k]
          let rc = rightCounts[k + 1]
          if leftCount == 0 || rc == 0 { continue }
          let cost = _halfPerimeter(leftBox) * Float(leftCount) + _halfPerimeter(rightBoxes[k + 1]) * Float(rc)
          if cost < bestCost {
            bestCost = cost
            bestSplit = k
          }
        }
        let leafCost = _halfPerimeter(box) * Float(count)
        if bestSplit < 0 {
          mid = start + count / 2
        } else if bestCost >= leafCost && count <= Self.maxLeafSize {
          makeLeaf()
          continue
        } else {
          // Partition in place: prims in bins <= bestSplit first.
          var i = start
          var j = end - 1
          while i <= j {
            if bin(_centroid(tree.primBox[i])) <= bestSplit {
              i += 1
            } else {
              let box = tree.primBox[i]
              tree.primBox[i] = tree.primBox[j]
              tree.primBox[j] = box
              let row = tree.primRow[i]
              tree.primRow[i] = tree.primRow[j]
              tree.primRow[j] = row
              j -= 1
            }
          }
          mid = i
        }
      } else {
        mid = start + count / 2
      }
      if mid <= start || mid >= end { mid = start + count / 2 }
      tree._split(node, Int32(start), Int32(mid), Int32(end), &work)
    }
  }
}
