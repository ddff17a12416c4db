import LayerModel
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// jemalloc's counters for the whole process: allocation requests and bytes so far, on every
/// thread that takes part in a frame. Debian's jemalloc (linked by BenchKit) replaces malloc
/// process-wide; this module finds its `mallctl` at run time, so it links nothing itself and
/// reads zero (`isAvailable` false) in a process without jemalloc (sanitizer builds).
///
/// The calling thread's cache is flushed at each reading; a worker thread that does a frame's
/// work calls `registerCurrentThread()` once, which turns its cache off (every request it makes
/// reaches the arenas' counters at once) and adds its byte counter to the readings. A reading
/// costs a few microseconds: take them outside timed regions.
public enum AllocationCounter {
  /// Totals since the process started.
  public struct Reading: Sendable, Equatable {
    /// Allocation requests in the whole process (small and large, all arenas).
    public var allocations: UInt64
    /// Bytes allocated by the calling thread and every registered thread (jemalloc's
    /// `thread.allocated`, exact per thread).
    public var bytes: UInt64
    /// Bytes allocated by the calling thread alone: what an in-process test asserts on while
    /// other tests' registered workers allocate in parallel.
    public var callingThreadBytes: UInt64

    public init(allocations: UInt64, bytes: UInt64, callingThreadBytes: UInt64) {
      (self.allocations, self.bytes, self.callingThreadBytes) = (allocations, bytes, callingThreadBytes)
    }

    public static func - (a: Reading, b: Reading) -> Reading {
      Reading(
        allocations: a.allocations &- b.allocations, bytes: a.bytes &- b.bytes,
        callingThreadBytes: a.callingThreadBytes &- b.callingThreadBytes)
    }
  }

  /// Whether jemalloc answers in this process.
  public static var isAvailable: Bool { _mallctl != nil && _value("epoch") != nil }

  /// The counters now. Allocation-free itself: names are static C strings and values land in
  /// stack variables.
  public static func read() -> Reading {
    guard _mallctl != nil else { return Reading(allocations: 0, bytes: 0, callingThreadBytes: 0) }
    // The registered threads first: the registry's first use initialises it (and allocates),
    // which must happen before this reading's counters, not between two readings.
    var bytes: UInt64 = 0
    _registered.withLock { r in
      bytes = r.endedBytes
      for c in r.threads where c.thread != pthread_self() { bytes &+= c.allocated.pointee }
    }
    _ = _call("thread.tcache.flush", nil, nil, nil, 0)
    var newEpoch: UInt64 = 1
    var oldEpoch: UInt64 = 0
    var len = MemoryLayout<UInt64>.size
    _ = _call("epoch", &oldEpoch, &len, &newEpoch, len)
    let small = _value("stats.arenas.4096.small.nrequests") ?? 0
    let large = _value("stats.arenas.4096.large.nrequests") ?? 0
    let mine = _value("thread.allocated") ?? 0
    return Reading(allocations: small &+ large, bytes: bytes &+ mine, callingThreadBytes: mine)
  }

  /// Bytes the process holds on the heap now, every thread's (jemalloc's `stats.allocated`
  /// after refreshing its statistics; the calling thread's cache flushed first, so freed blocks
  /// waiting there are not counted as held). 0 without jemalloc. A few microseconds.
  public static func liveBytes() -> Int {
    guard _mallctl != nil else { return 0 }
    _ = _call("thread.tcache.flush", nil, nil, nil, 0)
    var newEpoch: UInt64 = 1
    var oldEpoch: UInt64 = 0
    var len = MemoryLayout<UInt64>.size
    _ = _call("epoch", &oldEpoch, &len, &newEpoch, len)
    return Int(_value("stats.allocated") ?? 0)
  }

  /// Freed pages handed back to the system at once from `init` to `end()` (every arena's dirty
  /// and muzzy decay times 0, then restored, then a purge): for a phase that frees much it
  /// will not reuse, such as a model compiled and dropped, whose small blocks' pages the large
  /// columns that follow cannot take. Resident memory then follows what the process holds
  /// instead of keeping the freed pages for jemalloc's 10 s decay. Does nothing without
  /// jemalloc. Not for timed regions (each freed page costs a system call).
  public struct ImmediatePageReturn: ~Copyable {
    private var saved: [(dirty: Int?, muzzy: Int?)] = []

    public init() {
      guard _mallctl != nil, let arenas = _value("arenas.narenas", as: UInt32.self) else { return }
      for a in 0..<Int(arenas) {
        saved.append((_swapDecay("arena.\(a).dirty_decay_ms", 0), _swapDecay("arena.\(a).muzzy_decay_ms", 0)))
      }
    }

    /// Restores the decay times and purges what is still held for reuse.
    public consuming func end() {
      guard _mallctl != nil else { return }
      for (a, s) in saved.enumerated() {
        if let d = s.dirty { _ = _swapDecay("arena.\(a).dirty_decay_ms", d) }
        if let m = s.muzzy { _ = _swapDecay("arena.\(a).muzzy_decay_ms", m) }
      }
      _ = _call("thread.tcache.flush", nil, nil, nil, 0)
      _ = _call("arena.4096.purge", nil, nil, nil, 0)
    }
  }

  /// Sets a decay time (`ssize_t` milliseconds) named at run time; answers the old one.
  static func _swapDecay(_ name: String, _ value: Int) -> Int? {
    guard let f = _mallctl else { return nil }
    var old = 0
    var new = value
    var len = MemoryLayout<Int>.size
    let status = name.withCString { f($0, &old, &len, &new, MemoryLayout<Int>.size) }
    return status == 0 ? old : nil
  }

  /// Runs `body` and answers its result with how much the live heap grew over it (bytes it
  /// allocated and still holds, on every thread; never negative).
  public static func retained<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> (R, bytes: Int) {
    let before = liveBytes()
    let r = try body()
    return (r, Swift.max(liveBytes() - before, 0))
  }

  /// Runs `body` and answers what it allocated on every counted thread (the counters' own reads
  /// are not counted: two back-to-back readings differ by zero). Invariant checks (which
  /// allocate) are suspended inside `body`.
  public static func measure(_ body: () throws -> Void) rethrows -> Reading {
    try InternalChecks.$suspended.withValue(true) {
      let before = read()
      try body()
      return read() - before
    }
  }

  /// Counts the calling thread in every reading from now on (a pool's worker thread, a
  /// background re-index): its cache is turned off, its byte counter added. Once per thread.
  public static func registerCurrentThread() {
    guard _mallctl != nil else { return }
    var off = false
    _ = _call("thread.tcache.enabled", nil, nil, &off, MemoryLayout<Bool>.size)
    var pointer: UnsafeMutablePointer<UInt64>?
    var len = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
    guard _call("thread.allocatedp", &pointer, &len, nil, 0) == 0, let allocated = pointer else { return }
    let me = pthread_self()
    _registered.withLock { r in
      guard !r.threads.contains(where: { $0.thread == me }) else { return }
      r.threads.append(_Counted(thread: me, allocated: allocated))
    }
  }

  /// Stops reading the calling thread's counter, just before it exits (its counter goes with
  /// it). What it allocated stays in the readings: were it dropped, a reading taken after a
  /// worker ended would be smaller than one taken before, and the difference would wrap.
  public static func unregisterCurrentThread() {
    let me = pthread_self()
    _registered.withLock { r in
      guard let i = r.threads.firstIndex(where: { $0.thread == me }) else { return }
      r.endedBytes &+= r.threads[i].allocated.pointee
      r.threads.remove(at: i)
    }
  }

  struct _Counted: @unchecked Sendable {
    var thread: pthread_t
    var allocated: UnsafeMutablePointer<UInt64>
  }

  /// The registered threads, and what the ones that have ended allocated.
  struct _Registry: @unchecked Sendable {
    var threads: [_Counted] = []
    var endedBytes: UInt64 = 0
  }

  static let _registered = Mutex<_Registry>(_Registry())

  typealias _MallctlFunction =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
    ) -> Int32

  /// jemalloc's `mallctl`, when the process has it.
  nonisolated(unsafe) static let _mallctl: _MallctlFunction? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return nil }
    return unsafeBitCast(symbol, to: _MallctlFunction.self)
  }()

  static func _call(
    _ name: StaticString, _ old: UnsafeMutableRawPointer?, _ oldLength: UnsafeMutablePointer<Int>?,
    _ new: UnsafeMutableRawPointer?, _ newLength: Int
  ) -> Int32 {
    guard let f = _mallctl else { return 2 }  // ENOENT
    return name.withUTF8Buffer { buf in
      buf.withMemoryRebound(to: CChar.self) { f($0.baseAddress!, old, oldLength, new, newLength) }
    }
  }

  /// A counter or setting read by name, `T` as wide as jemalloc declares it.
  static func _value<T: FixedWidthInteger>(_ name: StaticString, as _: T.Type = UInt64.self) -> T? {
    var v: T = 0
    var len = MemoryLayout<T>.size
    return _call(name, &v, &len, nil, 0) == 0 ? v : nil
  }
}
