import Presentation

/// One piece of an index as a picture shows it: a box in world space and what it holds (a grid
/// cell and its row count, a BVH node and its depth).
public struct InspectedBox: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// A uniform-grid cell; `value` is the number of rows it lists.
    case cell
    /// A BVH node; `value` is its depth (the root is 0).
    case node
  }
  public var kind: Kind
  public var box: Box
  public var value: Int

  public init(_ kind: Kind, _ box: Box, value: Int) {
    self.kind = kind
    self.box = box
    self.value = value
  }
}

/// Read-only access to a strategy's own index state, for `hitbench render`: the renderer
/// draws what the strategy holds, it never recomputes it. Off the query path; it allocates.
public protocol IndexInspection {
  /// The index's boxes after the last update.
  func inspectedBoxes() -> [InspectedBox]
}
