import CBoxScan
import LayerModel
import Presentation

/// A box in single precision rounded outward (16 bytes: half a `Box`), kept as (minX, minY,
/// -maxX, -maxY) so that one four-lane compare against (x, y, -x, -y) tests it: for an index's
/// own lists, so a query streams through them instead of fetching each entry's exact box
/// (`firstHolding` scans a run of them). It holds every point its exact box holds (a point
/// rounded to the nearest float is never beyond a bound rounded outward, and negation is
/// exact), so it only ever proposes more; the exact test follows. Edges within ±1e30 (the
/// indexes' magnitude limit) stay finite.
public struct OutwardBox: Sendable, Equatable, BitwiseCopyable {
  @usableFromInline var minX: Float
  @usableFromInline var minY: Float
  @usableFromInline var negatedMaxX: Float
  @usableFromInline var negatedMaxY: Float

  /// Holds nothing (an empty or NaN box).
  public static let nothing = OutwardBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

  @inlinable init(minX: Float, minY: Float, maxX: Float, maxY: Float) {
    self.minX = minX
    self.minY = minY
    negatedMaxX = -maxX
    negatedMaxY = -maxY
  }

  /// The smallest single-precision box holding `b` (nothing for an empty box).
  public init(_ b: Box) {
    guard b.minX <= b.maxX, b.minY <= b.maxY else {
      self = .nothing
      return
    }
    self.init(minX: Self._down(b.minX), minY: Self._down(b.minY), maxX: Self._up(b.maxX), maxY: Self._up(b.maxY))
  }

  /// The box in double precision (exact: every float is a double).
  @inline(__always) var box: Box {
    Box(minX: Double(minX), minY: Double(minY), maxX: -Double(negatedMaxX), maxY: -Double(negatedMaxY))
  }

  /// The largest float at most x (x not NaN).
  @inline(__always) static func _down(_ x: Double) -> Float {
    let f = Float(x)
    // A float's neighbour is one step of its bit pattern: towards minus infinity, down for a
    // positive pattern, up for a negative one. Rounded down past x, f is never +0 (x < 0 rounds
    // to -0 at the smallest) nor -infinity; +infinity steps to the largest finite float.
    // (`nextDown`'s checks for the cases that cannot occur here cost a build a quarter of its
    // conversion; `OutwardBoxTests` compares with it.)
    let step: UInt32 = f.sign == .minus ? 1 : UInt32.max
    return Double(f) > x ? Float(bitPattern: f.bitPattern &+ step) : f
  }

  /// The smallest float at least x (x not NaN).
  @inline(__always) static func _up(_ x: Double) -> Float {
    let f = Float(x)
    let step: UInt32 = f.sign == .minus ? UInt32.max : 1
    return Double(f) < x ? Float(bitPattern: f.bitPattern &+ step) : f
  }

  /// Whether the box may hold p (always when its exact box does): one box's test, which
  /// `firstHolding` runs over a list (and `OutwardBoxTests` checks it against).
  @inlinable @inline(__always) public func holds(_ p: Point) -> Bool {
    let x = Float(p.x)
    let y = Float(p.y)
    return (x >= minX) && (-x >= negatedMaxX) && (y >= minY) && (-y >= negatedMaxY)
  }

  /// The first of `boxes[from ..< to]` that may hold p, or `to` when none does: a box's test
  /// is one SSE compare and mask, four boxes a branch (`CBoxScan`), where `holds` in a loop
  /// compiles to two compares and a blend a box. `boxes` holds at least `to` boxes.
  @inline(__always)
  static func firstHolding(_ p: Point, in boxes: UnsafePointer<OutwardBox>, from: Int, to: Int) -> Int {
    boxes.withMemoryRebound(to: Float.self, capacity: 4 * to) {
      hitbench_first_holding_box($0, from, to, Float(p.x), Float(p.y))
    }
  }
}
