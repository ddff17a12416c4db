import Clocks
import Synchronization
import Tracing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Holds background window builds at their next checkpoint (every 4,096 groups of their bounds,
/// between an index's passes), so that untimed or other strategies' work lends them no wall
/// time a real frame would not have. Two kinds of hold:
/// - process-wide (`hold`/`resume`): every build, while the runner does untimed work between
///   frames (`run --verify`'s reference check; a million-layer check of about 0.15 s a frame let
///   every window finish in time, docs/optimisation-log.md entry 34);
/// - one strategy's (`BackgroundGate`): its builds, while another strategy's frames run in an
///   interleaved run.
/// A held build leaves the time it waited out of its build time (`heldNanosecondsOnThisThread`).
/// A checkpoint costs two relaxed loads when nothing is held, and a thread-local read and a
/// relaxed add on a background builder's thread (its gate counts the pass, for tests).
public enum BuildPause {
  /// Process-wide holds in force (runners in parallel tests may overlap).
  static let _holders = Atomic<Int>(0)
  /// Gates held (any strategy's): while 0, a checkpoint looks no further.
  static let _gatesHeld = Atomic<Int>(0)

  /// Holds every build at its next checkpoint until `resume`.
  public static func hold() { _holders.add(1, ordering: .acquiringAndReleasing) }

  /// Ends a `hold`: held builds go on once every hold has ended (and their gate is open).
  public static func resume() { _holders.subtract(1, ordering: .acquiringAndReleasing) }

  /// What the calling background thread has waited at checkpoints so far, in nanoseconds (0 on
  /// any other thread, which never waits): a build subtracts what grew while it ran.
  static var heldNanosecondsOnThisThread: UInt64 { _BackgroundThread.current?.heldNanoseconds ?? 0 }

  /// Where a build may be held (returns at once when nothing holds, having counted the pass
  /// for the thread's gate).
  @inline(__always) static func checkpoint() {
    if _holders.load(ordering: .relaxed) > 0 || _gatesHeld.load(ordering: .relaxed) > 0 {
      _wait()
    } else {
      _BackgroundThread.current?.countPass()
    }
  }

  /// A checkpoint every 4,096 iterations of a loop over i.
  @inline(__always) static func checkpoint(every i: Int) {
    if i & 4095 == 0 { checkpoint() }
  }

  @inline(never) static func _wait() {
    guard let thread = _BackgroundThread.current else {
      // Not a background builder (a build on the frame's thread): only process-wide holds.
      while _holders.load(ordering: .acquiring) > 0 { usleep(50) }
      return
    }
    guard thread.mustWait else { return thread.countPass() }
    let t0 = Clocks.monotonicNanoseconds()
    thread.gate?._working.subtract(1, ordering: .acquiringAndReleasing)
    while thread.mustWait {
      // A held gate sleeps until released (another strategy's block: milliseconds, and no
      // CPU of its own to charge to that strategy's frames); a process-wide hold polls.
      if let gate = thread.gate, gate.isHeld { gate._sleep(while: thread.mustWait) } else { usleep(50) }
    }
    thread.gate?._working.add(1, ordering: .acquiringAndReleasing)
    let held = Clocks.monotonicNanoseconds() &- t0
    thread.heldNanoseconds &+= held
    Trace.slice(.held, start: t0, duration: held, process: thread.traceProcess)
  }
}

/// One strategy's background work, held as a whole while another strategy's frames run (an
/// interleaved run, where strategies take turns in blocks of frames). A background thread
/// belongs to the gate that was current (`withCurrent`) on the thread that created it.
/// `hold` returns once none of its threads works, so after it nothing of this strategy runs
/// until `release`.
public final class BackgroundGate: @unchecked Sendable {
  let _held = Atomic<Bool>(false)
  /// Its threads at work and not waiting at a checkpoint.
  let _working = Atomic<Int>(0)
  /// Checkpoints its threads passed without waiting (tests count them across another
  /// strategy's block: none may pass).
  let _passed = Atomic<Int>(0)

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let released = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  public init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(released, nil)
  }

  deinit {
    release()
    pthread_cond_destroy(released)
    pthread_mutex_destroy(mutex)
    released.deallocate()
    mutex.deallocate()
  }

  /// Stops this strategy's background work at its next checkpoint, and returns when it has
  /// stopped there or finished (a checkpoint comes every few microseconds of a build).
  public func hold() {
    if !_held.exchange(true, ordering: .acquiringAndReleasing) {
      BuildPause._gatesHeld.add(1, ordering: .acquiringAndReleasing)
    }
    while _working.load(ordering: .acquiring) > 0 { usleep(20) }
  }

  /// Lets this strategy's background work go on.
  public func release() {
    pthread_mutex_lock(mutex)
    let was = _held.exchange(false, ordering: .acquiringAndReleasing)
    pthread_cond_broadcast(released)
    pthread_mutex_unlock(mutex)
    if was { BuildPause._gatesHeld.subtract(1, ordering: .acquiringAndReleasing) }
  }

  /// Sleeps while `waiting` and the gate is held, until a broadcast (`release`, or a stopping
  /// thread's `_wakeAll`). Both are read under the mutex those take to broadcast, so neither
  /// can fall between the check and the sleep.
  func _sleep(while waiting: @autoclosure () -> Bool) {
    pthread_mutex_lock(mutex)
    if waiting() && _held.load(ordering: .acquiring) { pthread_cond_wait(released, mutex) }
    pthread_mutex_unlock(mutex)
  }

  /// Wakes its sleeping threads without releasing (a thread told to stop rechecks).
  func _wakeAll() {
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(released)
    pthread_mutex_unlock(mutex)
  }

  /// Whether it is held.
  public var isHeld: Bool { _held.load(ordering: .acquiring) }

  /// Checkpoints its threads have passed without waiting.
  public var checkpointsPassed: Int { _passed.load(ordering: .acquiring) }

  /// Runs `body` with this gate current on the calling thread: the background threads made
  /// inside belong to it.
  public func withCurrent<R>(_ body: () throws -> R) rethrows -> R {
    let previous = _currentGate.get()
    _currentGate.set(self)
    defer { _currentGate.set(previous) }
    return try body()
  }

  /// The gate current on the calling thread, if any.
  static var current: BackgroundGate? { _currentGate.get() }
}

/// A background builder thread's record: its gate and the time it waited at checkpoints.
/// Made where the thread is created (no allocation on the thread), installed by the thread.
final class _BackgroundThread: @unchecked Sendable {
  let gate: BackgroundGate?
  var heldNanoseconds: UInt64 = 0
  /// The trace's process current where it was made (its strategy's).
  let traceProcess = Trace.currentProcess
  /// Set as its worker stops: a build still running finishes unheld, so the join ends.
  let _stopping = Atomic<Bool>(false)

  /// A record for a thread about to be created on the calling thread, in its current gate.
  init() { gate = BackgroundGate.current }

  /// Whether a build on this thread must wait now.
  var mustWait: Bool {
    guard !_stopping.load(ordering: .acquiring) else { return false }
    return BuildPause._holders.load(ordering: .acquiring) > 0 || (gate?._held.load(ordering: .acquiring) ?? false)
  }

  /// Its worker stops: no hold keeps it from finishing.
  func stop() {
    _stopping.store(true, ordering: .releasing)
    // Under the gate's mutex: a thread about to sleep either sees the flag or is woken.
    gate?._wakeAll()
  }

  /// A checkpoint passed without waiting, counted by its gate.
  func countPass() { gate?._passed.add(1, ordering: .relaxed) }

  /// Makes this the calling thread's record (on the thread, as it starts).
  func install() { _threadRecord.set(self) }

  /// A piece of work starts (waiting first while held) and ends.
  func beginWork() {
    gate?._working.add(1, ordering: .acquiringAndReleasing)
    if mustWait { BuildPause._wait() }
  }

  func endWork() { gate?._working.subtract(1, ordering: .acquiringAndReleasing) }

  /// The calling thread's record (nil: not a background builder).
  static var current: _BackgroundThread? { _threadRecord.get() }
}

/// A thread-local reference, unretained (its owner keeps the object alive while it is set).
private final class _ThreadLocal<T: AnyObject>: @unchecked Sendable {
  private var key = pthread_key_t()
  init() { pthread_key_create(&key, nil) }
  func get() -> T? {
    guard let raw = pthread_getspecific(key) else { return nil }
    return Unmanaged<T>.fromOpaque(raw).takeUnretainedValue()
  }
  func set(_ value: T?) {
    pthread_setspecific(key, value.map { Unmanaged.passUnretained($0).toOpaque() })
  }
}

private let _currentGate = _ThreadLocal<BackgroundGate>()
private let _threadRecord = _ThreadLocal<_BackgroundThread>()
