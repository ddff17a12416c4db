import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A run's timeline for Perfetto or chrome://tracing (`hitbench run --trace FILE.json`): slices
/// of work on the thread that did it (a frame and its phases, a build worker's job, a
/// background window build, a held wait), instants and counters, each under the strategy it
/// was for. Events go to a buffer allocated before the first frame (`start`), claimed with one
/// atomic add each, so recording allocates nothing and takes no lock; when it is full, later
/// events are counted as dropped. Off (the default), every recording site costs one relaxed
/// load of a flag.
public enum Trace {
  /// What an event is.
  public enum Name: UInt8, CaseIterable, Sendable {
    case frame, build, update, queries, buildJob, windowBuild, held, lateWindow, candidatesPerQuery, windowMs,
      waitedWindow

    /// Its name on the timeline.
    public var label: String {
      switch self {
      case .frame: "frame"
      case .build: "build"
      case .update: "update"
      case .queries: "queries"
      case .buildJob: "build job"
      case .windowBuild: "window build"
      case .held: "held"
      case .lateWindow: "late window"
      case .waitedWindow: "waited for window"
      case .candidatesPerQuery: "candidates per query"
      case .windowMs: "window ms"
      }
    }

    /// Its kind in the trace event format: a complete slice, an instant or a counter.
    public var phase: String {
      switch self {
      case .lateWindow, .waitedWindow: "i"
      case .candidatesPerQuery, .windowMs: "C"
      default: "X"
      }
    }
  }

  /// One recorded event: 40 bytes.
  public struct Event: Sendable, Equatable {
    public var start: UInt64
    public var duration: UInt64
    public var value: Double
    /// The frame's index in its run (frame slices and counters; -1 otherwise).
    public var frame: Int32
    public var process: UInt16
    public var thread: UInt8
    public var name: Name
    /// Whether a frame slice is of a measured frame (not warm-up).
    public var measured: Bool
  }

  /// Whether events are being recorded.
  @inline(__always) public static var isOn: Bool { _isOn.load(ordering: .relaxed) }

  /// Starts recording into a buffer of `capacity` events (the old one, if any, is dropped).
  /// Not while anything records.
  public static func start(capacity: Int) {
    _buffer.reset(capacity: Swift.max(capacity, 1))
    _isOn.store(true, ordering: .releasing)
  }

  /// Stops recording and hands back what was recorded, in the order it was claimed, and how
  /// many events did not fit. Not while anything records.
  public static func stop() -> (events: [Event], dropped: Int) {
    _isOn.store(false, ordering: .releasing)
    return _buffer.drain()
  }

  /// The strategy being measured now (a trace's process): set by the runner before each of
  /// its blocks, read by the build's workers as a job starts.
  public static func setCurrentProcess(_ process: Int) {
    _currentProcess.store(process, ordering: .relaxed)
  }

  public static var currentProcess: Int { _currentProcess.load(ordering: .relaxed) }

  /// A new process of the trace (a strategy at one Q of one configuration), named `name`:
  /// its id. Takes a lock and allocates: not in a timed region.
  public static func registerProcess(_ name: String) -> Int {
    pthread_mutex_lock(_processes.mutex)
    defer { pthread_mutex_unlock(_processes.mutex) }
    _processes.names.append(name)
    return _processes.names.count
  }

  /// The registered processes' names, by id (from 1).
  public static var processNames: [String] {
    pthread_mutex_lock(_processes.mutex)
    defer { pthread_mutex_unlock(_processes.mutex) }
    return _processes.names
  }

  /// Records a slice of `name` from `start` for `duration` ns on the calling thread.
  @inline(__always) public static func slice(
    _ name: Name, start: UInt64, duration: UInt64, process: Int = currentProcess, frame: Int = -1,
    measured: Bool = true
  ) {
    guard isOn else { return }
    _record(
      Event(
        start: start, duration: duration, value: 0, frame: Int32(truncatingIfNeeded: frame),
        process: UInt16(truncatingIfNeeded: process), thread: TraceThreads.current, name: name, measured: measured))
  }

  /// Records an instant of `name` at `time` on the calling thread.
  @inline(__always) public static func instant(_ name: Name, at time: UInt64, process: Int = currentProcess) {
    guard isOn else { return }
    _record(
      Event(
        start: time, duration: 0, value: 0, frame: -1, process: UInt16(truncatingIfNeeded: process),
        thread: TraceThreads.current, name: name, measured: true))
  }

  /// Records counter `name`'s value at `time`.
  @inline(__always) public static func counter(_ name: Name, _ value: Double, at time: UInt64, frame: Int) {
    guard isOn else { return }
    _record(
      Event(
        start: time, duration: 0, value: value, frame: Int32(truncatingIfNeeded: frame),
        process: UInt16(truncatingIfNeeded: currentProcess), thread: TraceThreads.current, name: name,
        measured: true))
  }

  @inline(never) static func _record(_ e: Event) { _buffer.append(e) }
}

private let _isOn = Atomic<Bool>(false)
private let _currentProcess = Atomic<Int>(0)
private let _buffer = _TraceBuffer()

private final class _Processes: @unchecked Sendable {
  let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  var names: [String] = []
  init() { pthread_mutex_init(mutex, nil) }
}
private let _processes = _Processes()

/// The events' storage: a fixed block of `capacity`, claimed slot by slot.
private final class _TraceBuffer: @unchecked Sendable {
  private var events: UnsafeMutableBufferPointer<Trace.Event> = .init(start: nil, count: 0)
  private let claimed = Atomic<Int>(0)

  func reset(capacity: Int) {
    events.baseAddress?.deallocate()
    events = .allocate(capacity: capacity)
    claimed.store(0, ordering: .releasing)
  }

  @inline(__always) func append(_ e: Trace.Event) {
    let i = claimed.add(1, ordering: .relaxed).oldValue
    guard i < events.count else { return }
    (events.baseAddress! + i).initialize(to: e)
  }

  func drain() -> (events: [Trace.Event], dropped: Int) {
    let n = claimed.load(ordering: .acquiring)
    let kept = Swift.min(n, events.count)
    let out = Array(events[0..<kept])
    events.baseAddress?.deallocate()
    events = .init(start: nil, count: 0)
    claimed.store(0, ordering: .releasing)
    return (out, n - kept)
  }
}
