import LayerModel
import Presentation

/// The moving groups' linear bounds over one time segment: for each group, a box at the
/// segment's start and one at its end whose interpolation holds the group at every time of the
/// segment. Exact lines where a group's root moves piecewise linearly
/// (`MotionBounds.linearBounds`), else lines fitted through `sub` sub-segment boxes and moved
/// out to hold them all. Shared by `linear-bvh` and any `LinearBoundsIndex` (a peer library's
/// motion-blur BVH). Allocates only when the group count grows.
final class _SegmentBounds {
  /// Sub-segments per segment for fitting the lines.
  static let sub = 4
  /// Group k's linear bounds (group 0, the fixed layers, is empty).
  let leaf = ScratchBuffer<LinearBox>()
  /// Per group: its bounds are exact linear bounds.
  let exact = ScratchBuffer<Bool>()
  let subBoxes = ScratchBuffer<Box>()

  var memoryFootprint: Int { leaf.capacity * MemoryLayout<LinearBox>.stride + subBoxes.capacity * 32 }

  /// Fits every group's bounds over [t, end]; answers how many groups could not be bounded.
  func fit(_ g: MotionGroups, from t: Double, to end: Double) -> Int {
    let count = g.root.count
    leaf.reserve(count)
    exact.reserve(count)
    subBoxes.reserve(count * Self.sub)
    let step = (end - t) / Double(Self.sub)
    var unbounded = 0
    // Exact linear bounds where a group's root moves piecewise linearly (its box and its
    // members' region, from the breakpoints of its motion).
    let l = leaf.base
    let exact = self.exact.base
    for k in 1..<count {
      exact[k] = false
      let r = Int(g.root[k])
      guard end > t, let b = g.motion.linearBounds(of: r, region: g.hull[k], from: t, to: end) else { continue }
      l[k] = LinearBox(start: b.start, end: b.end)
      exact[k] = true
    }
    // The others: sub-segment boxes, one sub-segment at a time (the motion bounds memoise
    // ancestors per window), and lines through the first and last, moved out to hold them all.
    let sb = subBoxes.base
    for j in 0..<Self.sub {
      let a = t + step * Double(j)
      let b = j == Self.sub - 1 ? end : t + step * Double(j + 1)
      for k in 1..<count where !exact[k] {
        let r = Int(g.root[k])
        _ = g.motion.box(of: r, from: a, to: b)
        if j == 0 && g.motion.isUnbounded(r) { unbounded += 1 }
        sb[k * Self.sub + j] = g.windowBox(k)
      }
    }
    for k in 1..<count where !exact[k] { l[k] = _fit(sb + k * Self.sub) }
    l[0] = LinearBox(start: .nothing, end: .nothing)
    return unbounded
  }

  /// The linear bounds holding `sub` sub-boxes (lines through the first and last, moved out).
  func _fit(_ s: UnsafePointer<Box>) -> LinearBox {
    let n = Self.sub
    var union = Box.nothing
    for j in 0..<n { union = _union(union, s[j]) }
    guard !union.isEmpty else { return LinearBox(start: .nothing, end: .nothing) }
    let all = union
    let lowX = Self._line(s, n, all, \.minX, lower: true)
    let lowY = Self._line(s, n, all, \.minY, lower: true)
    let highX = Self._line(s, n, all, \.maxX, lower: false)
    let highY = Self._line(s, n, all, \.maxY, lower: false)
    return LinearBox(
      start: Box(minX: lowX.0, minY: lowY.0, maxX: highX.0, maxY: highY.0),
      end: Box(minX: lowX.1, minY: lowY.1, maxX: highX.1, maxY: highY.1))
  }

  /// One edge's line: through the first and last sub-box's edge, moved out by the most a
  /// sub-box's edge sticks out of it at either end of its sub-segment (an empty sub-box, never
  /// a candidate, stands in as the union of all). Infinite when an edge is.
  static func _line(
    _ s: UnsafePointer<Box>, _ n: Int, _ all: Box, _ edge: KeyPath<Box, Double>, lower: Bool
  ) -> (Double, Double) {
    @inline(__always) func v(_ j: Int) -> Double { s[j].isEmpty ? all[keyPath: edge] : s[j][keyPath: edge] }
    let infinite = lower ? (-Double.infinity, -Double.infinity) : (Double.infinity, Double.infinity)
    let a = v(0)
    let b = v(n - 1)
    guard a.isFinite && b.isFinite else { return infinite }
    var out = 0.0
    for j in 0..<n {
      let x = v(j)
      guard x.isFinite else { return infinite }
      let y0 = a + (b - a) * (Double(j) / Double(n))
      let y1 = a + (b - a) * (Double(j + 1) / Double(n))
      out = Swift.max(out, lower ? Swift.max(y0 - x, y1 - x) : Swift.max(x - y0, x - y1))
    }
    // The interpolation's own rounding: a relative pad.
    let pad = out + (Swift.abs(a) + Swift.abs(b)) * 1e-12 + 1e-12
    return lower ? (a - pad, b - pad) : (a + pad, b + pad)
  }

}
