import Allocations
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Worker threads for the frame builder's passes, created once. A job is a pass and a range
/// (no closure, so handing one over allocates nothing): the caller posts one job per worker,
/// runs its own share, then waits. A worker that finished waits for its next job spinning
/// (yielding its core now and then) for up to `spinNanoseconds`, then sleeps on a condition
/// variable. Sleeping between passes or between frames closer than that would cost more than
/// the split saves here: a sleeping thread takes tens to hundreds of microseconds to run again
/// on a virtual machine, and the kernel tends to wake it on the waker's own core, where it
/// then competes with the thread that posted the job instead of running beside it.
final class BuildWorkers: @unchecked Sendable {
  /// Below this many rows (or layers) a pass is not worth splitting.
  static let minimumRowsToSplit = 4096
  /// Below this many rows to recompute, an incremental pass 3 runs on the calling thread: a
  /// few hundred rows cost less than handing half of them to a worker, which on this shared
  /// machine is now and then descheduled for milliseconds (the build's p99).
  static let minimumChangedRowsToSplit = 512
  static let spinNanoseconds: UInt64 = 5_000_000

  enum JobKind: Int {
    case evaluateRange, evaluateList, evaluateTracks, composeAll, composeChanged
  }

  struct Job {
    var kind = JobKind.composeAll
    /// Which part of the pass (0 is the calling thread's).
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
  /// Jobs and results, one per worker: written by the caller before a run is published (and
  /// read after it completes), by worker i only in between.
  let jobs: UnsafeMutablePointer<Job>
  let results: UnsafeMutablePointer<Result>
  private var threads: [pthread_t] = []
  private let generation = Atomic<Int>(0)
  private let completed = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let posted = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Workers asleep on `posted` (guarded by the mutex).
  private var sleeping = 0
  private unowned(unsafe) var builder: PresentationFrameBuilder?

  init(count: Int) {
    self.count = count
    jobs = .allocate(capacity: Swift.max(count, 1))
    jobs.initialize(repeating: Job(), count: Swift.max(count, 1))
    results = .allocate(capacity: Swift.max(count, 1))
    results.initialize(repeating: Result(), count: Swift.max(count, 1))
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(posted, nil)
    for i in 0..<count {
      let context = Unmanaged.passRetained(WorkerContext(pool: self, index: i)).toOpaque()
      var t = pthread_t()
      pthread_create(
        &t, nil,
        { raw in
          let c = Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue()
          // A build's allocations on this thread are the frame's too.
          AllocationCounter.registerCurrentThread()
          // Borrowed, not retained (as in BackgroundWorker): a thread that held the pool would
          // keep it alive for ever, and deinit, which stops and joins the threads, never ran.
          c.pool._withUnsafeGuaranteedRef { $0._work(c.index) }
          AllocationCounter.unregisterCurrentThread()
          return nil
        }, context)
      threads.append(t)
    }
  }

  deinit {
    stopping.store(true, ordering: .releasing)
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(posted)
    pthread_mutex_unlock(mutex)
    for t in threads { pthread_join(t, nil) }
    pthread_cond_destroy(posted)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    posted.deallocate()
    jobs.deallocate()
    results.deallocate()
  }

  /// Wakes sleeping workers so that they spin, ready for the jobs a build is about to post: a
  /// sleeping thread can take hundreds of microseconds to run again on a virtual machine (its
  /// idle virtual CPU must be woken first), so the build calls this as it starts, and the wake
  /// overlaps the passes before the first split one.
  func wake() {
    pthread_mutex_lock(mutex)
    if sleeping > 0 { pthread_cond_broadcast(posted) }
    pthread_mutex_unlock(mutex)
  }

  /// Runs the posted jobs (`jobs[0 ..< count]`) on the workers and `mine` on the calling
  /// thread, and returns when all are done.
  func run(for builder: PresentationFrameBuilder, mine: () -> Void) {
    self.builder = builder
    completed.store(0, ordering: .relaxed)
    // Publishes the jobs and the builder to the workers.
    generation.add(1, ordering: .releasing)
    pthread_mutex_lock(mutex)
    if sleeping > 0 { pthread_cond_broadcast(posted) }
    pthread_mutex_unlock(mutex)
    mine()
    var spins = 0
    while completed.load(ordering: .acquiring) < count {
      spins += 1
      // A worker descheduled by the host: give the core back instead of spinning on it.
      if spins > 4096 { sched_yield() }
    }
    self.builder = nil
  }

  private func _work(_ index: Int) {
    var seen = 0
    while true {
      var g = generation.load(ordering: .acquiring)
      if g == seen {
        let start = _now()
        var spins = 0
        while g == seen && !stopping.load(ordering: .relaxed) {
          spins &+= 1
          if spins & 31 == 0 {
            if _now() &- start > Self.spinNanoseconds { break }
            // Until the scheduler has spread the threads, a worker may share a core with the
            // thread that is about to post: let it run.
            sched_yield()
          }
          g = generation.load(ordering: .acquiring)
        }
      }
      if g == seen {
        // Sleep until a job is posted or `wake()` (then spin again).
        pthread_mutex_lock(mutex)
        sleeping += 1
        if generation.load(ordering: .acquiring) == seen && !stopping.load(ordering: .relaxed) {
          pthread_cond_wait(posted, mutex)
        }
        sleeping -= 1
        pthread_mutex_unlock(mutex)
        g = generation.load(ordering: .acquiring)
        if g == seen && !stopping.load(ordering: .acquiring) { continue }
      }
      if stopping.load(ordering: .acquiring) { return }
      seen = g
      if let b = builder { results[index] = b._runJob(jobs[index]) } else { results[index] = Result() }
      completed.add(1, ordering: .releasing)
    }
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
