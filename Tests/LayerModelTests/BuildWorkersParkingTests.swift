import Allocations
import Scenes
import Synchronization
import TestSupport
import Testing

@testable import Presentation

#if canImport(Glibc)
  import Glibc
#endif

/// The build's workers park when they have waited longer than their spin bound: a parked worker
/// must wake for the next job (a lost wake-up hangs the build that posted it for ever), and the
/// frames must not change with the threads.
@Suite(.serialized) struct BuildWorkersParkingTests {
  /// Many short split builds with random gaps around the spin bound (none, shorter, longer, a
  /// frame's idle time), so that the next job finds a worker spinning, parking or parked: every
  /// build finishes (a watchdog thread fails the test after minutes instead of hanging), each
  /// frame equals one thread's bit for bit, and the workers did park.
  @Test(arguments: [0, 150]) func parkedWorkersWakeForEveryBuild(parkDelayMicroseconds: Int) {
    // With a delay, every park leaves a window in which a post could be missed, and the gaps
    // below land posts in it.
    BuildWorkers._parkDelayMicroseconds.store(parkDelayMicroseconds, ordering: .relaxed)
    defer { BuildWorkers._parkDelayMicroseconds.store(0, ordering: .relaxed) }
    // Every build that can split does (the governor would keep some on one thread).
    let (one, two) = splitBuilderPair(animatedFraction: 1, seed: 7, policy: .always)
    let builds = TestSize.pick(full: 3000, fast: 1000)
    let spinMicroseconds = Int(BuildWorkers.spinNanoseconds / 1000)
    let gaps = [0, spinMicroseconds / 2, spinMicroseconds * 2 + 20, spinMicroseconds + parkDelayMicroseconds / 2, 1000]

    let stress = _Stress { stress in
      var rng = SplitMix64(seed: 3)
      var t = 0.0
      for b in 0..<builds {
        let gap = gaps[rng.below(gaps.count)]
        if gap > 0 { usleep(UInt32(gap)) }
        // Mostly the next frame (an incremental build), now and then a jump (a full one).
        t += rng.chance(0.9) ? 1.0 / 120 : rng.uniform(-2, 2)
        let frame = two.build(at: t)
        stress.progress.store(b + 1, ordering: .relaxed)
        if b % 50 == 0, let d = firstDifference(one.build(at: t), frame) {
          return "build \(b) t \(t): \(d)"
        }
      }
      return nil
    }
    switch stress.wait(seconds: 120) {
    case .finished(let failure?): Issue.record("\(failure)")
    case .finished(nil): break
    case .timedOut(let done): Issue.record("a build never finished (lost wake-up?) after \(done) of \(builds)")
    }
    let parks = two._workers?.parks ?? (workers: 0, caller: 0)
    #expect(parks.workers > 0, "the workers never parked, so the test did not exercise waking them")
  }
}

extension BuildWorkersParkingTests {
  /// A split pass is claimed part by part by whichever thread is free, so a worker that never
  /// runs (held here, as the host may hold one) costs the frame nothing but its share: the
  /// calling thread runs every part and the build finishes, equal to one thread's bit for bit.
  /// (With one part posted to each worker, the caller waited for the held worker for ever.)
  @Test func aBuildFinishesWhenItsWorkersNeverRun() {
    let (one, two) = splitBuilderPair(animatedFraction: 1, seed: 11, policy: .always)
    two._workers?._workersHeld.store(true, ordering: .relaxed)
    let builds = 40
    let stress = _Stress { stress in
      var t = 0.0
      for b in 0..<builds {
        // Steady frames (incremental builds) and a jump now and then (a full one).
        t += b % 10 == 9 ? 0.75 : 1.0 / 120
        let frame = two.build(at: t)
        stress.progress.store(b + 1, ordering: .relaxed)
        if let d = firstDifference(one.build(at: t), frame) { return "build \(b) t \(t): \(d)" }
      }
      return nil
    }
    switch stress.wait(seconds: 60) {
    case .finished(let failure?): Issue.record("\(failure)")
    case .finished(nil): break
    case .timedOut(let done): Issue.record("a build waited for a worker that never ran, after \(done) of \(builds)")
    }
  }
}

/// A particle scene just large enough for its builds to split, built by one thread (`one`)
/// and by two (`two`, splitting by `policy`): the pair the split tests compare frame by frame.
func splitBuilderPair(animatedFraction: Double, seed: UInt64, policy: PresentationFrameBuilder.SplitPolicy) -> (
  one: PresentationFrameBuilder, two: PresentationFrameBuilder
) {
  let n = BuildWorkers.minimumRowsToSplit + 1000
  let model = SceneGenerator(kind: .particles, layers: n, animatedFraction: animatedFraction, seed: seed).make()
  let one = PresentationFrameBuilder(root: model.deepCopy(), threads: 1)
  let two = PresentationFrameBuilder(root: model, threads: 2)
  two.splitPolicy = policy
  return (one, two)
}

/// Runs `body` on a thread of its own and waits for it with a deadline, so that a hang is a
/// failure, not a test run that never ends (the hung thread is left behind).
private final class _Stress: @unchecked Sendable {
  enum Outcome {
    case finished(String?)
    case timedOut(progress: Int)
  }
  let body: (_Stress) -> String?
  let done = Atomic<Bool>(false)
  /// Steps `body` has finished (it stores them).
  let progress = Atomic<Int>(0)
  var failure: String?

  init(_ body: @escaping (_Stress) -> String?) {
    self.body = body
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        let s = Unmanaged<_Stress>.fromOpaque(raw!).takeRetainedValue()
        s.failure = s.body(s)
        s.done.store(true, ordering: .releasing)
        return nil
      }, context)
    pthread_detach(thread)
  }

  func wait(seconds: Int) -> Outcome {
    for _ in 0..<(seconds * 100) {
      if done.load(ordering: .acquiring) { return .finished(failure) }
      usleep(10_000)
    }
    return .timedOut(progress: progress.load(ordering: .relaxed))
  }
}

/// The build's research settings are read without allocating, once, when the workers are made:
/// one was read lazily on the first wait that outlasted the spin bound, inside whichever frame
/// that was, and its name's conversion to a C string allocated 60 bytes there (one frame in a
/// few dozen fast-tier runs, particles on two threads; found with a jemalloc allocation hook).
@Suite struct BuildTuningTests {
  @Test(.enabled(if: AllocationCounter.isAvailable, "jemalloc is not in this process (sanitizer builds leave it out)"))
  func readingASettingDoesNotAllocate() {
    let used = AllocationCounter.measure {
      _ = BuildTuning.integer("HITBENCH_BUILD_NOT_A_SETTING_AT_ALL", default: 7)
    }
    #expect(used.callingThreadBytes == 0, "\(used.callingThreadBytes) bytes")
  }
}
