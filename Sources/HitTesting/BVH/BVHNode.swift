/// One BVH node in 32 bytes: its Float box (minX, minY, maxX, maxY), then either two children
/// (`count == 0`: `first` is the left child, `second` the right) or a leaf (`count > 0` prims
/// from `first`), and the largest priority (row) of any hittable prim below it, so a query can
/// skip a node that cannot beat the best answer found so far.
public struct BVHNode: Sendable {
  public var box: SIMD4<Float>
  public var first: Int32
  public var second: Int32
  public var count: Int32
  public var maxPriority: Int32

  @inlinable init(box: SIMD4<Float>, first: Int32, second: Int32, count: Int32, maxPriority: Int32) {
    self.box = box
    self.first = first
    self.second = second
    self.count = count
    self.maxPriority = maxPriority
  }

  @inlinable var isLeaf: Bool { count > 0 }
}

/// The empty box: contains nothing, and is the identity of `_union`.
@usableFromInline let _emptyBox = SIMD4<Float>(.infinity, .infinity, -.infinity, -.infinity)

@inlinable @inline(__always) func _union(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  let lo = pointwiseMin(SIMD2(a.x, a.y), SIMD2(b.x, b.y))
  let hi = pointwiseMax(SIMD2(a.z, a.w), SIMD2(b.z, b.w))
  return SIMD4(lo.x, lo.y, hi.x, hi.y)
}

/// Half the perimeter, with coordinates clamped to ±1e18 so a whole-plane box has a large
/// finite area rather than infinity (SAH costs stay comparable). 0 for an empty box.
@inlinable func _halfPerimeter(_ b: SIMD4<Float>) -> Float {
  guard b.x <= b.z, b.y <= b.w else { return 0 }
  let lim: Float = 1e18
  let w = Swift.min(b.z, lim) - Swift.max(b.x, -lim)
  let h = Swift.min(b.w, lim) - Swift.max(b.y, -lim)
  return w + h
}

/// A box's centre for partitioning, clamped to ±1e18; an empty or NaN box centres at 0.
@inlinable func _centroid(_ b: SIMD4<Float>) -> SIMD2<Float> {
  guard b.x <= b.z, b.y <= b.w else { return .zero }
  let lim: Float = 1e18
  let c = SIMD2(
    (Swift.min(Swift.max(b.x, -lim), lim) + Swift.min(Swift.max(b.z, -lim), lim)) * 0.5,
    (Swift.min(Swift.max(b.y, -lim), lim) + Swift.min(Swift.max(b.w, -lim), lim)) * 0.5)
  return SIMD2(c.x.isNaN ? 0 : c.x, c.y.isNaN ? 0 : c.y)
}
