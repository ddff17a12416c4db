import Allocations
import CCallgrind
import CThreads
import Clocks
import Presentation
import Synchronization
import Tracing

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A thread that runs one fixed piece of work each time it is posted, and says when it is done
/// (`WindowBuilder`'s thread). The work is set once; posting hands nothing over but a
/// generation count (what to do is left in the owner's fields before posting), so a post
/// allocates nothing. The thread is counted by the allocation counters.
///
/// A post may say when the next one is expected (a window's hand-over, known a window ahead):
/// the thread then sleeps until that time and looks for the post itself, a few times a
/// `pollNanoseconds` apart, before it parks. So the post that comes then wakes nobody: waking a
/// parked thread is a system call that cost the posting frame 5-10 us on this virtual machine,
/// every window's hand-over frame (docs/optimisation-log.md entry 97). A post wakes the thread
/// only where it is parked, or sleeping until more than `slackNanoseconds` after the post.
final class BackgroundWorker: @unchecked Sendable {
  /// How long after its expected time a post may wait for the thread to find it.
  static let slackNanoseconds: UInt64 = 500_000
  /// How often a thread whose post is late looks for it, and how many times before it parks.
  static let pollNanoseconds: UInt64 = 250_000
  static let polls = 3

  private let work: () -> Void
  private let posted = Atomic<Int>(0)
  private let finished = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var thread = pthread_t()
  /// Its thread's hold record (`BuildPause`), in the gate current where it was made.
  private let record = _BackgroundThread()
  /// The trace's process current where it was made (its strategy's), for its slices.
  private let traceProcess = Trace.currentProcess

  /// The builder thread's nice value, `pinned` off the frame's CPU or not
  /// (`HITBENCH_BACKGROUND_NICE`, 0 to 19, sets both for A/B runs). Not pinned (one CPU, or
  /// `HITBENCH_BACKGROUND_PIN=0`), 10: a tenth of a frame thread's share of a core where both
  /// want one (docs/optimisation-log.md, entry 58). Pinned, 0: on the second CPU a nice value
  /// lowers it less against the frame's thread than against whatever else runs there, and with
  /// another process busy on the host it took a tenth of that CPU and frames waited for it
  /// (entry 102).
  static func nice(pinned: Bool) -> Int32 {
    let set = BuildTuning.integer("HITBENCH_BACKGROUND_NICE", default: -1)
    return Int32(set >= 0 ? Swift.min(set, 19) : pinned ? 0 : 10)
  }
  /// Whether its thread runs on the second CPU the process may use, never on the first, where
  /// the frame's thread runs (`HITBENCH_BACKGROUND_PIN=0`: anywhere, as before entry 98).
  static let pinsThread = BuildTuning.integer("HITBENCH_BACKGROUND_PIN", default: 1) != 0
  /// The nice value its thread runs at (`Int32.min` until the thread has started).
  let threadNice = Atomic<Int32>(Int32.min)
  /// Guarded by the mutex: when the post after the last one is expected (monotonic
  /// nanoseconds, 0: not known); until when the thread sleeps waiting for it (0: it is not
  /// sleeping timed); whether it is parked until woken.
  private var expectedPost: UInt64 = 0
  private var sleepsUntil: UInt64 = 0
  private var parked = false
  /// Posts that woke the thread, and posts it found by itself (guarded by the mutex; read by
  /// tests to show both paths ran).
  private(set) var _wakingPosts = 0
  private(set) var _foundPosts = 0

  init(_ work: @escaping () -> Void) {
    self.work = work
    pthread_mutex_init(mutex, nil)
    // Timed sleeps by the monotonic clock, the clock a post's expected time is read from.
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(wake, &attributes)
    pthread_condattr_destroy(&attributes)
    pthread_cond_init(done, nil)
    let context = Unmanaged.passUnretained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        TraceThreads.name("background builder")
        AllocationCounter.registerCurrentThread()
        HelperThreads.registerCurrentThread(.background)
        let worker = Unmanaged<BackgroundWorker>.fromOpaque(raw!)
        // Off the frame's core: where the kernel placed it beside the frame's thread, a nice
        // value took it off the frame's core only once its slice (milliseconds) was done, and
        // one frame in 30 ran its queries at a third of their speed (docs/optimisation-log.md,
        // entry 98). The second CPU the process may use, as the build's first worker's.
        let pinned = BackgroundWorker.pinsThread && hitbench_pin_current_thread_off_first(1) >= 0
        // Where it could not be pinned, below the frames' threads: woken by a post on a busy
        // host, it took the posting frame's core until its build was done (a 1.4 ms update at
        // 10,000 particles, one query a frame; entry 58).
        _ = hitbench_lower_current_thread_priority(BackgroundWorker.nice(pinned: pinned))
        let nice = hitbench_current_thread_priority()
        worker._withUnsafeGuaranteedRef { $0.threadNice.store(nice, ordering: .releasing) }
        worker._withUnsafeGuaranteedRef { $0.record.install() }
        // Borrowed, not retained: a strong reference held by the thread would keep the worker
        // alive for ever, and its deinit (which stops and joins the thread) would never run.
        // The borrow is sound because deinit joins the thread before the object is freed.
        worker._withUnsafeGuaranteedRef { $0._run() }
        HelperThreads.unregisterCurrentThread()
        AllocationCounter.unregisterCurrentThread()
        return nil
      }, context)
  }

  deinit {
    stopping.store(true, ordering: .releasing)
    record.stop()
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(wake)
    pthread_mutex_unlock(mutex)
    pthread_join(thread, nil)
    pthread_cond_destroy(wake)
    pthread_cond_destroy(done)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    wake.deallocate()
    done.deallocate()
  }

  /// Whether the work posted last has finished.
  var isIdle: Bool { finished.load(ordering: .acquiring) == posted.load(ordering: .relaxed) }

  /// Runs the work once more on the thread (after the running one, if any, has finished: the
  /// caller waits first). `nextExpectedAt` (monotonic nanoseconds; 0: not known) is when the
  /// post after this one is expected: the thread sleeps until then after this work.
  func post(nextExpectedAt: UInt64 = 0) {
    wait()
    // Not counted by `run --instructions` either: waking a parked thread takes more
    // instructions than posting to one still running, and which it is follows the host.
    let paused = hitbench_count_pause()
    defer { hitbench_count_resume(paused) }
    pthread_mutex_lock(mutex)
    posted.add(1, ordering: .releasing)
    expectedPost = nextExpectedAt
    // A thread that is not waiting (between its work and its wait: it looks under the mutex
    // before it sleeps) or sleeping until soon finds the post by itself.
    if parked || sleepsUntil > Clocks.monotonicNanoseconds() &+ Self.slackNanoseconds {
      _wakingPosts += 1
      pthread_cond_broadcast(wake)
    } else {
      _foundPosts += 1
    }
    pthread_mutex_unlock(mutex)
  }

  /// The post counts, read under the mutex.
  var _postCounts: (waking: Int, found: Int) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return (_wakingPosts, _foundPosts)
  }

  /// Returns when the work posted last has finished (at once when it has).
  func wait() {
    if isIdle { return }
    // Not counted by `run --instructions`: how long a wait lasts follows the host.
    let paused = hitbench_count_pause()
    defer { hitbench_count_resume(paused) }
    pthread_mutex_lock(mutex)
    while finished.load(ordering: .acquiring) != posted.load(ordering: .relaxed) { pthread_cond_wait(done, mutex) }
    pthread_mutex_unlock(mutex)
  }

  private func _run() {
    var seen = 0
    while true {
      pthread_mutex_lock(mutex)
      let expected = expectedPost
      var polls = 0
      while posted.load(ordering: .acquiring) == seen && !stopping.load(ordering: .acquiring) {
        let now = Clocks.monotonicNanoseconds()
        if expected > 0 && (now < expected || polls < Self.polls) {
          // Asleep until the post is expected, then looking for it a poll apart.
          if now >= expected { polls += 1 }
          sleepsUntil = now < expected ? expected : now &+ Self.pollNanoseconds
          var until = timespec(
            tv_sec: Int(sleepsUntil / 1_000_000_000), tv_nsec: Int(sleepsUntil % 1_000_000_000))
          _ = pthread_cond_timedwait(wake, mutex, &until)
          sleepsUntil = 0
        } else {
          parked = true
          pthread_cond_wait(wake, mutex)
          parked = false
        }
      }
      pthread_mutex_unlock(mutex)
      if stopping.load(ordering: .acquiring) { return }
      seen = posted.load(ordering: .acquiring)
      record.beginWork()
      // Counted on its own when Callgrind counts background work (`run --instructions`).
      let counted = hitbench_helper_count_begin(HITBENCH_PHASE_BACKGROUND)
      let traced = Trace.isOn ? Clocks.monotonicNanoseconds() : 0
      work()
      if traced > 0 {
        Trace.slice(
          .windowBuild, start: traced, duration: Clocks.monotonicNanoseconds() &- traced, process: traceProcess)
      }
      hitbench_helper_count_end(counted)
      record.endWork()
      pthread_mutex_lock(mutex)
      finished.store(seen, ordering: .releasing)
      pthread_cond_broadcast(done)
      pthread_mutex_unlock(mutex)
    }
  }
}
