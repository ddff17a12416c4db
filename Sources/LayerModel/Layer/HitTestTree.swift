/// Which tree a hit test asks: the **presentation** tree (what is on screen at time t, every
/// active animation applied: `presentationLayer.hitTest`) or the **model** tree (the values the
/// program set, animations not applied: what hit-testing the model during an animation answers,
/// a common mistake: it answers for where a moving layer is not). Every strategy answers both.
public enum HitTestTree: String, Sendable, CaseIterable, Hashable {
  case presentation
  case model

  /// Whether animations apply.
  @inlinable public var isAnimated: Bool { self == .presentation }

  public init(animated: Bool) { self = animated ? .presentation : .model }
}
