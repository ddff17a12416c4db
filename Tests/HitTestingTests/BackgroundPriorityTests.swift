import Testing

@testable import HitTesting

/// The background builder's thread runs below the frames' threads, so that on a busy host a
/// post does not hand it the posting frame's core until its build is done.
@Suite struct BackgroundPriorityTests {
  @Test func theBuilderThreadRunsAtItsNiceValue() {
    let worker = BackgroundWorker {}
    worker.post()
    worker.wait()
    #expect(worker.threadNice.load(ordering: .acquiring) == BackgroundWorker.nice)
    #expect(BackgroundWorker.nice > 0)
  }
}
