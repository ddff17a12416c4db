import CPeers
import HitTesting
import LayerModel
import Presentation

/// Embree 3's motion-blur BVH as the index of a time-aware strategy (CPeers/embree.cpp): per
/// time window, each moving group is a user primitive with two time steps, its linear bounds'
/// box at the window's start and at its end (the bounds every windowed strategy indexes,
/// `WindowBounds`); Embree builds its motion-blur BVH over them and `rtcPointQuery` at the
/// window fraction visits the primitives whose interpolated boxes may hold the point. The
/// peer of the project's `linear-bvh`: same bounds, Embree's tree instead of ours.
public struct EmbreeMotionIndex: MotionIndex {
  public static let name = "embree-motion"
  public static let summary =
    "peer, time-aware: Embree 3 motion-blur BVH over the groups' linear bounds per segment, rtcPointQuery at time t"
  public static let family = StrategyFamily.peer
  public static let package = "libembree-dev"
  /// Embree's point query squares single-precision coordinates.
  public static var magnitudeLimit: Double { 1e15 }

  let handle = _PeerHandle(HB_PEER_EMBREE_MOTION)
  var boxes: [Double] = []

  public init() {}

  public var memoryFootprint: Int { boxes.capacity * 8 }

  public mutating func reserve(_ entries: Int) { boxes.reserveCapacity(entries * 8) }

  public mutating func rebuild(_ bounds: UnsafeBufferPointer<LinearBox>) {
    guard let handle else { preconditionFailure("\(Self.name): library not built in (install \(Self.package))") }
    boxes.removeAll(keepingCapacity: true)
    // Embree interpolates in single precision at a single-precision time: a relative pad of
    // 1e-6 covers both roundings (about 1e-7 each), so its boxes hold the exact ones, which
    // the strategy tests afterwards.
    for b in bounds {
      _append(b.start)
      _append(b.end)
    }
    boxes.withUnsafeBufferPointer { hb_peer_update_motion(handle.raw, $0.baseAddress, Int32(bounds.count), 2) }
  }

  mutating func _append(_ b: Box) {
    let pad = (Swift.abs(b.minX) + Swift.abs(b.maxX) + Swift.abs(b.minY) + Swift.abs(b.maxY)) * 1e-6 + 1e-30
    boxes.append(b.minX - pad)
    boxes.append(b.minY - pad)
    boxes.append(b.maxX + pad)
    boxes.append(b.maxY + pad)
  }

  /// Embree's point query lists the primitives in its own buffer; each is offered in turn.
  public func visit<Visitor: MotionIndexVisitor>(_ p: Point, at s: Double, _ visitor: inout Visitor) -> Int {
    guard let handle else { return 0 }
    var entries: UnsafePointer<Int32>?
    let n = Int(hb_peer_query(handle.raw, p.x, p.y, Float(s), &entries))
    guard n > 0, let entries else { return 0 }
    for e in UnsafeBufferPointer(start: entries, count: n) where !visitor.offer(e) { break }
    return n
  }

  public func visit(_ p: Point, at s: Double, search: inout WindowSearch) -> Int { visit(p, at: s, &search) }
}
