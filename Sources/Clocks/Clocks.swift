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
    return nanoseconds(ts)
  }

  /// CPU nanoseconds spent by the calling thread so far.
  @inlinable public static func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return nanoseconds(ts)
  }

  /// A clock reading in nanoseconds.
  @inlinable @inline(__always) public static func nanoseconds(_ ts: timespec) -> UInt64 {
    UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// Sleeps until the monotonic clock reads `deadline` (at once when it has passed; a signal
  /// that interrupts the sleep resumes it).
  public static func sleep(untilMonotonic deadline: UInt64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
  }

  /// CPU nanoseconds spent by every thread of this process so far.
  @inlinable public static func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return nanoseconds(ts)
  }
}
