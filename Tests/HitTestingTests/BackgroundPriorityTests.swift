import CThreads
import Synchronization
import Testing

@testable import HitTesting

/// The background builder's thread runs below the frames' threads, so that on a busy host a
/// post does not hand it the posting frame's core until its build is done, and off the
/// frame's CPU.
@Suite struct BackgroundPriorityTests {
  @Test func theBuilderThreadRunsAtItsNiceValue() {
    let worker = BackgroundWorker {}
    worker.post()
    worker.wait()
    #expect(worker.threadNice.load(ordering: .acquiring) == BackgroundWorker.nice)
    #expect(BackgroundWorker.nice > 0)
  }

  /// The CPUs the builder thread may run on, read on it: one, the second the process may use,
  /// not the first (where the frame's thread runs). It fails with the thread left anywhere
  /// (both CPUs allowed, the first of them the frame's). Needs two CPUs.
  @Test(.enabled(if: hitbench_allowed_cpu(1) >= 0 && hitbench_allowed_cpu(1) != hitbench_allowed_cpu(0)))
  func theBuilderThreadRunsOffTheFramesCPU() {
    final class Seen: Sendable {
      let first = Atomic<Int32>(-1)
      let second = Atomic<Int32>(-1)
    }
    let seen = Seen()
    let worker = BackgroundWorker {
      // On a thread pinned to one CPU, its k-th allowed CPU is that one for every k.
      seen.first.store(hitbench_allowed_cpu(0), ordering: .releasing)
      seen.second.store(hitbench_allowed_cpu(1), ordering: .releasing)
    }
    worker.post()
    worker.wait()
    let first = seen.first.load(ordering: .acquiring)
    #expect(BackgroundWorker.pinsThread)
    #expect(first == seen.second.load(ordering: .acquiring), "the builder may run on more than one CPU")
    #expect(first == hitbench_allowed_cpu(1))
    #expect(first != hitbench_allowed_cpu(0))
  }
}
