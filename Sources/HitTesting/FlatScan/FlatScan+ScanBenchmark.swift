import LayerModel
import Presentation

extension FlatScan {
  /// Boxes in the scan (hittable rows, padded to a multiple of 8).
  public var scannedBoxes: Int { blockCount * 8 }

  /// How many boxes contain `p`, over every block with SIMD8 compares (the scan without its
  /// early exit): the per-box cost of flat-scan's inner loop.
  @inline(never)
  public func countContainingSIMD(_ p: Point) -> Int {
    let px = SIMD8<Float>(repeating: Float(p.x))
    let py = SIMD8<Float>(repeating: Float(p.y))
    var total = SIMD8<Int32>(repeating: 0)
    minX.withUnsafeBufferPointer { x0 in
      minY.withUnsafeBufferPointer { y0 in
        maxX.withUnsafeBufferPointer { x1 in
          maxY.withUnsafeBufferPointer { y1 in
            for b in 0..<blockCount {
              let inside = (px .>= x0[b]) .& (px .<= x1[b]) .& (py .>= y0[b]) .& (py .<= y1[b])
              total &-= SIMD8<Int32>(repeating: 0).replacing(with: -1, where: inside)
            }
          }
        }
      }
    }
    return Int(total.wrappedSum())
  }

  /// The same count over the same rows one box at a time, written the natural way: four
  /// short-circuit compares (`&&`), so the loop branches per box.
  @inline(never)
  public func countContainingScalarBranchy(_ p: Point) -> Int {
    _withFloatColumns(p) { px, py, x0, y0, x1, y1 in
      var total = 0
      for i in 0..<x0.count where px >= x0[i] && px <= x1[i] && py >= y0[i] && py <= y1[i] { total &+= 1 }
      return total
    }
  }

  /// The same count one box at a time, four compares combined without branches. LLVM
  /// auto-vectorises this loop at -Ounchecked, so it is a second, vectorised, baseline.
  @inline(never)
  public func countContainingScalar(_ p: Point) -> Int {
    _withFloatColumns(p) { px, py, x0, y0, x1, y1 in
      var total = 0
      for i in 0..<x0.count {
        // Bool as 0/1 integers, ANDed: no branch per compare.
        let a = (px >= x0[i] ? 1 : 0) & (px <= x1[i] ? 1 : 0)
        let b = (py >= y0[i] ? 1 : 0) & (py <= y1[i] ? 1 : 0)
        total &+= a & b
      }
      return total
    }
  }

  /// `p` in Float and the four box columns as flat Float buffers over the scanned rows.
  func _withFloatColumns(
    _ p: Point,
    _ body: (
      Float, Float, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>,
      UnsafeBufferPointer<Float>
    ) -> Int
  ) -> Int {
    let n = blockCount * 8
    return minX.withUnsafeBytes { x0 in
      minY.withUnsafeBytes { y0 in
        maxX.withUnsafeBytes { x1 in
          maxY.withUnsafeBytes { y1 in
            func column(_ b: UnsafeRawBufferPointer) -> UnsafeBufferPointer<Float> {
              UnsafeBufferPointer(rebasing: b.bindMemory(to: Float.self)[0..<n])
            }
            return body(Float(p.x), Float(p.y), column(x0), column(y0), column(x1), column(y1))
          }
        }
      }
    }
  }
}
