import LayerModel

#if !HITBENCH_NO_JEMALLOC
  import CJemalloc
#endif

/// jemalloc's counters for the calling process: how many allocations and bytes so far. Linking
/// this module links Debian's jemalloc, which replaces malloc for the whole process, so every
/// Swift allocation is counted. A reading flushes this thread's cache and bumps the stats epoch
/// (a few microseconds): take readings outside timed regions.
public enum AllocationCounter {
  /// Totals since the process started.
  public struct Reading: Sendable, Equatable {
    /// Allocation requests in the whole process (small and large, all arenas).
    public var allocations: UInt64
    /// Bytes allocated by the calling thread (jemalloc's `thread.allocated`): exact for this
    /// thread whatever other threads do, and zero exactly when this thread allocated nothing.
    public var bytes: UInt64

    public static func - (a: Reading, b: Reading) -> Reading {
      Reading(allocations: a.allocations &- b.allocations, bytes: a.bytes &- b.bytes)
    }
  }

  /// Whether jemalloc answers (false would mean the system malloc is in use).
  public static var isAvailable: Bool { _value("epoch") != nil }

  /// Whether this build links jemalloc (not in sanitizer builds: `HITBENCH_NO_JEMALLOC`). Tests
  /// that measure allocations run only when it does.
  #if HITBENCH_NO_JEMALLOC
    public static let isLinked = false
  #else
    public static let isLinked = true
  #endif

  /// The counters now. Allocation-free itself: names are static C strings and values land in
  /// stack variables.
  public static func read() -> Reading {
    _ = _cString("thread.tcache.flush") { _mallctl($0, nil, nil, nil, 0) }
    var newEpoch: UInt64 = 1
    var oldEpoch: UInt64 = 0
    var len = MemoryLayout<UInt64>.size
    _ = _cString("epoch") { _mallctl($0, &oldEpoch, &len, &newEpoch, len) }
    let small = _value("stats.arenas.4096.small.nrequests")
    let large = _value("stats.arenas.4096.large.nrequests")
    let bytes = _value("thread.allocated")
    return Reading(allocations: (small ?? 0) &+ (large ?? 0), bytes: bytes ?? 0)
  }

  /// Runs `body` and answers what it allocated (the counters' own reads are not counted: two
  /// back-to-back readings differ by zero).
  /// Invariant checks (which allocate) are suspended inside `body`.
  public static func measure(_ body: () throws -> Void) rethrows -> Reading {
    try InternalChecks.$suspended.withValue(true) {
      let before = read()
      try body()
      return read() - before
    }
  }

  static func _value(_ name: StaticString) -> UInt64? {
    var v: UInt64 = 0
    var len = MemoryLayout<UInt64>.size
    let rc = _cString(name) { _mallctl($0, &v, &len, nil, 0) }
    return rc == 0 ? v : nil
  }

  /// jemalloc's `mallctl`, or "no such control" without jemalloc.
  static func _mallctl(
    _ name: UnsafePointer<CChar>, _ old: UnsafeMutableRawPointer?, _ oldLength: UnsafeMutablePointer<Int>?,
    _ new: UnsafeMutableRawPointer?, _ newLength: Int
  ) -> Int32 {
    #if HITBENCH_NO_JEMALLOC
      return 2  // ENOENT
    #else
      return mallctl(name, old, oldLength, new, newLength)
    #endif
  }

  /// A static string as a C string without the copy a `String` argument makes.
  static func _cString<R>(_ s: StaticString, _ body: (UnsafePointer<CChar>) -> R) -> R {
    s.withUTF8Buffer { buf in buf.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
  }
}
