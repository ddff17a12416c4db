import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Small ids for the threads a trace shows, with their names: each thread takes the next id the
/// first time it records (a thread-local read afterwards, no allocation), and a helper names
/// itself as it starts (`name`). Id 0 is the thread that first recorded (the frame's thread).
public enum TraceThreads {
  /// Ids beyond this share the last one (a run has a few threads).
  public static let capacity = 64

  /// The calling thread's id.
  @inline(__always) public static var current: UInt8 {
    if let raw = pthread_getspecific(_key.key) { return UInt8(truncatingIfNeeded: Int(bitPattern: raw) - 1) }
    return _assign()
  }

  /// Names the calling thread `role` `index` ("build worker 1"), once, as it starts: it takes
  /// a lock, and allocates nothing (the name is made when the trace is written).
  public static func name(_ role: StaticString, _ index: Int = 0) {
    let id = Int(current)
    pthread_mutex_lock(_names.mutex)
    _names.roles[id] = (role, index)
    pthread_mutex_unlock(_names.mutex)
  }

  /// Every named thread's id and name.
  public static var names: [(id: Int, name: String)] {
    pthread_mutex_lock(_names.mutex)
    defer { pthread_mutex_unlock(_names.mutex) }
    return _names.roles.enumerated().compactMap { i, n in
      n.map { (i, $0.index > 0 ? "\($0.role) \($0.index)" : "\($0.role)") }
    }
  }

  @inline(never) static func _assign() -> UInt8 {
    let id = Swift.min(_next.add(1, ordering: .relaxed).oldValue, capacity - 1)
    pthread_setspecific(_key.key, UnsafeRawPointer(bitPattern: id + 1))
    return UInt8(id)
  }
}

private let _next = Atomic<Int>(0)

private final class _Key: @unchecked Sendable {
  var key = pthread_key_t()
  init() { pthread_key_create(&key, nil) }
}
private let _key = _Key()

private final class _Names: @unchecked Sendable {
  let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  var roles = [(role: StaticString, index: Int)?](repeating: nil, count: TraceThreads.capacity)
  init() { pthread_mutex_init(mutex, nil) }
}
private let _names = _Names()
