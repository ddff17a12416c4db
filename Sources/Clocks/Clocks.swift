#if canImport(Glibc)
  import Glibc
#endif

/// The clocks measurements read: the monotonic wall clock (what a frame takes) and the process's
/// CPU clock (what every thread of it spent, so work moved to a second core is counted). Each
/// reading is one `clock_gettime` (the monotonic one through the vDSO, tens of nanoseconds; the
/// CPU one a system call, a few hundred).
public enum Clocks {
  /// Nanoseconds on the monotonic clock.
  @inlinable @inline(__always) public static func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// CPU nanoseconds spent by every thread of this process so far.
  @inlinable public static func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }
}
