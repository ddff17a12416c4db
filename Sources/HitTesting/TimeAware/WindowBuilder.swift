import Clocks
import Columns
import LayerModel
@_spi(FaultInjection) import Presentation

/// Builds the next window's index on a thread of its own while the current window answers
/// (the double buffer of a time-aware strategy, as PhysX's scene-query pruner rebuilds its tree
/// while the old one answers): `post` hands it a slot and a window, `wait` returns when the slot
/// is ready. It computes with its own motion bounds, reading the compiled scene and the groups,
/// which the owner does not change while a build runs (it waits first), and the scene does not
/// change under it either: it is the scene's background reader, so any consumer's
/// `synchronize` waits for the build before changing a column. The thread is counted
/// by the allocation counters, so a build that allocated would show in the frame it ran beside.
/// A build can also run on the caller's thread (`buildNow`), with the same result.
final class WindowBuilder<Index: MotionIndex>: @unchecked Sendable, SceneBackgroundReader {
  let groups: MotionGroups
  let bounds: WindowBounds
  /// The posted job (written by the owner while the thread is idle, read by the thread after
  /// the post is published).
  private var slot: WindowSlot<Index>?
  private var start = 0.0
  private var end = 0.0
  private var animated = true
  private(set) var worker: BackgroundWorker?

  init(groups: MotionGroups) {
    self.groups = groups
    bounds = WindowBounds(groups: groups)
    worker = BackgroundWorker { [unowned(unsafe) self] in
      if let slot = self.slot { self._build(slot, self.start, self.end, self.animated, ahead: true) }
    }
    // Whoever takes the scene's changes in waits for a running build first.
    groups.scene.addBackgroundReader(self)
  }

  func waitUntilIdle() { wait() }

  deinit { worker = nil }

  /// Whether no build is running.
  var isIdle: Bool { worker?.isIdle ?? true }

  /// Starts building `slot` for the window [start, end) on the builder's thread. The slot is
  /// the builder's until `wait` returns. `nextExpectedAt` (monotonic nanoseconds, 0: not known):
  /// when the next post is expected (`BackgroundWorker.post`).
  func post(
    _ slot: WindowSlot<Index>, from start: Double, to end: Double, animated: Bool, nextExpectedAt: UInt64 = 0
  ) {
    wait()
    self.slot = slot
    self.start = start
    self.end = end
    self.animated = animated
    worker?.post(nextExpectedAt: nextExpectedAt)
  }

  /// Returns when no build is running (at once when none is).
  func wait() { worker?.wait() }

  /// Builds `slot` for [start, end) on the calling thread (after any running build).
  func buildNow(_ slot: WindowSlot<Index>, from start: Double, to end: Double, animated: Bool) {
    wait()
    _build(slot, start, end, animated, ahead: false)
  }

  /// Takes in the scene's changes (the groups were rebuilt): only while idle.
  func resynchronize() {
    wait()
    bounds.motion.resynchronize()
  }

  private func _build(_ slot: WindowSlot<Index>, _ start: Double, _ end: Double, _ animated: Bool, ahead: Bool) {
    let t0 = Clocks.monotonicNanoseconds()
    let held = BuildPause.heldNanosecondsOnThisThread
    slot.reserve(groups.count)
    // Fault injection (`InjectedFaults.staleWindows`): a window built ahead bounds the one
    // before it.
    let stale = ahead && groups.scene._faults.staleWindows
    slot.unbounded = bounds.compute(
      into: slot, groups, from: stale ? start - (end - start) : start, to: stale ? start : end, animated: animated)
    slot.start = start
    slot.end = animated ? end : .infinity
    slot.animated = animated
    slot.version = groups.version
    // Time it waited at checkpoints (`BuildPause`): time the build did not take.
    let wall = Clocks.monotonicNanoseconds() &- t0
    let heldWhile = BuildPause.heldNanosecondsOnThisThread &- held
    slot.buildNanoseconds = wall > heldWhile ? wall &- heldWhile : 0
  }
}
