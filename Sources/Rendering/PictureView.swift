import LayerModel
import Presentation

/// Where a picture's world extent lands in pixels: one scale for both axes, a margin, and room
/// for the legend below. Every frame of an animated picture shares one view.
public struct PictureView: Sendable {
  public let extent: Box
  public let scale: Double
  public let margin = 10.0
  public let width: Double
  public let height: Double
  public let legendHeight: Double

  /// A view of `extent` whose longer side is `size` pixels, with room for `legendLines` lines.
  public init(extent: Box, size: Double, legendLines: Int) {
    self.extent = extent
    scale = size / Swift.max(extent.maxX - extent.minX, extent.maxY - extent.minY)
    legendHeight = 18.0 * Double(legendLines) + 10
    width = Swift.max((extent.maxX - extent.minX) * scale + 2 * margin, 720)
    height = (extent.maxY - extent.minY) * scale + 2 * margin + legendHeight
  }

  @inline(__always) func px(_ p: Point) -> (Double, Double) {
    ((p.x - extent.minX) * scale + margin, (p.y - extent.minY) * scale + margin)
  }

  func polygon(_ q: [Point]) -> String {
    q.map {
      let (x, y) = px($0)
      return SVGDocument.number(x) + "," + SVGDocument.number(y)
    }.joined(separator: " ")
  }

  /// A box's rect attributes, its infinite or far edges clamped just outside the picture.
  func rect(_ b: Box) -> String {
    let pad = 2 * margin / scale
    func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
      v.isNaN ? lo : Swift.min(Swift.max(v, lo - pad), hi + pad)
    }
    let (x0, y0) = px(
      Point(
        x: clamp(b.minX, extent.minX, extent.maxX), y: clamp(b.minY, extent.minY, extent.maxY)))
    let (x1, y1) = px(
      Point(
        x: clamp(b.maxX, extent.minX, extent.maxX), y: clamp(b.maxY, extent.minY, extent.maxY)))
    return "x=\"\(SVGDocument.number(x0))\" y=\"\(SVGDocument.number(y0))\" "
      + "width=\"\(SVGDocument.number(Swift.max(x1 - x0, 0)))\" height=\"\(SVGDocument.number(Swift.max(y1 - y0, 0)))\""
  }

  /// A box's area on screen in square pixels (0 when empty or not finite).
  func pixelArea(_ b: Box) -> Double {
    guard b.isFiniteAndNonEmpty else { return 0 }
    return (b.maxX - b.minX) * scale * (b.maxY - b.minY) * scale
  }

  /// Whether a box is smaller than a pixel on both sides.
  func isBelowAPixel(_ b: Box) -> Bool { (b.maxX - b.minX) * scale < 1 && (b.maxY - b.minY) * scale < 1 }
}
