#if canImport(Glibc)
  import Glibc
#endif

/// The threads that work for a frame besides the frame's own (the presentation build's workers,
/// a time-aware strategy's background builder), registered by role, so that a frame's CPU time
/// can be split between its thread and its helpers. A helper registers when it starts and
/// unregisters before it ends (its CPU time then moves to its role's retired total, so a role's
/// total never steps back). Reading a role costs one system call per live helper of that role
/// (a few hundred nanoseconds), and registering takes a lock: neither happens inside a timed
/// region.
public enum HelperThreads {
  public enum Role: Int, CaseIterable, Sendable {
    /// A worker of the presentation build (`BuildWorkers`).
    case buildWorker
    /// A strategy's background work (a time-aware strategy's window builder).
    case background
  }

  /// Registers the calling thread as a helper of `role` (once per thread).
  public static func registerCurrentThread(_ role: Role) {
    var clock = clockid_t()
    guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return }
    _registry.register(thread: pthread_self(), clock: clock, role: role)
  }

  /// Unregisters the calling thread, moving the CPU time it spent to its role's retired total.
  public static func unregisterCurrentThread() {
    _registry.unregister(thread: pthread_self(), spent: Clocks.threadCPUNanoseconds())
  }

  /// CPU nanoseconds spent so far by every helper of `role`, live or ended.
  public static func cpuNanoseconds(_ role: Role) -> UInt64 { _registry.cpuNanoseconds(role) }
}

/// The registered helpers, under a mutex (a few entries; registration is rare).
private final class _HelperRegistry: @unchecked Sendable {
  struct Entry {
    var thread: pthread_t
    var clock: clockid_t
    var role: HelperThreads.Role
  }
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var entries: [Entry] = []
  private var retired = [UInt64](repeating: 0, count: HelperThreads.Role.allCases.count)

  init() {
    pthread_mutex_init(mutex, nil)
    // Room for the helpers a run makes, so that registering does not allocate in a frame.
    entries.reserveCapacity(64)
  }

  func register(thread: pthread_t, clock: clockid_t, role: HelperThreads.Role) {
    pthread_mutex_lock(mutex)
    entries.append(Entry(thread: thread, clock: clock, role: role))
    pthread_mutex_unlock(mutex)
  }

  func unregister(thread: pthread_t, spent: UInt64) {
    pthread_mutex_lock(mutex)
    if let i = entries.firstIndex(where: { pthread_equal($0.thread, thread) != 0 }) {
      retired[entries[i].role.rawValue] &+= spent
      entries.remove(at: i)
    }
    pthread_mutex_unlock(mutex)
  }

  func cpuNanoseconds(_ role: HelperThreads.Role) -> UInt64 {
    pthread_mutex_lock(mutex)
    var total = retired[role.rawValue]
    for e in entries where e.role == role { total &+= Clocks.cpuNanoseconds(of: e.clock) ?? 0 }
    pthread_mutex_unlock(mutex)
    return total
  }
}

private let _registry = _HelperRegistry()
