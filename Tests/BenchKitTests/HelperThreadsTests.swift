import Clocks
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Helper threads' CPU time by role: what splits a frame's CPU between its thread and helpers.
@Suite(.serialized) struct HelperThreadsTests {
  /// A background helper that burns about 30 ms of CPU adds at least that much to its role, and
  /// once it has ended its time stays counted. (The other role is not checked: other suites'
  /// builds may run beside this one.)
  @Test func aRoleCountsItsThreadsCPUTimeAndKeepsItAfterTheyEnd() {
    let background0 = HelperThreads.cpuNanoseconds(.background)
    let burnt = _burnOnHelperThread(role: .background, nanoseconds: 30_000_000)
    let background1 = HelperThreads.cpuNanoseconds(.background)
    #expect(burnt >= 30_000_000)
    // The role counts the thread's whole CPU time (at least what it burnt; a little more for
    // its start and end), and another test's helpers may add to it, never take from it.
    #expect(background1 &- background0 >= burnt, "background grew \(background1 &- background0) ns, burnt \(burnt)")
  }
}

/// Starts a thread registered as `role`, which spins until its own CPU clock has run
/// `nanoseconds`, unregisters and ends; waits for it. Answers the CPU time it measured.
private func _burnOnHelperThread(role: HelperThreads.Role, nanoseconds: UInt64) -> UInt64 {
  final class Box: @unchecked Sendable {
    let role: HelperThreads.Role
    let target: UInt64
    var spent: UInt64 = 0
    init(_ role: HelperThreads.Role, _ target: UInt64) {
      self.role = role
      self.target = target
    }
  }
  let box = Box(role, nanoseconds)
  var thread = pthread_t()
  pthread_create(
    &thread, nil,
    { raw in
      let b = Unmanaged<Box>.fromOpaque(raw!).takeUnretainedValue()
      HelperThreads.registerCurrentThread(b.role)
      let start = Clocks.threadCPUNanoseconds()
      var x: UInt64 = 1
      while Clocks.threadCPUNanoseconds() &- start < b.target { x = x &* 6_364_136_223_846_793_005 &+ 1 }
      b.spent = Clocks.threadCPUNanoseconds() &- start + (x == 0 ? 1 : 0)
      HelperThreads.unregisterCurrentThread()
      return nil
    }, Unmanaged.passUnretained(box).toOpaque())
  pthread_join(thread, nil)
  return box.spent
}
