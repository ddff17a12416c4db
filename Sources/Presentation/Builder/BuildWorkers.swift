import Allocations
import CCallgrind
import CThreads
import Clocks
import Synchronization
import Tracing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Worker threads for the frame builder's passes, created once. A split pass is a list of
/// parts, each a job (a pass and a range; no closure, so handing one over allocates nothing),
/// several a thread: the caller posts the list and every thread, the caller included, claims
/// the next unclaimed part until none is left. So the frame's thread never waits for a worker
/// that has not started (a worker woken late, or descheduled by the host, finds fewer parts or
/// none): it waits only for parts a worker has claimed and not finished.
///
/// Waiting (docs/optimisation-log.md entry 38 has the sweep behind each choice):
/// - While a build runs (from `wake()` or its first split pass to `buildDidEnd()`), a worker
///   waiting for the next pass and the caller waiting for the workers spin, yielding the core
///   now and then: a parked thread takes hundreds of microseconds to run again on a virtual
///   machine, more than a pass at 10,000 layers takes. So a build's helpers cost at most the
///   build's wall time in CPU (a spin is also cut at 2 ms, when the host has descheduled the
///   thread waited for).
/// - When the build ends, a worker parks within `spinNanoseconds` (tens of microseconds), so
///   no thread busy-waits between frames; a build that will split wakes the workers as it
///   starts, so that their wake-up overlaps the work before its first split pass.
/// - Each worker is pinned to a CPU of its own (the second allowed CPU, the third...): the
///   kernel wakes a thread on its waker's CPU, where a worker woken by the frame's thread ran
///   beside nothing until the balancer moved it, and the split saved no time.
///
/// Costs: posting a pass is one atomic store, plus a lock and a broadcast when a worker is
/// parked; claiming a part is one compare-and-swap.
final class BuildWorkers: @unchecked Sendable {
  /// Below this many rows (or layers) a pass is not worth splitting.
  static let minimumRowsToSplit = BuildTuning.integer("HITBENCH_BUILD_SPLIT_ROWS", default: 4096)
  /// In a scene that large, pass 1's lists (the tracks, the layers evaluated one by one) are
  /// split from this many: a worker woken for the build then evaluates some of them instead of
  /// spinning until pass 3 (app 10k: 924 tracks; docs/optimisation-log.md entry 59).
  static let minimumListToSplit = BuildTuning.integer("HITBENCH_BUILD_SPLIT_LIST", default: 512)
  /// Below this many rows to recompute, an incremental pass 3 runs on the calling thread: a
  /// few hundred rows cost less than handing half of them to a worker, which on this shared
  /// machine is now and then descheduled for milliseconds (the build's p99).
  static let minimumChangedRowsToSplit = 512
  /// How many parts a split pass has for each thread: enough that a thread that starts late
  /// still finds some, few enough that the chains composed before a split pass 3 (one per part)
  /// stay short. (The research setting is clamped to 1-256: with the 64 threads `--threads`
  /// allows, a pass's parts fit the claims word's 16 bits.)
  static let partsPerThread = Swift.min(
    Swift.max(1, BuildTuning.integer("HITBENCH_BUILD_PARTS_PER_THREAD", default: 4)), 256)
  /// How long a waiting thread spins before it parks when no build runs.
  static let spinNanoseconds = UInt64(BuildTuning.integer("HITBENCH_BUILD_SPIN_US", default: 20)) * 1000
  /// How long it spins at most while a build runs.
  static let buildSpinLimitNanoseconds =
    UInt64(BuildTuning.integer("HITBENCH_BUILD_SPIN_LIMIT_US", default: 2000)) * 1000
  /// Whether waiting threads spin for as long as a build runs (else they park after
  /// `spinNanoseconds` wherever they are), whether a build that will split wakes the parked
  /// workers as it starts, and whether workers are pinned to CPUs of their own: the sweep's
  /// settings, on by default.
  static let spinsThroughBuild = BuildTuning.integer("HITBENCH_BUILD_SPIN_THROUGH", default: 1) != 0
  static let wakesAhead = BuildTuning.integer("HITBENCH_BUILD_WAKE_AHEAD", default: 1) != 0
  static let pinsWorkers = BuildTuning.integer("HITBENCH_BUILD_PIN", default: 1) != 0
  /// Whether a two-thread builder decides per build whether to split (`SplitGovernor`; 0: as
  /// before, whenever a pass is large enough).
  static let adaptsSplits = BuildTuning.integer("HITBENCH_BUILD_ADAPTIVE", default: 1) != 0
  /// Tests only: a pause, in microseconds, between deciding to park and parking (a worker's and
  /// the caller's), which widens the window a lost wake-up would need (0: none).
  static let _parkDelayMicroseconds = Atomic<Int>(0)

  enum JobKind: Int {
    case evaluateRange, evaluateList, evaluateTracks, composeAll, composeChanged
  }

  struct Job {
    var kind = JobKind.composeAll
    /// Which part of the pass.
    var part = 0
    var lo = 0
    var hi = 0
    var animated = true
    var columns = FrameColumns.all
  }

  /// What a worker's job produced.
  struct Result {
    var rows = 0
    var keysChanged = 0
  }

  /// Workers (the calling thread is one more).
  let count: Int
  /// The most parts a pass can have: `partsPerThread` for each thread.
  let capacity: Int
  /// Jobs and results, one per part: a job written by the caller before its pass is posted, a
  /// result by the thread that claimed the part and read by the caller once every part is done.
  let jobs: UnsafeMutablePointer<Job>
  let results: UnsafeMutablePointer<Result>
  private var threads: [pthread_t] = []
  /// The workers' CPU clocks (`cpuNanoseconds()`).
  private var clocks: [clockid_t] = []
  /// The posted pass in one word, so that a claim is one compare-and-swap that can never take
  /// a part of a later pass: its generation (bits 32-63), its part count (16-31) and the next
  /// unclaimed part (0-15).
  private let claims = Atomic<UInt64>(0)
  /// Parts of the posted pass finished.
  private let finishedParts = Atomic<Int>(0)
  /// Tests only: while set, this pool's workers claim no part of a pass they see posted (as
  /// workers the host does not run), so the caller must run them all.
  let _workersHeld = Atomic<Bool>(false)
  private let stopping = Atomic<Bool>(false)
  /// Whether a build runs: set by `wake()` and `run`, cleared by `buildDidEnd()`.
  private let building = Atomic<Bool>(false)
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let posted = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Signalled by the last worker to finish a run when the caller parked waiting for it.
  private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Workers asleep on `posted`, and whether the caller is asleep on `finished` (both guarded
  /// by the mutex).
  private var sleeping = 0
  private var callerParked = false
  /// How many times a worker parked, and the caller parked waiting for the workers (guarded by
  /// the mutex; read by tests to show that they exercised both paths).
  private(set) var workerParks = 0
  private(set) var callerParks = 0
  private unowned(unsafe) var builder: PresentationFrameBuilder?

  init(count: Int) {
    // Every setting read now: a static is initialised on first use, and the first wait to
    // outlast the spin bound (the first use of the spin limit) falls inside some frame.
    _ = (
      Self.minimumRowsToSplit, Self.minimumListToSplit, Self.partsPerThread, Self.spinNanoseconds,
      Self.buildSpinLimitNanoseconds, Self.spinsThroughBuild,
      Self.wakesAhead, Self.pinsWorkers, Self.adaptsSplits
    )
    self.count = count
    capacity = (count + 1) * Self.partsPerThread
    // A pass's part count and next part are 16 bits each in the claims word.
    precondition(capacity <= 0xffff, "\(count + 1) threads of \(Self.partsPerThread) parts: at most 65,535 parts")
    jobs = .allocate(capacity: capacity)
    jobs.initialize(repeating: Job(), count: capacity)
    results = .allocate(capacity: capacity)
    results.initialize(repeating: Result(), count: capacity)
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(posted, nil)
    pthread_cond_init(finished, nil)
    for i in 0..<count {
      let context = Unmanaged.passRetained(WorkerContext(pool: self, index: i)).toOpaque()
      var t = pthread_t()
      pthread_create(
        &t, nil,
        { raw in
          let c = Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue()
          TraceThreads.name("build worker", c.index + 1)
          // A build's allocations on this thread are the frame's too.
          AllocationCounter.registerCurrentThread()
          HelperThreads.registerCurrentThread(.buildWorker)
          if BuildWorkers.pinsWorkers {
            // Worker i on the (i + 1)-th CPU the process may use (the frame's thread tends to
            // stay on the first); a refusal leaves it unpinned.
            _ = hitbench_pin_current_thread_off_first(Int32(c.index + 1))
          }
          // Borrowed, not retained (as in BackgroundWorker): a thread that held the pool would
          // keep it alive for ever, and deinit, which stops and joins the threads, never ran.
          c.pool._withUnsafeGuaranteedRef { $0._work(c.index) }
          HelperThreads.unregisterCurrentThread()
          AllocationCounter.unregisterCurrentThread()
          return nil
        }, context)
      threads.append(t)
      var clock = clockid_t()
      if pthread_getcpuclockid(t, &clock) == 0 { clocks.append(clock) }
    }
  }

  deinit {
    stopping.store(true, ordering: .releasing)
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(posted)
    pthread_mutex_unlock(mutex)
    for t in threads { pthread_join(t, nil) }
    pthread_cond_destroy(posted)
    pthread_cond_destroy(finished)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    posted.deallocate()
    finished.deallocate()
    jobs.deallocate()
    results.deallocate()
  }

  /// CPU nanoseconds the workers have spent so far (parts and spinning): one system call a
  /// worker.
  func cpuNanoseconds() -> UInt64 {
    clocks.reduce(0) { $0 &+ (Clocks.cpuNanoseconds(of: $1) ?? 0) }
  }

  /// The park counts, read under the mutex.
  var parks: (workers: Int, caller: Int) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return (workerParks, callerParks)
  }

  /// Wakes parked workers so that they spin, ready for the jobs a build is about to post: a
  /// parked thread can take hundreds of microseconds to run again on a virtual machine (its
  /// idle virtual CPU must be woken first), so a build that will split calls this as it
  /// starts, and the wake-up overlaps the work before the first split pass.
  func wake() {
    building.store(true, ordering: .relaxed)
    guard Self.wakesAhead else { return }
    pthread_mutex_lock(mutex)
    if sleeping > 0 { pthread_cond_broadcast(posted) }
    pthread_mutex_unlock(mutex)
  }

  /// Runs the parts `jobs[0 ..< parts]` of a pass on whichever threads claim them, the
  /// calling thread included, and returns when all are done.
  func run(parts: Int, for builder: PresentationFrameBuilder) {
    precondition(parts >= 1 && parts <= capacity, "a pass of \(parts) parts (at most \(capacity))")
    self.builder = builder
    building.store(true, ordering: .relaxed)
    finishedParts.store(0, ordering: .relaxed)
    let generation = Self._generation(claims.load(ordering: .relaxed)) &+ 1
    // Publishes the jobs and the builder with the pass.
    claims.store(UInt64(generation) << 32 | UInt64(parts) << 16, ordering: .releasing)
    pthread_mutex_lock(mutex)
    if sleeping > 0 { pthread_cond_broadcast(posted) }
    pthread_mutex_unlock(mutex)
    while let (k, _) = _claim(generation) {
      results[k] = builder._runJob(jobs[k])
      finishedParts.add(1, ordering: .releasing)
    }
    // Waiting for the workers is not counted by `run --instructions` (it follows the host).
    let paused = hitbench_count_pause()
    defer { hitbench_count_resume(paused) }
    if !_spin(until: { finishedParts.load(ordering: .acquiring) >= parts }) {
      // A worker still runs a part (or was descheduled by the host): sleep until the last one
      // finishes. It adds to `finishedParts` before it takes the mutex, and the flag is read
      // under the mutex, so either the check below sees its count or it sees the flag.
      _delayPark()
      pthread_mutex_lock(mutex)
      callerParked = true
      callerParks += 1
      while finishedParts.load(ordering: .acquiring) < parts { pthread_cond_wait(finished, mutex) }
      callerParked = false
      pthread_mutex_unlock(mutex)
    }
    self.builder = nil
  }

  /// The generation in a `claims` word.
  @inline(__always) static func _generation(_ word: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: word >> 32) }

  /// Claims the next part of pass `generation`, answering it and the pass's part count: nil
  /// when it has none left or a later pass was posted (the claim then fails, as the word's
  /// generation changed).
  @inline(__always) private func _claim(_ generation: UInt32) -> (part: Int, parts: Int)? {
    var word = claims.load(ordering: .acquiring)
    while true {
      let next = Int(word & 0xffff)
      let parts = Int((word >> 16) & 0xffff)
      guard Self._generation(word) == generation, next < parts else { return nil }
      let (exchanged, original) = claims.compareExchange(
        expected: word, desired: word &+ 1, ordering: .acquiringAndReleasing)
      if exchanged { return (next, parts) }
      word = original
    }
  }

  /// The build ended: the workers park after `spinNanoseconds`.
  func buildDidEnd() { building.store(false, ordering: .relaxed) }

  /// Spins until `done()`, for at most `spinNanoseconds` or, while a build runs (with
  /// `spinsThroughBuild`), `buildSpinLimitNanoseconds`, yielding the core now and then (a
  /// waiting thread may share a core with the one it waits for). Answers whether `done()`
  /// became true.
  @inline(__always)
  private func _spin(until done: () -> Bool) -> Bool {
    if done() { return true }
    let start = Clocks.monotonicNanoseconds()
    var spins = 0
    while true {
      spins &+= 1
      if spins & 31 == 0 {
        let spun = Clocks.monotonicNanoseconds() &- start
        if spun > Self.spinNanoseconds
          && (!Self.spinsThroughBuild || !building.load(ordering: .relaxed) || spun > Self.buildSpinLimitNanoseconds)
        {
          return done()
        }
        sched_yield()
      }
      if done() { return true }
    }
  }

  private func _delayPark() {
    let delay = Self._parkDelayMicroseconds.load(ordering: .relaxed)
    if delay > 0 { usleep(UInt32(delay)) }
  }

  private func _work(_ index: Int) {
    var seen: UInt32 = 0
    while true {
      if !_spin(until: {
        Self._generation(claims.load(ordering: .acquiring)) != seen || stopping.load(ordering: .relaxed)
      }) {
        // Park until a pass is posted or `wake()` (then spin again). `run` posts the pass
        // before it takes the mutex to read `sleeping`, so either this check sees the new
        // generation or the poster sees this worker asleep.
        _delayPark()
        pthread_mutex_lock(mutex)
        sleeping += 1
        workerParks += 1
        if Self._generation(claims.load(ordering: .acquiring)) == seen && !stopping.load(ordering: .relaxed) {
          pthread_cond_wait(posted, mutex)
        }
        sleeping -= 1
        pthread_mutex_unlock(mutex)
      }
      if stopping.load(ordering: .acquiring) { return }
      let generation = Self._generation(claims.load(ordering: .acquiring))
      if generation == seen { continue }
      seen = generation
      if _workersHeld.load(ordering: .relaxed) { continue }
      // Counted with the frame's build when Callgrind counts it (`run --instructions`).
      let counted = hitbench_helper_count_begin(HITBENCH_PHASE_BUILD)
      let traced = Trace.isOn ? Clocks.monotonicNanoseconds() : 0
      var ran = false
      while let (k, parts) = _claim(generation) {
        ran = true
        // A claimed part keeps its pass posted (the caller waits for it), so the builder and
        // the job stay as published.
        results[k] = builder!._runJob(jobs[k])
        if finishedParts.add(1, ordering: .releasing).newValue == parts {
          pthread_mutex_lock(mutex)
          if callerParked { pthread_cond_signal(finished) }
          pthread_mutex_unlock(mutex)
        }
      }
      if ran && traced > 0 {
        Trace.slice(.buildJob, start: traced, duration: Clocks.monotonicNanoseconds() &- traced)
      }
      hitbench_helper_count_end(counted)
    }
  }
}

/// Research settings of the build's threads and the time-aware strategies' background builder,
/// read once from the environment (for the sweep of scripts/build_threads_sweep.py and A/B runs;
/// unset in every other use, which gets the measured defaults).
package enum BuildTuning {
  /// The variable `name` as a non-negative integer, or `value`. Allocation-free when unset: the
  /// name is a static C string (a `String` argument is converted to a C string on the heap).
  package static func integer(_ name: StaticString, default value: Int) -> Int {
    let cName = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    guard let raw = getenv(cName), let parsed = Int(String(cString: raw)), parsed >= 0 else { return value }
    return parsed
  }
}

private final class WorkerContext {
  /// Not owned: the pool joins its threads in deinit, so it outlives them.
  let pool: Unmanaged<BuildWorkers>
  let index: Int
  init(pool: BuildWorkers, index: Int) {
    self.pool = .passUnretained(pool)
    self.index = index
  }
}
