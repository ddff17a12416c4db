import Columns

/// Memory a strategy's queries work in (a traversal stack), sized by its update and reused:
/// queries are non-mutating, so it lives in a class that copies of the strategy share (one
/// strategy value per thread). Reached only inside `withUnsafeMutablePointer`, so no pointer
/// outlives a `reserve`.
public final class QueryScratch<Element: BitwiseCopyable> {
  @usableFromInline var _buffer = ColumnBuffer<Element>()

  public init() {}

  /// Makes room for `n` elements (contents are not kept when it grows; at least twofold).
  public func reserve(_ n: Int) { _buffer.reserve(n) }

  public var capacity: Int { _buffer.capacity }

  /// Runs `body` with the storage (room for `reserve`'s count).
  @inlinable @inline(__always)
  public func withUnsafeMutablePointer<R>(_ body: (UnsafeMutablePointer<Element>) -> R) -> R {
    _buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
  }
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
