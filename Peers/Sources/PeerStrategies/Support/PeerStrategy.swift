import CPeers
import HitTesting
import LayerModel
import Presentation

/// An established library's index as a frame strategy: each frame the hittable rows' world
/// boxes go to the library (which moves, refits or rebuilds as its users do); a query asks the
/// library for the boxes holding the point and keeps the top-most candidate by the same exact
/// test as every strategy (`PresentationFrame.isCandidate`), so answers are comparable with
/// tree-walk's. Rows whose boxes are infinite or beyond ±1e30 (outside what single-precision
/// libraries can hold) stay in an overflow list checked on every query, as the grid does.
///
/// Update: the library's update plus O(rows) to gather boxes. Query: the library's query plus
/// one exact test per candidate it returns. Allocations per frame: whatever the library does
/// (reported by the runner from jemalloc's counters, not required to be zero).
public struct PeerStrategy<Library: PeerLibrary>: FrameStrategy {
  public static var name: String { Library.name }
  public static var summary: String { Library.summary }
  public static var family: StrategyFamily { .peer }

  var binding = FrameBinding()
  let handle: _PeerHandle?
  /// Entry i of the library's index is row `rows[i]`.
  var rows: [Int32] = []
  var boxes: [Double] = []
  /// Rows not given to the library, in descending order.
  var overflow: [Int32] = []

  /// The largest coordinate given to a library (beyond: overflow).
  static var limit: Double { 1e30 }

  public init() {
    handle = _PeerHandle(Library.kind)
  }

  public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { rows.capacity * 4 + boxes.capacity * 8 + overflow.capacity * 4 }

  public mutating func update(with frame: PresentationFrame) {
    guard let handle else { preconditionFailure("\(Library.name): library not built in (install \(Library.package))") }
    binding.bind(frame)
    rows.removeAll(keepingCapacity: true)
    boxes.removeAll(keepingCapacity: true)
    overflow.removeAll(keepingCapacity: true)
    let limit = Self.limit
    var r = frame.count - 1
    while r >= 0 {
      defer { r -= 1 }
      let b = frame.worldBox[r]
      guard frame.flags[r].contains(.hittable), b.minX <= b.maxX, b.minY <= b.maxY else { continue }
      if Swift.abs(b.minX) <= limit && Swift.abs(b.minY) <= limit && Swift.abs(b.maxX) <= limit
        && Swift.abs(b.maxY) <= limit
      {
        rows.append(Int32(r))
        boxes.append(b.minX)
        boxes.append(b.minY)
        boxes.append(b.maxX)
        boxes.append(b.maxY)
      } else {
        overflow.append(Int32(r))
      }
    }
    boxes.withUnsafeBufferPointer { hb_peer_update(handle.raw, $0.baseAddress, Int32(rows.count)) }
  }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let handle else { return nil }
    assert(binding.isCurrent, "queried after the frame was rebuilt")
    let f = binding.frame
    var entries: UnsafePointer<Int32>?
    let n = Int(hb_peer_query(handle.raw, p.x, p.y, 0, &entries))
    counter.tested(n)
    var best = -1
    rows.withUnsafeBufferPointer { rs in
      for k in 0..<n {
        let r = Int(rs[Int(entries![k])])
        if r > best && f.isCandidate(r, p, counting: &counter) { best = r }
      }
    }
    for r in overflow {
      if Int(r) <= best { break }
      counter.tested(1)
      if f.isCandidate(Int(r), p, counting: &counter) {
        best = Int(r)
        break
      }
    }
    return best >= 0 ? f.layer[best] : nil
  }
}
