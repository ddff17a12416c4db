/// Memory a strategy owns for its queries (an explicit stack), allocated in `update` and reused:
/// queries are non-mutating and allocate nothing. One strategy value per thread.
public final class ScratchBuffer<Element> {
  public private(set) var base: UnsafeMutablePointer<Element>
  public private(set) var capacity: Int

  public init() {
    capacity = 0
    base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
  }

  /// Makes room for `n` elements (contents are not kept when it grows). Grows at least
  /// twofold, so a size that creeps up from frame to frame (entries of a re-index) allocates a
  /// logarithmic number of times, not at every new maximum.
  public func reserve(_ n: Int) {
    guard n > capacity else { return }
    base.deallocate()
    capacity = Swift.max(n, capacity * 2, 16)
    base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
  }

  deinit { base.deallocate() }
}

/// Conservative Float conversions: the Float box always contains the Double box, so a Float
/// filter never rejects a point the exact Double test would accept.
@inlinable @inline(__always) func _floatDown(_ d: Double) -> Float {
  let f = Float(d)
  return Double(f) > d ? f.nextDown : f
}

@inlinable @inline(__always) func _floatUp(_ d: Double) -> Float {
  let f = Float(d)
  return Double(f) < d ? f.nextUp : f
}
