import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

#if canImport(Glibc)
  import Glibc
#endif

/// Untimed work between frames (`run --verify`'s reference check) holds the background window
/// builds (`BuildPause`), so a check lends them no wall time a real frame would not have, and
/// the held time is left out of the build time a slot reports.
/// Serialized: the hold is process-wide, so one test's hold would end inside the other's build.
@Suite(.serialized) struct BuildPauseTests {
  @Test func aHeldBuildWaitsAndLeavesTheHeldTimeOut() {
    let root = SceneGenerator(kind: .particles, layers: TestSize.pick(full: 3000, fast: 1000), seed: 11).make()
    let frame = PresentationFrameBuilder(root: root)
    let groups = MotionGroups(scene: frame.scene, semantics: frame.semantics)
    let builder = WindowBuilder<WindowGridIndex>(groups: groups)
    let slot = WindowSlot<WindowGridIndex>()
    let heldNs: UInt64 = 300_000_000

    BuildPause.hold()
    let clock = ContinuousClock()
    let t0 = clock.now
    builder.post(slot, from: 0.25, to: 0.5, animated: true)
    usleep(UInt32(heldNs / 1000))
    // A build of a thousand particles takes about a millisecond: only a hold keeps it running.
    let heldToTheEnd = !builder.isIdle
    BuildPause.resume()
    builder.wait()
    let elapsed = (clock.now - t0).components
    let wall = UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000)

    #expect(heldToTheEnd, "the build finished while held")
    #expect(wall >= heldNs)
    #expect(slot.buildNanoseconds < heldNs / 2, "build time \(slot.buildNanoseconds) ns of \(wall) ns held")
    #expect(slot.version == groups.version && slot.start == 0.25 && slot.end == 0.5)
  }

  @Test func aBuildWithNothingHeldDoesNotWait() {
    let root = SceneGenerator(kind: .particles, layers: TestSize.pick(full: 3000, fast: 1000), seed: 12).make()
    let frame = PresentationFrameBuilder(root: root)
    let groups = MotionGroups(scene: frame.scene, semantics: frame.semantics)
    let builder = WindowBuilder<WindowGridIndex>(groups: groups)
    let slot = WindowSlot<WindowGridIndex>()
    builder.buildNow(slot, from: 0, to: 0.25, animated: true)
    #expect(builder.isIdle && slot.version == groups.version && slot.buildNanoseconds > 0)
  }
}
