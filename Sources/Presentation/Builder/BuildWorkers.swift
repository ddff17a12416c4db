#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Worker threads for the frame builder's passes, created once. A job is a pass and a range
/// (no closure, so handing one over allocates nothing): the caller posts it, runs its own
/// range, then waits. Workers spin briefly before sleeping on a condition variable, so a job
/// posted every few milliseconds starts within microseconds without burning a core between
/// frames.
final class BuildWorkers: @unchecked Sendable {
  /// Below this many rows (or layers) a pass is not worth splitting.
  static let minimumRowsToSplit = 4096

  enum JobKind: Int {
    case evaluateRange, evaluateList, composeAll, composeChanged
  }

  struct Job {
    var kind = JobKind.composeAll
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

  let count: Int
  private var threads: [pthread_t] = []
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let posted = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by the mutex.
  private var generation = 0
  private var completed = 0
  private var stopping = false
  private var jobs: [Job]
  private(set) var results: [Result]
  private unowned(unsafe) var builder: PresentationFrameBuilder?

  init(count: Int) {
    self.count = count
    jobs = [Job](repeating: Job(), count: count)
    results = [Result](repeating: Result(), count: count)
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
          c.pool.run(c.index)
          return nil
        }, context)
      threads.append(t)
    }
  }

  deinit {
    pthread_mutex_lock(mutex)
    stopping = true
    pthread_cond_broadcast(posted)
    pthread_mutex_unlock(mutex)
    for t in threads { pthread_join(t, nil) }
    pthread_cond_destroy(posted)
    pthread_cond_destroy(finished)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    posted.deallocate()
    finished.deallocate()
  }

  /// Sets worker i's next job (before `run`).
  func post(_ i: Int, _ job: Job) {
    pthread_mutex_lock(mutex)
    jobs[i] = job
    pthread_mutex_unlock(mutex)
  }

  /// Starts the posted jobs, runs `mine` on the calling thread, and waits for the workers.
  func run(for builder: PresentationFrameBuilder, mine: () -> Void) {
    pthread_mutex_lock(mutex)
    self.builder = builder
    completed = 0
    generation &+= 1
    pthread_cond_broadcast(posted)
    pthread_mutex_unlock(mutex)
    mine()
    pthread_mutex_lock(mutex)
    while completed < count { pthread_cond_wait(finished, mutex) }
    self.builder = nil
    pthread_mutex_unlock(mutex)
  }

  private func run(_ index: Int) {
    var seen = 0
    while true {
      pthread_mutex_lock(mutex)
      while generation == seen && !stopping { pthread_cond_wait(posted, mutex) }
      if stopping {
        pthread_mutex_unlock(mutex)
        return
      }
      seen = generation
      let job = jobs[index]
      let b = builder
      pthread_mutex_unlock(mutex)
      let result = b.map { $0._runJob(job) } ?? Result()
      pthread_mutex_lock(mutex)
      results[index] = result
      completed += 1
      if completed == count { pthread_cond_signal(finished) }
      pthread_mutex_unlock(mutex)
    }
  }
}

private final class WorkerContext {
  /// Unowned: the pool joins its threads in deinit, so it outlives them.
  unowned(unsafe) let pool: BuildWorkers
  let index: Int
  init(pool: BuildWorkers, index: Int) {
    self.pool = pool
    self.index = index
  }
}
