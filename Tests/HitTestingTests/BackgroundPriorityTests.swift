import CThreads
import Synchronization
import Testing

@testable import HitTesting

/// The background builder's thread runs off the frame's CPU, at the frames' priority there (a
/// lower one starved it whenever another process was busy on the host), and where it cannot be
/// pinned, below the frames' threads, so that on a busy host a post does not hand it the
/// posting frame's core until its build is done.
@Suite struct BackgroundPriorityTests {
  /// Whether this machine lets the builder be pinned off the frame's CPU (two CPUs allowed).
  static let pins =
    BackgroundWorker.pinsThread && hitbench_allowed_cpu(1) >= 0
    && hitbench_allowed_cpu(1) != hitbench_allowed_cpu(0)

  @Test func theBuilderThreadRunsAtItsNiceValue() {
    let worker = BackgroundWorker {}
    worker.post()
    worker.wait()
    #expect(worker.threadNice.load(ordering: .acquiring) == BackgroundWorker.nice(pinned: Self.pins))
    #expect(BackgroundWorker.nice(pinned: false) > 0)
  }

  /// Pinned off the frame's CPU, the builder keeps the frames' nice value (it ran at 10 there:
  /// fails, shown). Needs two CPUs.
  @Test(.enabled(if: pins)) func aPinnedBuilderRunsAtTheFramesPriority() {
    let worker = BackgroundWorker {}
    worker.post()
    worker.wait()
    #expect(worker.threadNice.load(ordering: .acquiring) == hitbench_current_thread_priority())
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
