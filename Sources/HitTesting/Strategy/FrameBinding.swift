import LayerModel
import Presentation

/// The presentation frame a strategy was updated with, and the build it was updated with. A
/// frame object is rebuilt in place at every time step, and a rebuild can change what every row
/// means (and how many there are), so a strategy answers only while the frame still holds that
/// build: `answer(_:into:)` checks once per batch (always, even in -Ounchecked builds: a stale
/// index would read rows that changed meaning), each query with `HITBENCH_INTERNAL_CHECKS`.
public struct FrameBinding {
  @usableFromInline var _frame: PresentationFrame
  @usableFromInline var _generation: UInt64

  public init() {
    _frame = PresentationFrame(semantics: .calayer)
    _generation = _frame.generation
  }

  /// Binds to `frame` as it is now.
  public mutating func bind(_ frame: PresentationFrame) {
    _frame = frame
    _generation = frame.generation
  }

  /// The bound frame.
  @inlinable public var frame: PresentationFrame { _frame }

  /// Whether the frame still holds the build the strategy was updated with.
  @inlinable public var isCurrent: Bool { _frame.generation == _generation }

  /// Whether `frame` is the bound frame built exactly once since, and that build recomputed
  /// only its `changedRuns()`: an index updated with the bound build may then move just those
  /// rows. Ask before `bind`.
  public func isFollowed(by frame: PresentationFrame) -> Bool {
    _frame === frame && frame.generation == _generation &+ 1 && !frame.recomputedEveryRow
  }

  /// For a strategy's `_checkInvariants()`: the bound frame, its own invariants checked, while
  /// checks are active (`InternalChecks`); nil when they are not.
  public func _frameUnderCheck() -> PresentationFrame? {
    guard InternalChecks.active else { return nil }
    _frame._checkInvariants()
    return _frame
  }
}

/// Each query's own check that its frame was not rebuilt since the update (with
/// `HITBENCH_INTERNAL_CHECKS`).
@inlinable @inline(__always) func _checkCurrent(_ binding: FrameBinding) {
  #if HITBENCH_INTERNAL_CHECKS
    precondition(binding.isCurrent, "queried after the frame was rebuilt")
  #endif
}
