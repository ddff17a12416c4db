/// Faults a verifier can inject into a compiled scene, to prove that it catches each kind of
/// error a strategy could make: every frame built from the scene (by a builder or lazily) and
/// every motion bound derived from it carries them, so every strategy answering on the scene
/// sees the same fault. The reference and the oracle are built from an unfaulted scene.
public struct InjectedFaults: Sendable, Equatable {
  /// Every layer's hit region (its local bounds) inset by this much on each side.
  public var shrinkHitRegions = 0.0
  /// Every motion bound shrunk by this much on each side.
  public var shrinkMotionBounds = 0.0
  /// Layer `shiftLayer`'s map into its parent translated by `shift` points along both axes (so
  /// its world map and its subtree's move by that much): -1 for none.
  public var shiftLayer = -1
  public var shift = 0.0
  /// Layer `flagLayer`'s `flag` flipped (hidden, or masksToBounds): -1 for none.
  public var flagLayer = -1
  public var flag = Flag.hidden
  /// The two top-most sublayers of layer `orderParent` swapped in the drawing order: -1 for none.
  public var orderParent = -1
  /// The time-aware strategies' windows built ahead (in the background, for the window after
  /// the current one) bound the current window's times again instead of their own: a fault
  /// only later frames show, since a strategy's first window is built in its frame and is
  /// right (`hitbench verify`'s histories and `run --verify` must catch it; a fresh instance at
  /// one time cannot).
  public var staleWindows = false

  public enum Flag: String, Sendable, CaseIterable {
    case hidden, masksToBounds
  }

  public init() {}

  /// Whether any fault changes a frame's rows.
  public var changesRows: Bool { shrinkHitRegions > 0 || shiftLayer >= 0 || flagLayer >= 0 }
  public var isEmpty: Bool { self == InjectedFaults() }
}
