/// A point in a layer's coordinate space, in Double (CGPoint). Free to copy: 16 bytes.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  @inlinable public init(x: Double, y: Double) {
    (self.x, self.y) = (x, y)
  }

  @inlinable public init(_ x: Double, _ y: Double) {
    (self.x, self.y) = (x, y)
  }

  @inlinable public static var zero: Point { Point(x: 0, y: 0) }

  public var description: String { "(\(x), \(y))" }
}
