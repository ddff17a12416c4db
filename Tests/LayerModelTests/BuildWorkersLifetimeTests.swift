import Scenes
import Testing

@testable import Presentation

/// A frame builder's worker threads end with it (see WorkerLifetimeTests for why).
@Suite struct BuildWorkersLifetimeTests {
  @Test func aBuildWorkerPoolIsFreedWithItsBuilder() {
    weak var pool: BuildWorkers?
    weak var released: PresentationFrameBuilder?
    do {
      let root = SceneGenerator(kind: .particles, layers: 10_000, seed: 5).make()
      let builder = PresentationFrameBuilder(root: root, threads: 2)
      _ = builder.build(at: 0.5)
      pool = builder._workers
      released = builder
    }
    #expect(released == nil)
    #expect(pool == nil)
  }
}
