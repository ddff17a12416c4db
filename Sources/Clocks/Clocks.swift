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

  /// CPU nanoseconds spent so far by the thread whose CPU clock is `clock`
  /// (`pthread_getcpuclockid`), or nil when it cannot be read. A system call.
  @inlinable public static func cpuNanoseconds(of clock: clockid_t) -> UInt64? {
    var ts = timespec()
    return clock_gettime(clock, &ts) == 0 ? nanoseconds(ts) : nil
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

  /// What reading the thread CPU clock adds to a span it measures (`TimedFrames`: a frame's
  /// CPU is the reading around it minus this): the median, over `samples` empty spans read as a
  /// frame's are (the other threads' clocks read first, then the span's own two readings with
  /// four monotonic ones inside), of the thread CPU time between its readings. With
  /// `afterSleep`, each span follows a 2 ms sleep, as a paced frame follows its wait: the
  /// system call's path is then cold (about 0.8 us on the shared host against 0.5 us back to
  /// back: docs/optimisation-log.md, entry 62). Takes `samples` x 2 ms with the sleep.
  public static func threadCPUReadCost(afterSleep: Bool, samples: Int = 31) -> UInt64 {
    var spans: [UInt64] = []
    spans.reserveCapacity(samples)
    var sink: UInt64 = 0
    for _ in 0..<Swift.max(samples, 1) {
      if afterSleep { sleep(untilMonotonic: monotonicNanoseconds() &+ 2_000_000) }
      sink &+= processCPUNanoseconds() &+ threadCPUNanoseconds()
      let a = threadCPUNanoseconds()
      for _ in 0..<4 { sink &+= monotonicNanoseconds() }
      let b = threadCPUNanoseconds()
      spans.append(b > a ? b &- a : 0)
    }
    // The readings feed nothing; keep the optimiser from dropping them.
    if sink == 1 { spans.append(0) }
    spans.sort()
    return spans[spans.count / 2]
  }

  /// CPU nanoseconds spent by every thread of this process so far.
  @inlinable public static func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return nanoseconds(ts)
  }

  /// Keeps `value` alive, so that timed work whose only result it is is not optimised away
  /// (a call the optimiser cannot see into: a few instructions, outside the timings).
  @inline(never) @_optimize(none) public static func keep<T>(_ value: T) {}
}
