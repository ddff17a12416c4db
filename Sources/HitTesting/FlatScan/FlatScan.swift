import LayerModel
import Presentation

/// The flattened arrays, scanned: the hittable rows' world boxes as Float struct-of-arrays
/// (rounded outward, so conservative), in descending priority, eight at a time with SIMD8
/// compares; the first box hit whose exact test (local bounds through the inverse world map,
/// then the clip and projective guard chain) passes is the answer. For the common axis-aligned
/// layer (scale and translate only) the box is the layer itself, so a box hit is almost always
/// the answer; the guard chain is checked only on a box hit.
///
/// Update: O(n), 16 bytes per hittable row. Query: O(rows above the answer / 8) SIMD steps.
public struct FlatScan: FrameStrategy {
  public static let name = "flat-scan"
  public static let summary =
    "SIMD linear scan of world boxes from the top down: tiny update, O(n) queries; best for few queries per frame"

  @usableFromInline var binding = FrameBinding()
  /// Rows in descending priority, padded to a multiple of 8 with -1.
  @usableFromInline var rows: [Int32] = []
  @usableFromInline var minX: [SIMD8<Float>] = []
  @usableFromInline var minY: [SIMD8<Float>] = []
  @usableFromInline var maxX: [SIMD8<Float>] = []
  @usableFromInline var maxY: [SIMD8<Float>] = []
  /// Blocks in use (the arrays may be longer).
  @usableFromInline var blockCount = 0

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    binding.bind(frame)
    rows.removeAll(keepingCapacity: true)
    if rows.capacity < frame.count + 8 { rows.reserveCapacity(frame.count + 8) }
    var r = frame.count - 1
    while r >= 0 {
      if frame.flags[r].contains(.hittable) && frame.worldBox[r].minX <= frame.worldBox[r].maxX
        && frame.worldBox[r].minY <= frame.worldBox[r].maxY
      {
        rows.append(Int32(r))
      }
      r -= 1
    }
    while rows.count % 8 != 0 { rows.append(-1) }
    let blocks = rows.count / 8
    blockCount = blocks
    // Grow-only, sized for every row: the hittable count changes from frame to frame.
    if minX.count < blocks {
      minX = [SIMD8<Float>](repeating: .zero, count: (frame.count + 7) / 8)
      minY = minX
      maxX = minX
      maxY = minX
    }
    rows.withUnsafeBufferPointer { rs in
      for b in 0..<blocks {
        var x0 = SIMD8<Float>(repeating: .infinity)
        var y0 = x0
        var x1 = SIMD8<Float>(repeating: -.infinity)
        var y1 = x1
        for k in 0..<8 {
          let r = Int(rs[b &* 8 &+ k])
          if r < 0 { continue }
          x0[k] = _floatDown(frame.worldBox[r].minX)
          y0[k] = _floatDown(frame.worldBox[r].minY)
          x1[k] = _floatUp(frame.worldBox[r].maxX)
          y1[k] = _floatUp(frame.worldBox[r].maxY)
        }
        minX[b] = x0
        minY[b] = y0
        maxX[b] = x1
        maxY[b] = y1
      }
    }
    _checkInvariants()
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { rows.capacity * 4 + minX.capacity * 4 * 32 }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    let px = SIMD8<Float>(repeating: Float(p.x))
    let py = SIMD8<Float>(repeating: Float(p.y))
    _checkCurrent(binding)
    let f = binding.frame
    return rows.withUnsafeBufferPointer { rs -> LayerID? in
      minX.withUnsafeBufferPointer { x0 in
        minY.withUnsafeBufferPointer { y0 in
          maxX.withUnsafeBufferPointer { x1 in
            maxY.withUnsafeBufferPointer { y1 in
              var b = 0
              let blocks = blockCount
              while b < blocks {
                counter.tested(8)
                let inside = (px .>= x0[b]) .& (px .<= x1[b]) .& (py .>= y0[b]) .& (py .<= y1[b])
                if any(inside) {
                  for k in 0..<8 where inside[k] {
                    let r = Int(rs[b &* 8 &+ k])
                    if f.isCandidate(r, p, counting: &counter) { return f.layer[r] }
                  }
                }
                b &+= 1
              }
              return nil
            }
          }
        }
      }
    }
  }
}
