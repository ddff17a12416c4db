import Clocks
import HitTesting
import LayerModel
import Presentation

/// The two floors measured beside the strategies on the same frames and points:
/// - query floor: per query, one exact test (`isCandidate`) against the row the reference
///   answers, no search at all;
/// - update floor: one streaming pass that reads every row's world box and writes one 32-bit
///   id per layer (what any per-frame index must at least do).
/// Strategy costs divided by these are machine-independent "how close to the limit" numbers.
/// Both are medians over the measured frames. Each query's answer row comes from `grid`, whose
/// answers the differential tests hold equal to the reference's (a reference tree walk per
/// query, at Q = 1000, cost most of a suite's time).
public struct Floors: Sendable {
  public var queryNs: Double
  public var updateNs: Double

  static func measure(loop: FrameLoop, warmup: Int) -> Floors {
    let q = loop.queries
    var queryNs: [Double] = []
    var updateNs: [Double] = []
    var answers = UniformGrid()
    var rows = [Int32](repeating: -1, count: Swift.max(q, 1))
    var ids = [UInt32](repeating: 0, count: 0)
    var sink = 0
    loop.points.withUnsafeBufferPointer { all in
      for f in 0..<loop.requiredFrames {
        let frame = loop.builder.build(at: loop.times[f], animated: loop.animated)
        let pts = UnsafeBufferPointer(rebasing: all[(f * q)..<(f * q + q)])
        answers.update(with: frame)
        for i in 0..<q { rows[i] = answers.hitTest(pts[i]).flatMap { frame.row(ofFast: $0) } ?? -1 }
        if ids.count < frame.count { ids = [UInt32](repeating: 0, count: frame.count) }
        // Update floor: read four box coordinates per row, write one id.
        let t0 = Clocks.monotonicNanoseconds()
        ids.withUnsafeMutableBufferPointer { out in
          for r in 0..<frame.count {
            let inside =
              frame.worldBox[r].minX <= frame.worldBox[r].maxX && frame.worldBox[r].minY <= frame.worldBox[r].maxY
            out[r] = inside ? UInt32(truncatingIfNeeded: r) : UInt32.max
          }
        }
        let t1 = Clocks.monotonicNanoseconds()
        for i in 0..<q where rows[i] >= 0 { sink &+= frame.isCandidate(Int(rows[i]), pts[i]) ? 1 : 0 }
        let t2 = Clocks.monotonicNanoseconds()
        if f >= warmup {
          updateNs.append(Double(t1 - t0))
          queryNs.append(q > 0 ? Double(t2 - t1) / Double(q) : 0)
        }
        sink &+= Int(ids[frame.count / 2])
      }
    }
    Clocks.keep(sink)
    return Floors(queryNs: Summary(queryNs).median, updateNs: Summary(updateNs).median)
  }
}
