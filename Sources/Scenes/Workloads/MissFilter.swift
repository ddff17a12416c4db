import LayerModel
import Presentation

/// Decides, for the `miss` workload, whether a point hits nothing but the root: true when no
/// hittable row's world box other than the root's holds it. World boxes hold every point where
/// a row can be a candidate, so the answer is conservative (it never calls a hit a miss) and
/// independent of every strategy under test. Built per frame from a coarse bucket list: 64 x 64
/// buckets over the frame's finite boxes, plus a list of rows too large or infinite to bucket.
/// Runs outside the timed phases; allocates.
public struct MissFilter {
  let originX: Double, originY: Double, cellW: Double, cellH: Double
  static let side = 64
  var buckets: [[Int32]]
  var everywhere: [Int32]
  let frame: PresentationFrame

  public init(frame: PresentationFrame) {
    self.frame = frame
    var x0 = Double.infinity
    var y0 = Double.infinity
    var x1 = -Double.infinity
    var y1 = -Double.infinity
    var rows: [Int32] = []
    var big: [Int32] = []
    for r in 1..<Swift.max(frame.count, 1) where frame.flags[r].contains(.hittable) {
      let a = frame.worldBox[r].minX
      let b = frame.worldBox[r].minY
      let c = frame.worldBox[r].maxX
      let d = frame.worldBox[r].maxY
      guard a <= c && b <= d else { continue }
      if !(a.isFinite && b.isFinite && c.isFinite && d.isFinite) {
        big.append(Int32(r))
        continue
      }
      rows.append(Int32(r))
      x0 = Swift.min(x0, a)
      y0 = Swift.min(y0, b)
      x1 = Swift.max(x1, c)
      y1 = Swift.max(y1, d)
    }
    let n = Self.side
    originX = x0.isFinite ? x0 : 0
    originY = y0.isFinite ? y0 : 0
    cellW = x1 > x0 ? (x1 - x0) / Double(n) : 1
    cellH = y1 > y0 ? (y1 - y0) / Double(n) : 1
    buckets = [[Int32]](repeating: [], count: n * n)
    func cell(_ v: Double, _ o: Double, _ w: Double) -> Int {
      let c = (v - o) / w
      return c >= 0 ? (c < Double(n) ? Int(c) : n - 1) : 0
    }
    for r in rows {
      let i = Int(r)
      let cx0 = cell(frame.worldBox[i].minX, originX, cellW)
      let cx1 = cell(frame.worldBox[i].maxX, originX, cellW)
      let cy0 = cell(frame.worldBox[i].minY, originY, cellH)
      let cy1 = cell(frame.worldBox[i].maxY, originY, cellH)
      if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 64 {
        big.append(r)
        continue
      }
      for cy in cy0...cy1 { for cx in cx0...cx1 { buckets[cy * n + cx].append(r) } }
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
    let n = Self.side
    let cx = (p.x - originX) / cellW
    let cy = (p.y - originY) / cellH
    guard cx >= 0, cy >= 0, cx < Double(n), cy < Double(n) else { return true }
    for r in buckets[Int(cy) * n + Int(cx)] where holds(r) { return false }
    return true
  }
}
