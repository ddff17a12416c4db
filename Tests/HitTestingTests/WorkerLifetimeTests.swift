import Presentation
import Scenes
import Testing

@testable import HitTesting

/// A strategy's worker threads end with it: the thread must not keep its owner alive, or every
/// strategy a long check makes (`hitbench verify` makes thousands) leaves a sleeping thread
/// behind until the process runs out of them.
@Suite struct WorkerLifetimeTests {
  @Test func aBackgroundWorkerIsFreedWhenItsOwnerDropsIt() {
    weak var released: BackgroundWorker?
    do {
      let worker = BackgroundWorker {}
      worker.post()
      worker.wait()
      released = worker
    }
    #expect(released == nil)
  }

  @Test func aWindowBuilderFreesItsWorker() {
    let root = SceneGenerator(kind: .particles, layers: 200, seed: 3).make()
    let frame = PresentationFrameBuilder(root: root)
    let groups = MotionGroups(scene: frame.scene, semantics: frame.semantics)
    weak var released: WindowBuilder<WindowGridIndex>?
    weak var worker: BackgroundWorker?
    do {
      let builder = WindowBuilder<WindowGridIndex>(groups: groups)
      let slot = WindowSlot<WindowGridIndex>()
      builder.post(slot, from: 0, to: 0.25, animated: true)
      builder.waitUntilIdle()
      released = builder
      worker = builder.worker
    }
    #expect(released == nil)
    #expect(worker == nil)
  }
}
