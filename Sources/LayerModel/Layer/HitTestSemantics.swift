/// Which hit-test rules apply: a small value, compared once per layer visit.
///
/// - `calayer` (the default): CALayer `hitTest(_:)` as checked against Apple's framework:
///   hidden subtrees are skipped, `masksToBounds` clips, a sibling with a larger `zPosition`
///   wins even when earlier in `sublayers`, and a sublayer outside its parent's bounds is hit.
/// - `calayerSeed`: the same, but `zPosition` plays no part in the order (only the `sublayers`
///   order counts), as one of the articles the project started from states (docs/semantics.md,
///   "The `calayer-seed` preset").
/// - `uiview`: UIView `hitTest(_:with:)`: a hidden view, one with user interaction disabled or
///   with alpha at or below 0.01 is skipped with its subtree; `point(inside:)` must hold before
///   descending; `zPosition` plays no part.
public struct HitTestSemantics: Hashable, Sendable, CustomStringConvertible {
  /// Whether siblings are ordered by `zPosition` first (then array order), or by array order only.
  public var ordersByZPosition: Bool
  /// UIView's rule: the point must be inside a view's bounds before its subviews are asked.
  public var requiresPointInsideBeforeDescending: Bool
  /// UIView's rule: `isUserInteractionEnabled == false` removes the subtree.
  public var respectsUserInteraction: Bool
  /// UIView's rule: opacity at or below this (or below it, see `alphaThresholdIsInclusive`)
  /// removes the subtree; nil means opacity is not consulted (CALayer).
  public var alphaThreshold: Double?
  /// True: "dead at 0.01" (observed); false: "less than 0.01" (the documentation).
  public var alphaThresholdIsInclusive: Bool
  /// The CLI name.
  public var name: String

  public init(
    name: String, ordersByZPosition: Bool, requiresPointInsideBeforeDescending: Bool,
    respectsUserInteraction: Bool, alphaThreshold: Double?, alphaThresholdIsInclusive: Bool = true
  ) {
    self.name = name
    self.ordersByZPosition = ordersByZPosition
    self.requiresPointInsideBeforeDescending = requiresPointInsideBeforeDescending
    self.respectsUserInteraction = respectsUserInteraction
    self.alphaThreshold = alphaThreshold
    self.alphaThresholdIsInclusive = alphaThresholdIsInclusive
  }

  public static let calayer = HitTestSemantics(
    name: "calayer", ordersByZPosition: true, requiresPointInsideBeforeDescending: false,
    respectsUserInteraction: false, alphaThreshold: nil)

  public static let calayerSeed = HitTestSemantics(
    name: "calayer-seed", ordersByZPosition: false, requiresPointInsideBeforeDescending: false,
    respectsUserInteraction: false, alphaThreshold: nil)

  public static let uiview = HitTestSemantics(
    name: "uiview", ordersByZPosition: false, requiresPointInsideBeforeDescending: true,
    respectsUserInteraction: true, alphaThreshold: 0.01, alphaThresholdIsInclusive: true)

  /// The three presets, in CLI order.
  public static let presets: [HitTestSemantics] = [.calayer, .calayerSeed, .uiview]

  /// The preset with this CLI name.
  public init?(named name: String) {
    guard let preset = Self.presets.first(where: { $0.name == name }) else { return nil }
    self = preset
  }

  /// Whether a layer with these properties takes part in hit testing at all (with its subtree).
  @inlinable public func admits(hidden: Bool, userInteractionEnabled: Bool, opacity: Double) -> Bool {
    if hidden { return false }
    if respectsUserInteraction && !userInteractionEnabled { return false }
    if let threshold = alphaThreshold {
      if alphaThresholdIsInclusive ? opacity <= threshold : opacity < threshold { return false }
    }
    return true
  }

  /// Whether the layer's own bounds must contain the point before its sublayers are asked.
  @inlinable public func clipsDescent(masksToBounds: Bool) -> Bool {
    masksToBounds || requiresPointInsideBeforeDescending
  }

  /// The sibling order key: `zPosition` (NaN read as 0, see docs/semantics.md) or 0 when ignored.
  @inlinable public func orderKey(zPosition: Double) -> Double {
    ordersByZPosition && !zPosition.isNaN ? zPosition : 0
  }

  public var description: String { name }
}
