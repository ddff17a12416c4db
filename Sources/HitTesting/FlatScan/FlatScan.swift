import LayerModel
import Presentation

/// The flattened arrays, scanned: the hittable rows' world boxes as Float struct-of-arrays
/// (rounded outward, so conservative), in descending priority, eight at a time with SIMD8
/// compares; the first box hit whose exact test (local bounds through the inverse world map,
/// then the clip and projective guard chain) passes is the answer. For the common axis-aligned
/// layer (scale and translate only) the box is the layer itself, so a box hit is almost always
/// the answer; the guard chain is checked only on a box hit.
///
/// Update: O(n), 16 bytes per hittable row. Query: O(rows above the answer / 8) SIMD steps.
public struct FlatScan: FrameStrategy {
  public static let name = "flat-scan"
  public static let summary =
    "SIMD linear scan of world boxes from the top down: tiny update, O(n) queries; best for few queries per frame"

  @usableFromInline var binding = FrameBinding()
  /// Rows in descending priority, padded to a multiple of 8 with -1.
  @usableFromInline var rows: [Int32] = []
  @usableFromInline var minX: [SIMD8<Float>] = []
  @usableFromInline var minY: [SIMD8<Float>] = []
  @usableFromInline var maxX: [SIMD8<Float>] = []
  @usableFromInline var maxY: [SIMD8<Float>] = []
  /// Blocks in use (the arrays may be longer).
  @usableFromInline var blockCount = 0
  /// Each frame row's place in `rows` (-1: not scanned), so that an update after a build that
  /// recomputed a few rows rewrites just their boxes; filled by the first such update after a
  /// rebuild of the list (`slotsCurrent`), so a frame that rebuilds the list every time pays
  /// nothing for them.
  var slot: [Int32] = []
  var slotsCurrent = false
  /// Boxes written by the last update.
  var _reindexed = 0

  public init() {}

  public var counters: StrategyCounters { StrategyCounters(reindexed: _reindexed) }

  /// Whether row r is scanned: hittable with a box that is not empty.
  @inline(__always) static func _scans(_ frame: PresentationFrame, _ r: Int) -> Bool {
    frame.flags[r].contains(.hittable) && frame.worldBox[r].minX <= frame.worldBox[r].maxX
      && frame.worldBox[r].minY <= frame.worldBox[r].maxY
  }

  /// Row r's box (empty when it has none, or a NaN edge) into its lane of block `s / 8`.
  @inline(__always) mutating func _write(_ frame: PresentationFrame, _ r: Int, at s: Int) {
    let b = s &>> 3
    let k = s & 7
    let box = frame.worldBox[r]
    let empty = !(box.minX <= box.maxX && box.minY <= box.maxY)
    minX[b][k] = empty ? .infinity : _floatDown(box.minX)
    minY[b][k] = empty ? .infinity : _floatDown(box.minY)
    maxX[b][k] = empty ? -.infinity : _floatUp(box.maxX)
    maxY[b][k] = empty ? -.infinity : _floatUp(box.maxY)
  }

  /// After a build that recomputed only `frame.changedRuns()`: rewrites those rows' boxes in
  /// place. O(changed rows). A scanned row whose box became empty (scrolled out of its clip)
  /// keeps its lane, with an empty box that no point hits. False (nothing is wrong yet, but the
  /// scan list must be rebuilt) when a changed row must join the scan or is no longer hittable.
  mutating func _moveChanged(_ frame: PresentationFrame) -> Bool {
    if !slotsCurrent { _fillSlots(frame.count) }
    var written = 0
    let runs = frame.changedRuns()
    for i in 0..<runs.count {
      for r in runs[i].rows {
        let s = Int(slot[r])
        if s < 0 {
          guard !Self._scans(frame, r) else { return false }
          continue
        }
        guard frame.flags[r].contains(.hittable) else { return false }
        _write(frame, r, at: s)
        written += 1
      }
    }
    _reindexed = written
    return true
  }

  mutating func _fillSlots(_ n: Int) {
    precondition(slot.count == n, "slots sized by the last rebuild")
    slot.withUnsafeMutableBufferPointer { s in
      s.update(repeating: -1)
      for (k, r) in rows.enumerated() where r >= 0 { s[Int(r)] = Int32(k) }
    }
    slotsCurrent = true
  }

  public mutating func update(with frame: PresentationFrame) {
    let follows = binding.isFollowed(by: frame)
    binding.bind(frame)
    if follows && _moveChanged(frame) {
      _checkInvariants()
      return
    }
    rows.removeAll(keepingCapacity: true)
    if rows.capacity < frame.count + 8 { rows.reserveCapacity(frame.count + 8) }
    slotsCurrent = false
    // Sized here, so the update that fills them allocates nothing.
    if slot.count != frame.count { slot = [Int32](repeating: -1, count: frame.count) }
    var r = frame.count - 1
    while r >= 0 {
      if Self._scans(frame, r) { rows.append(Int32(r)) }
      r -= 1
    }
    _reindexed = rows.count
    while rows.count % 8 != 0 { rows.append(-1) }
    let blocks = rows.count / 8
    blockCount = blocks
    // Grow-only, sized for every row: the hittable count changes from frame to frame.
    if minX.count < blocks {
      minX = [SIMD8<Float>](repeating: .zero, count: (frame.count + 7) / 8)
      minY = minX
      maxX = minX
      maxY = minX
    }
    rows.withUnsafeBufferPointer { rs in
      for b in 0..<blocks {
        var x0 = SIMD8<Float>(repeating: .infinity)
        var y0 = x0
        var x1 = SIMD8<Float>(repeating: -.infinity)
        var y1 = x1
        for k in 0..<8 {
          let r = Int(rs[b &* 8 &+ k])
          if r < 0 { continue }
          x0[k] = _floatDown(frame.worldBox[r].minX)
          y0[k] = _floatDown(frame.worldBox[r].minY)
          x1[k] = _floatUp(frame.worldBox[r].maxX)
          y1[k] = _floatUp(frame.worldBox[r].maxY)
        }
        minX[b] = x0
        minY[b] = y0
        maxX[b] = x1
        maxY[b] = y1
      }
    }
    _checkInvariants()
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { (rows.capacity + slot.capacity) * 4 + minX.capacity * 4 * 32 }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    let px = SIMD8<Float>(repeating: Float(p.x))
    let py = SIMD8<Float>(repeating: Float(p.y))
    _checkCurrent(binding)
    let f = binding.frame
    return rows.withUnsafeBufferPointer { rs -> LayerID? in
      minX.withUnsafeBufferPointer { x0 in
        minY.withUnsafeBufferPointer { y0 in
          maxX.withUnsafeBufferPointer { x1 in
            maxY.withUnsafeBufferPointer { y1 in
              var b = 0
              let blocks = blockCount
              while b < blocks {
                counter.tested(8)
                let inside = (px .>= x0[b]) .& (px .<= x1[b]) .& (py .>= y0[b]) .& (py .<= y1[b])
                if any(inside) {
                  for k in 0..<8 where inside[k] {
                    let r = Int(rs[b &* 8 &+ k])
                    if f.isCandidate(r, p, counting: &counter) { return f.layer[r] }
                  }
                }
                b &+= 1
              }
              return nil
            }
          }
        }
      }
    }
  }
}
