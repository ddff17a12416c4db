import HitTesting
import LayerModel
import Presentation

/// Horizontal strips rebuilt per frame: the frame's hittable rows listed, in descending
/// priority, in every strip of height `stripHeight` their world box touches. A query reads the
/// one strip under the point and returns the first row whose box holds the point and whose
/// exact test passes. A deliberately small example of a strategy brought from outside the
/// package (docs/adding-a-strategy.md), not a contender.
///
/// Update: O(rows + entries), entries = rows times strips per row. Query: the strip's rows
/// above the answer. Memory: 4 bytes per entry plus 4 per strip.
public struct RowStrips: FrameStrategy {
  public static let name = "row-strips"
  public static let summary = "example strategy (Examples/RowStrips): rows bucketed into horizontal strips"

  /// The strip height in points.
  static let stripHeight = 64.0
  /// At most this many strips; taller scenes get taller strips.
  static let maxStrips = 4096

  var binding = FrameBinding()
  var originY = 0.0
  var inverseHeight = 1.0 / stripHeight
  /// `stripStart[s] ..< stripStart[s + 1]` indexes `entries` for strip s.
  var stripStart: [Int32] = []
  var entries: [Int32] = []
  /// Rows whose box is unbounded or too tall to list: tested by every query first.
  var everywhere: [Int32] = []
  /// Scratch: each row's strip range (first, last), -1 when not listed.
  var span: [SIMD2<Int32>] = []
  /// Scratch: the next free entry of each strip while placing (kept, so a frame allocates nothing).
  var fill: [Int32] = []

  public init() {}

  public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int {
    stripStart.capacity * 4 + entries.capacity * 4 + everywhere.capacity * 4 + span.capacity * 8
      + fill.capacity * 4
  }

  public mutating func update(with frame: PresentationFrame) {
    binding.bind(frame)
    let n = frame.count
    var minY = Double.infinity
    var maxY = -Double.infinity
    for r in 0..<n where frame.flags[r].contains(.hittable) {
      let b = frame.worldBox[r]
      if b.isFiniteAndNonEmpty {
        minY = Swift.min(minY, b.minY)
        maxY = Swift.max(maxY, b.maxY)
      }
    }
    let height = maxY > minY ? maxY - minY : 1
    let strips = Swift.max(1, Swift.min(Self.maxStrips, Int((height / Self.stripHeight).rounded(.up))))
    originY = minY.isFinite ? minY : 0
    inverseHeight = Double(strips) / height
    if span.count < n { span = [SIMD2<Int32>](repeating: .zero, count: Swift.max(n, span.count * 2)) }
    stripStart.removeAll(keepingCapacity: true)
    stripStart.append(contentsOf: repeatElement(0, count: strips + 1))
    everywhere.removeAll(keepingCapacity: true)
    // Count, then place (descending priority: rows from the last down).
    for r in 0..<n {
      span[r] = SIMD2(-1, -1)
      guard frame.flags[r].contains(.hittable) else { continue }
      let b = frame.worldBox[r]
      guard !b.isEmpty else { continue }
      guard b.isFiniteAndNonEmpty else {
        everywhere.append(Int32(r))
        continue
      }
      let first = _strip(b.minY, strips)
      let last = _strip(b.maxY, strips)
      span[r] = SIMD2(Int32(first), Int32(last))
      for s in first...last { stripStart[s + 1] &+= 1 }
    }
    for s in 0..<strips { stripStart[s + 1] &+= stripStart[s] }
    let total = Int(stripStart[strips])
    if entries.count < total { entries = [Int32](repeating: 0, count: Swift.max(total, entries.count * 2)) }
    fill.removeAll(keepingCapacity: true)
    fill.append(contentsOf: stripStart[0..<strips])
    var r = n - 1
    while r >= 0 {
      let s = span[r]
      if s.x >= 0 {
        for k in Int(s.x)...Int(s.y) {
          entries[Int(fill[k])] = Int32(r)
          fill[k] &+= 1
        }
      }
      r -= 1
    }
    everywhere.reverse()
  }

  func _strip(_ y: Double, _ strips: Int) -> Int {
    let s = ((y - originY) * inverseHeight).rounded(.down)
    return s < 0 ? 0 : s >= Double(strips) ? strips - 1 : Int(s)
  }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    let f = binding.frame
    let strips = stripStart.count - 1
    // The answer is the highest-priority candidate among the strip's rows and the unbounded
    // ones: both lists are descending, so merge them.
    var best = -1
    for r in everywhere {
      counter.tested(1)
      if f.isCandidate(Int(r), p) {
        best = Int(r)
        break
      }
    }
    guard strips > 0, p.y.isFinite, p.x.isFinite else { return best >= 0 ? f.layer[best] : nil }
    let y = (p.y - originY) * inverseHeight
    guard y >= -1, y <= Double(strips) + 1 else { return best >= 0 ? f.layer[best] : nil }
    let s = _strip(p.y, strips)
    for i in Int(stripStart[s])..<Int(stripStart[s + 1]) {
      let r = Int(entries[i])
      if r <= best { break }
      counter.tested(1)
      if f.worldBox[r].holds(p) && f.isCandidate(r, p) {
        best = r
        break
      }
    }
    return best >= 0 ? f.layer[best] : nil
  }
}
