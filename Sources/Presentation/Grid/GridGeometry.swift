import LayerModel

/// The geometry of a uniform grid over an extent: its origin, cell side and cell counts, and
/// the one mapping from coordinates to cells that building and querying share (so they agree
/// whatever the rounding). A coordinate beyond the extent maps to the nearest edge cell (NaN to
/// the first): a box that reaches past the extent is listed in the edge cells it reaches, and a
/// point outside is looked up in the nearest one. Used by every grid here: `grid`, the
/// time-aware grids, the motion groups' member grids and the `miss` workload's filter.
/// 40 bytes; every mapping is a subtract, a multiply and two compares.
public struct GridGeometry: Sendable, Equatable, BitwiseCopyable {
  public private(set) var originX = 0.0
  public private(set) var originY = 0.0
  public private(set) var inverseSideX = 1.0
  public private(set) var inverseSideY = 1.0
  public private(set) var columns = 1
  public private(set) var rows = 1

  /// A single cell.
  public init() {}

  /// Cells of side `side` (at least 1e-9; separate sides per axis with `sideY`) over
  /// `extent`, at most `limit` along each axis; one cell when the extent is empty or not finite.
  public init(extent: Box, side: Double, sideY: Double? = nil, limit: Int) {
    guard !extent.isEmpty, extent.minX.isFinite, extent.maxX.isFinite, extent.minY.isFinite, extent.maxY.isFinite
    else { return }
    let sx = Swift.max(side.isFinite ? side : 0, 1e-9)
    let sy = Swift.max((sideY ?? side).isFinite ? (sideY ?? side) : 0, 1e-9)
    originX = extent.minX
    originY = extent.minY
    inverseSideX = 1 / sx
    inverseSideY = 1 / sy
    columns = Self.cellCount((extent.maxX - extent.minX) * inverseSideX, limit: limit)
    rows = Self.cellCount((extent.maxY - extent.minY) * inverseSideY, limit: limit)
  }

  /// Cells along one side for an extent of `cells` cell sides: rounded up, within 1...limit;
  /// NaN (an infinite extent times a zero inverse) gives 1, an infinite extent the limit. Never
  /// converts NaN or an out-of-range value to Int (undefined behaviour at -Ounchecked).
  @inlinable public static func cellCount(_ cells: Double, limit: Int) -> Int {
    guard cells.isFinite else { return cells == .infinity ? limit : 1 }
    let c = cells.rounded(.up)
    return c >= 1 ? (c < Double(limit) ? Int(c) : limit) : 1
  }

  public var cellCount: Int { columns * rows }

  /// The column of coordinate x, clamped into the grid (NaN: 0).
  @inlinable @inline(__always) public func column(_ x: Double) -> Int {
    let c = (x - originX) * inverseSideX
    return c >= 0 ? (c < Double(columns) ? Int(c) : columns - 1) : 0
  }

  /// The row of coordinate y, clamped into the grid (NaN: 0).
  @inlinable @inline(__always) public func row(_ y: Double) -> Int {
    let c = (y - originY) * inverseSideY
    return c >= 0 ? (c < Double(rows) ? Int(c) : rows - 1) : 0
  }

  /// The cell holding point p (the nearest cell when outside).
  @inlinable @inline(__always) public func cell(of p: Point) -> Int { row(p.y) * columns + column(p.x) }

  /// The cells a box covers, as column and row ranges (clamped into the grid).
  @inlinable @inline(__always) public func span(of b: Box) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
    (column(b.minX), row(b.minY), column(b.maxX), row(b.maxY))
  }

  /// The cell holding every point within `error` of p, or nil when they straddle cells: a
  /// caller testing a point whose position is uncertain by that much must then look wider.
  @inlinable @inline(__always) public func cell(of p: Point, within error: (x: Double, y: Double)) -> Int? {
    let x0 = column(p.x - error.x)
    let y0 = row(p.y - error.y)
    guard x0 == column(p.x + error.x), y0 == row(p.y + error.y) else { return nil }
    return y0 * columns + x0
  }
}
