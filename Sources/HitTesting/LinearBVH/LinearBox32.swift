import LayerModel
import Presentation

/// A linear box in single precision, rounded outward and then one more unit in the last place,
/// so it holds the double-precision box it came from at every fraction of the window: linear
/// interpolation is monotone in each end, and the extra unit covers the rounding of the
/// interpolation itself (a few double-precision units of the ends' magnitude, far below one
/// single-precision unit). Half the bytes of a `LinearBox` for a few more candidates, each
/// still tested exactly.
struct _LinearBox32: BitwiseCopyable, Equatable {
  var startMinX: Float, startMinY: Float, startMaxX: Float, startMaxY: Float
  var endMinX: Float, endMinY: Float, endMaxX: Float, endMaxY: Float

  /// The box holding `start` at the window's start and `end` at its end (finite edges).
  @inline(__always) init(holding start: Box, _ end: Box) {
    startMinX = Self._below(start.minX)
    startMinY = Self._below(start.minY)
    startMaxX = Self._above(start.maxX)
    startMaxY = Self._above(start.maxY)
    endMinX = Self._below(end.minX)
    endMinY = Self._below(end.minY)
    endMaxX = Self._above(end.maxX)
    endMaxY = Self._above(end.maxY)
  }

  @inline(__always) static func _below(_ x: Double) -> Float {
    var f = Float(x)
    if Double(f) > x { f = f.nextDown }
    return f.nextDown
  }

  @inline(__always) static func _above(_ x: Double) -> Float {
    var f = Float(x)
    if Double(f) < x { f = f.nextUp }
    return f.nextUp
  }

  /// Whether the box at fraction s holds p (interpolated in double precision).
  @inline(__always) func holds(_ p: Point, at s: Double) -> Bool {
    @inline(__always) func lerp(_ a: Float, _ b: Float) -> Double {
      let a = Double(a)
      return a + (Double(b) - a) * s
    }
    return p.x >= lerp(startMinX, endMinX) && p.x <= lerp(startMaxX, endMaxX)
      && p.y >= lerp(startMinY, endMinY) && p.y <= lerp(startMaxY, endMaxY)
  }

  /// The smallest box holding both at both ends (exact: a minimum or maximum of floats).
  @inline(__always) func union(_ o: _LinearBox32) -> _LinearBox32 {
    var u = self
    u.startMinX = Swift.min(startMinX, o.startMinX)
    u.startMinY = Swift.min(startMinY, o.startMinY)
    u.startMaxX = Swift.max(startMaxX, o.startMaxX)
    u.startMaxY = Swift.max(startMaxY, o.startMaxY)
    u.endMinX = Swift.min(endMinX, o.endMinX)
    u.endMinY = Swift.min(endMinY, o.endMinY)
    u.endMaxX = Swift.max(endMaxX, o.endMaxX)
    u.endMaxY = Swift.max(endMaxY, o.endMaxY)
    return u
  }

  /// Whether it holds the double-precision box at both ends.
  func holds(start: Box, end: Box) -> Bool {
    Double(startMinX) <= start.minX && Double(startMinY) <= start.minY && Double(startMaxX) >= start.maxX
      && Double(startMaxY) >= start.maxY && Double(endMinX) <= end.minX && Double(endMinY) <= end.minY
      && Double(endMaxX) >= end.maxX && Double(endMaxY) >= end.maxY
  }
}
