import Clocks
import Synchronization
import Testing

@testable import HitTesting

#if canImport(Glibc)
  import Glibc
#endif

/// The builder's thread told when its next post is expected sleeps until then and finds the
/// post by itself, so the posting frame makes no system call to wake it; a post that comes
/// while it would sleep longer, or after it parked, wakes it (no lost wake-up).
@Suite struct BackgroundWorkerTests {
  /// A post at the time it was expected wakes nobody, and its work runs.
  @Test func aPostAtItsExpectedTimeIsFoundWithoutAWakeUp() {
    let runs = Atomic<Int>(0)
    let worker = BackgroundWorker { runs.add(1, ordering: .relaxed) }
    var posts = 0
    // The host may run this thread late now and then (past the polls, the thread parks and
    // the post wakes it): one found post in twenty tries shows the path.
    for _ in 0..<20 {
      let expected = Clocks.monotonicNanoseconds() + 5_000_000
      worker.post(nextExpectedAt: expected)
      posts += 1
      worker.wait()
      while Clocks.monotonicNanoseconds() < expected { usleep(200) }
      worker.post()
      posts += 1
      worker.wait()
      if worker._postCounts.found > 0 { break }
    }
    #expect(worker._postCounts.found > 0)
    #expect(runs.load(ordering: .relaxed) == posts)
  }

  /// A post long before the time it was expected wakes the sleeping thread: its work runs
  /// now, not when the thread would have woken (it fails, waiting the 3 s, when a post leaves
  /// every sleeping thread to find it).
  @Test func aPostBeforeItsExpectedTimeWakesTheThread() {
    let runs = Atomic<Int>(0)
    let worker = BackgroundWorker { runs.add(1, ordering: .relaxed) }
    worker.post(nextExpectedAt: Clocks.monotonicNanoseconds() + 3_000_000_000)
    worker.wait()
    // Let the thread fall asleep until the expected time.
    usleep(20_000)
    let before = worker._postCounts.waking
    let start = Clocks.monotonicNanoseconds()
    worker.post()
    worker.wait()
    let waited = Clocks.monotonicNanoseconds() - start
    #expect(runs.load(ordering: .relaxed) == 2)
    #expect(waited < 1_000_000_000, "the post waited \(waited / 1_000_000) ms for the thread")
    #expect(worker._postCounts.waking == before + 1)
  }

  /// Many posts with random expectations (none, past, soon, far) and random gaps: every
  /// post's work runs once, and no post waits for the thread to wake by itself long after it
  /// (a far expectation is 2 s: a post left to be found would wait that long).
  @Test func postsWithRandomExpectationsAreNeverLost() {
    let runs = Atomic<Int>(0)
    let worker = BackgroundWorker { runs.add(1, ordering: .relaxed) }
    var random = SystemRandomNumberGenerator()
    let posts = 1_500
    for _ in 0..<posts {
      let now = Clocks.monotonicNanoseconds()
      let expected: UInt64 =
        switch Int.random(in: 0..<4, using: &random) {
        case 0: 0
        case 1: now - Swift.min(now, UInt64.random(in: 0...2_000_000, using: &random))
        case 2: now + UInt64.random(in: 0...1_500_000, using: &random)
        default: now + 2_000_000_000
        }
      let start = Clocks.monotonicNanoseconds()
      worker.post(nextExpectedAt: expected)
      if Bool.random(using: &random) { worker.wait() }
      let waited = Clocks.monotonicNanoseconds() - start
      if waited > 1_000_000_000 {
        Issue.record("a post and its wait took \(waited / 1_000_000) ms")
        break
      }
      let gap = UInt32.random(in: 0...600, using: &random)
      if gap > 0 { usleep(gap) }
    }
    worker.wait()
    #expect(runs.load(ordering: .relaxed) == posts)
    let counts = worker._postCounts
    #expect(counts.waking + counts.found == posts)
    #expect(counts.found > 0 && counts.waking > 0)
  }
}
