import Allocations
import Foundation
import Testing

/// No frame allocates, proven with jemalloc's process-wide counters by the benchmark itself: each
/// `hitbench run` of the release build (what every measurement is a claim about; `scripts/test.sh`
/// builds it) is a process of its own, so its counts cover every thread of the frame loop (the
/// build's worker included) and nothing else. Skipped, visibly, where jemalloc is not in the
/// process (sanitizer builds) or the release binary was not built.
@Suite struct AllocationTests {
  static let available = AllocationCounter.isAvailable

  @Test(
    .enabled(if: available, "jemalloc is not in this process (sanitizer builds leave it out)"),
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"),
    arguments: [("app", "1"), ("particles", "2"), ("ui", "2"), ("cards", "1")])
  func noStrategyAllocatesInItsFrames(_ scene: String, _ threads: String) throws {
    let r = try hitbenchRelease([
      "run", "--scene", scene, "--layers", scene == "app" ? "2000" : "9000", "--threads", threads, "--queries", "1,200",
      "--frames", "30", "--warmup", "10", "--format", "csv",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    guard let header = lines.first, let a = header.firstIndex(of: "allocationsPerFrame"),
      let b = header.firstIndex(of: "bytesAllocatedPerFrame"), let s = header.firstIndex(of: "strategy")
    else {
      Issue.record("no allocation columns: \(r.stdout.prefix(300))")
      return
    }
    #expect(lines.count - 1 == 2 * strategyNames.count)
    for row in lines.dropFirst() {
      #expect(
        row[a] == "0.0" && row[b] == "0.0", "\(row[s]) on \(scene): \(row[a]) allocations, \(row[b]) bytes per frame")
    }
  }

  /// The counters see allocations on another thread once it is registered (a pool's worker, a
  /// background re-index), so the frames above would show one if it allocated.
  @Test(.enabled(if: available, "jemalloc is not in this process (sanitizer builds leave it out)"))
  func allocationsOnARegisteredThreadAreCounted() {
    final class Box: @unchecked Sendable {
      var keep: [[Int]] = []
      let allocated = DispatchSemaphore(value: 0)
      let measured = DispatchSemaphore(value: 0)
    }
    let box = Box()
    var t = pthread_t()
    let used = AllocationCounter.measure {
      let context = Unmanaged.passRetained(box).toOpaque()
      pthread_create(
        &t, nil,
        { raw in
          let b = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
          AllocationCounter.registerCurrentThread()
          for i in 0..<100 { b.keep.append([Int](repeating: i, count: 100)) }
          b.allocated.signal()
          // Alive until the reading is taken: a thread's counter goes when it exits.
          b.measured.wait()
          AllocationCounter.unregisterCurrentThread()
          return nil
        }, context)
      box.allocated.wait()
    }
    box.measured.signal()
    pthread_join(t, nil)
    #expect(used.bytes >= 100 * 800, "\(used.bytes) bytes")
    #expect(used.allocations >= 100, "\(used.allocations) allocations")
    #expect(box.keep.count == 100)
  }
}
