/// An origin and a size in Double with CGRect semantics: negative sizes are standardised by
/// every geometric query, a zero-width or zero-height rect is empty, `Rect.null` is the
/// empty set, and `contains` is min-inclusive, max-exclusive. All operations are O(1).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var origin: Point
  public var size: Size

  @inlinable public init(origin: Point, size: Size) {
    (self.origin, self.size) = (origin, size)
  }

  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    self.origin = Point(x: x, y: y)
    self.size = Size(width: width, height: height)
  }

  @inlinable public static var zero: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }
  /// The empty set: CGRectNull, an origin at +infinity.
  @inlinable public static var null: Rect { Rect(x: .infinity, y: .infinity, width: 0, height: 0) }
  /// CGRectInfinite: the whole plane, as Core Graphics spells it.
  public static let infinite = Rect(
    x: -.greatestFiniteMagnitude / 2, y: -.greatestFiniteMagnitude / 2,
    width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude)

  @inlinable public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }

  /// Empty when null or when either side is zero (or NaN).
  @inlinable public var isEmpty: Bool { isNull || !(size.width != 0) || !(size.height != 0) }

  /// The same rect with non-negative width and height.
  @inlinable public var standardized: Rect {
    if isNull { return .null }
    var r = self
    if r.size.width < 0 {
      r.origin.x += r.size.width
      r.size.width = -r.size.width
    }
    if r.size.height < 0 {
      r.origin.y += r.size.height
      r.size.height = -r.size.height
    }
    return r
  }

  @inlinable public var minX: Double { size.width < 0 ? origin.x + size.width : origin.x }
  @inlinable public var maxX: Double { size.width < 0 ? origin.x : origin.x + size.width }
  @inlinable public var minY: Double { size.height < 0 ? origin.y + size.height : origin.y }
  @inlinable public var maxY: Double { size.height < 0 ? origin.y : origin.y + size.height }
  @inlinable public var midX: Double { origin.x + size.width / 2 }
  @inlinable public var midY: Double { origin.y + size.height / 2 }
  @inlinable public var width: Double { abs(size.width) }
  @inlinable public var height: Double { abs(size.height) }

  /// CGRectContainsPoint: min edges inclusive, max edges exclusive, no rounding; NaN is outside.
  @inlinable public func contains(_ p: Point) -> Bool {
    if isNull { return false }
    return p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
  }

  /// The smallest rect holding both (null is the identity).
  public func union(_ other: Rect) -> Rect {
    if isNull { return other.standardized }
    if other.isNull { return standardized }
    let x0 = Swift.min(minX, other.minX)
    let y0 = Swift.min(minY, other.minY)
    let x1 = Swift.max(maxX, other.maxX)
    let y1 = Swift.max(maxY, other.maxY)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The overlap of both, or `.null` when they do not overlap.
  public func intersection(_ other: Rect) -> Rect {
    if isNull || other.isNull { return .null }
    let x0 = Swift.max(minX, other.minX)
    let y0 = Swift.max(minY, other.minY)
    let x1 = Swift.min(maxX, other.maxX)
    let y1 = Swift.min(maxY, other.maxY)
    if !(x0 <= x1 && y0 <= y1) { return .null }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The bounding box of a set of points (null when there are none).
  public static func boundingBox(of points: some Sequence<Point>) -> Rect {
    var x0 = Double.infinity
    var y0 = Double.infinity
    var x1 = -Double.infinity
    var y1 = -Double.infinity
    var any = false
    for p in points {
      any = true
      x0 = Swift.min(x0, p.x)
      y0 = Swift.min(y0, p.y)
      x1 = Swift.max(x1, p.x)
      y1 = Swift.max(y1, p.y)
    }
    if !any { return .null }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The four corners, counter-clockwise from the minimum corner.
  public var corners: [Point] {
    let r = standardized
    return [
      Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY),
    ]
  }

  public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}
