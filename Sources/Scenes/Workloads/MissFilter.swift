import LayerModel
import Presentation

/// Decides, for the `miss` workload, whether a point hits nothing but the root: true when no
/// hittable row's world box other than the root's holds it. World boxes hold every point where
/// a row can be a candidate, so the answer is conservative (it never calls a hit a miss) and
/// independent of every strategy under test. Built per frame from a coarse bucket list: 64 x 64
/// buckets over the frame's finite boxes, plus a list of rows too large or infinite to bucket.
/// Runs outside the timed phases; allocates.
public struct MissFilter {
  /// 64 x 64 buckets over the finite boxes' extent, which ends at (limitX, limitY).
  let geometry: GridGeometry
  let limitX: Double, limitY: Double
  static let side = 64
  var buckets: [[Int32]]
  var everywhere: [Int32]
  let frame: PresentationFrame

  public init(frame: PresentationFrame) {
    self.frame = frame
    var extent = Box.nothing
    var rows: [Int32] = []
    var big: [Int32] = []
    for r in 1..<Swift.max(frame.count, 1) {
      guard let b = frame.candidateBox(r) else { continue }
      if b.isFiniteAndNonEmpty {
        rows.append(Int32(r))
        extent = extent.union(b)
      } else {
        big.append(Int32(r))
      }
    }
    let n = Self.side
    if rows.isEmpty { extent = Box(minX: 0, minY: 0, maxX: 1, maxY: 1) }
    geometry = GridGeometry(
      extent: extent, side: Swift.max((extent.maxX - extent.minX) / Double(n), 1e-9),
      sideY: Swift.max((extent.maxY - extent.minY) / Double(n), 1e-9), limit: n)
    limitX = extent.maxX
    limitY = extent.maxY
    buckets = [[Int32]](repeating: [], count: geometry.cellCount)
    for r in rows {
      let (cx0, cy0, cx1, cy1) = geometry.span(of: frame.worldBox[Int(r)])
      if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 64 {
        big.append(r)
        continue
      }
      for cy in cy0...cy1 { for cx in cx0...cx1 { buckets[cy * geometry.columns + cx].append(r) } }
    }
    everywhere = big
  }

  /// True when no hittable row but the root can be the answer at `p`.
  public func hitsOnlyRoot(_ p: Point) -> Bool {
    func holds(_ r: Int32) -> Bool {
      let i = Int(r)
      return p.x >= frame.worldBox[i].minX && p.x <= frame.worldBox[i].maxX && p.y >= frame.worldBox[i].minY
        && p.y <= frame.worldBox[i].maxY
    }
    for r in everywhere where holds(r) { return false }
    // Beyond the extent no finite box can hold p.
    guard p.x >= geometry.originX, p.y >= geometry.originY, p.x <= limitX, p.y <= limitY else { return true }
    for r in buckets[geometry.cell(of: p)] where holds(r) { return false }
    return true
  }
}
