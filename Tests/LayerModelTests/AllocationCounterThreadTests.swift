import Allocations
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The byte counter of a thread that registered and then ended stays in the readings, so two
/// readings around a worker's whole life differ by at least what it allocated (and never wrap).
@Suite struct AllocationCounterThreadTests {
  static let allocatedByTheWorker = 1 << 20

  @Test(.enabled(if: AllocationCounter.isAvailable, "jemalloc is not in this process (sanitizer builds leave it out)"))
  func anEndedThreadsBytesStayCounted() {
    let before = AllocationCounter.read()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { _ in
        AllocationCounter.registerCurrentThread()
        let block = UnsafeMutableRawPointer.allocate(
          byteCount: AllocationCounterThreadTests.allocatedByTheWorker, alignment: 16)
        block.storeBytes(of: 1, as: UInt8.self)
        block.deallocate()
        AllocationCounter.unregisterCurrentThread()
        return nil
      }, nil)
    #expect(created == 0)
    pthread_join(thread, nil)
    let after = AllocationCounter.read()
    #expect(after.bytes >= before.bytes)
    #expect(after.bytes &- before.bytes >= UInt64(Self.allocatedByTheWorker))
  }
}
