import Foundation
import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing
import Verification

@testable import HitTesting

/// A window's bounds reach past its hand-over by its overlap (`--window-overlap`): a frame
/// there, the next window still being built, answers from the front one exactly and does not
/// wait; once the next is built, the frame after swaps to it. The background build is held
/// (its strategy's `BackgroundGate`), so it cannot finish in time, however fast the host.
@Suite struct LateWindowTests {
  /// A class to hand the state to the thread that updates it.
  final class Shared: @unchecked Sendable {
    let state: _TimeAwareState<_WindowsAhead<WindowGridIndex>>
    init(_ state: _TimeAwareState<_WindowsAhead<WindowGridIndex>>) { self.state = state }
  }

  /// The answers of `s` at time t against the reference's, at random points and layers' corners.
  func wrongAnswers(_ s: WindowGrid, _ builder: PresentationFrameBuilder, at t: Double, seed: UInt64) -> (Int, Int) {
    builder.build(at: t)
    let f = builder.frame
    var rng = SplitMix64(seed: seed)
    var points: [Point] = (0..<300).map { _ in Point(rng.uniform(-20, 1200), rng.uniform(-20, 900)) }
    for _ in 0..<300 {
      let r = 1 + rng.below(f.count - 1)
      let b = f.bounds[r]
      let p = f.toWorld[r].apply(rng.below(2) == 0 ? Point(b.minX, b.minY) : Point(b.maxX, b.maxY))
      if p.x.isFinite && p.y.isFinite { points.append(p) }
    }
    let expected = StrategyKind.treeWalk.answers(builder, points)
    let oracle = ReferenceOracle(builder: builder, tree: .presentation)
    var wrong = 0
    for (p, e) in zip(points, expected) {
      if case .disagree = AnswerComparison.compare(s.hitTest(p), e, at: p, oracle: oracle) { wrong += 1 }
    }
    return (wrong, points.count)
  }

  /// A window-grid on a particle scene with windows of 100 ms (`pinned`; nil: the adaptive
  /// length) whose bounds reach `overlap` of that past their hand-over, updated at 0 (its
  /// first window, built on this thread) with its background build held by its gate (the next
  /// window, posted to the builder's thread, cannot finish).
  func heldAtTheFirstWindow(seed: UInt64, overlap: Double, pinned: Double? = 0.1) throws -> (
    WindowGrid, PresentationFrameBuilder, BackgroundGate, _TimeAwareState<_WindowsAhead<WindowGridIndex>>
  ) {
    let root = SceneGenerator(kind: .particles, layers: TestSize.pick(full: 3000, fast: 1000), seed: seed).make()
    let builder = PresentationFrameBuilder(root: root)
    let gate = BackgroundGate()
    var s = WindowGrid()
    gate.withCurrent {
      s.attach(
        to: builder.scene, semantics: builder.semantics,
        options: StrategyOptions(windowSeconds: pinned, windowOverlap: overlap))
    }
    let state = try #require(s.state)
    gate.hold()
    s.update(at: 0, animated: true)
    #expect(!state.windows.builder.isIdle, "the next window's build is held")
    return (s, builder, gate, state)
  }

  /// Updates `state` at t on another thread: whether it returned within `seconds` (a frame that
  /// waits for a held build does not), and a semaphore it signals when it has.
  func update(_ state: _TimeAwareState<_WindowsAhead<WindowGridIndex>>, at t: Double, within seconds: Double) -> (
    Bool, DispatchSemaphore
  ) {
    let shared = Shared(state)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      shared.state.update(at: t, animated: true)
      done.signal()
    }
    return (done.wait(timeout: .now() + seconds) == .success, done)
  }

  @Test func aFramePastTheHandOverAnswersFromTheOverlapWithoutWaiting() throws {
    let (s, builder, gate, state) = try heldAtTheFirstWindow(seed: 21, overlap: 0.5)
    // Past the hand-over, inside the overlap: a frame that waits for the held build fails the
    // test rather than hanging it.
    let (returned, done) = update(state, at: 0.12, within: 30)
    #expect(returned, "the frame past the hand-over waited for the held build")
    if !returned {
      gate.release()
      done.wait()
    }
    #expect(state.counters.lateFrames == 1 && state.counters.waitedFrames == 0, "\(state.counters)")
    #expect(state.counters.windowsStarted == 0, "no window began while the next was held")
    let (late, lateAsked) = wrongAnswers(s, builder, at: 0.12, seed: 1)
    #expect(late == 0, "\(late) of \(lateAsked) answers wrong from the overlap")

    // Built at last: the next frame swaps to the next window, without waiting.
    gate.release()
    state.windows.builder.wait()
    state.update(at: 0.13, animated: true)
    #expect(state.counters.windowsStarted == 1 && state.counters.lateFrames == 0, "\(state.counters)")
    #expect(state.counters.waitedFrames == 0)
    let (wrong, asked) = wrongAnswers(s, builder, at: 0.13, seed: 2)
    #expect(wrong == 0, "\(wrong) of \(asked) answers wrong from the next window")
  }

  /// Before any build has been measured, an adaptive window's bounds reach two lengths past
  /// its hand-over whatever the overlap asked for (`WindowLength.maximumOverlap`): the first
  /// frame after it, the next window held, answers from it and does not wait.
  @Test func theFirstAdaptiveWindowReachesPastItsHandOverWithoutAnOverlap() throws {
    let (s, builder, gate, state) = try heldAtTheFirstWindow(seed: 23, overlap: 0, pinned: nil)
    let handOver = state.windows.handover
    #expect(state.windows.front.end >= handOver + 2 * state.length.seconds - 1e-12, "\(state.windows.front.end)")
    let t = handOver + 0.02
    let (returned, done) = update(state, at: t, within: 30)
    #expect(returned, "the frame past the first window's hand-over waited for the held build")
    gate.release()
    if !returned { done.wait() }
    #expect(state.counters.lateFrames == 1 && state.counters.waitedFrames == 0, "\(state.counters)")
    let (wrong, asked) = wrongAnswers(s, builder, at: t, seed: 4)
    #expect(wrong == 0, "\(wrong) of \(asked) answers wrong from the overlap")
  }

  /// Without an overlap (a pinned length keeps the one asked for), the frame after the
  /// hand-over swaps only once the next window is built: it waits, and says so.
  @Test func withoutAnOverlapTheFrameAfterTheHandOverWaits() throws {
    let (s, builder, gate, state) = try heldAtTheFirstWindow(seed: 22, overlap: 0)
    // Held, it cannot return; released, it swaps after the wait.
    let (returned, done) = update(state, at: 0.12, within: 0.3)
    #expect(!returned, "the frame past the window did not wait")
    gate.release()
    done.wait()
    #expect(state.counters.waitedFrames == 1 && state.counters.windowsStarted == 1, "\(state.counters)")
    let (wrong, asked) = wrongAnswers(s, builder, at: 0.12, seed: 3)
    #expect(wrong == 0, "\(wrong) of \(asked) answers wrong")
  }
}
