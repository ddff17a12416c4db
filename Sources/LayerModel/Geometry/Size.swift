/// A width and height in Double (CGSize); negative values are legal and standardised by `Rect`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  public var width: Double
  public var height: Double

  @inlinable public init(width: Double, height: Double) {
    (self.width, self.height) = (width, height)
  }

  @inlinable public static var zero: Size { Size(width: 0, height: 0) }

  public var description: String { "(\(width), \(height))" }
}
