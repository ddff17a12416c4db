import Presentation

/// One piece of an index as a picture shows it: a box in world space and what it holds (a grid
/// cell and its row count, a BVH node or a flattened subtree and its depth, a moving group's
/// bound over the current window and its layer count).
public struct InspectedBox: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// A uniform-grid cell; `value` is the number of rows it lists.
    case cell
    /// A BVH node; `value` is its depth (the root is 0).
    case node
    /// A row's subtree box in the flattened tree; `value` is the row's depth.
    case subtree
    /// A moving group's bound at the current time of its window (the window box, or the
    /// linear bound interpolated); `value` is the number of layers the group holds.
    case motionBound
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

/// What `hitbench render` shows of a strategy at one time: its answers, its index (nil when it
/// does not implement `IndexInspection`) and, per point, the layers it gave the exact test, in
/// the order it tested them (seen through `CandidateRecorder` on the strategy's own query).
public struct StrategyInspection: Sendable {
  public var answers: [LayerID?]
  public var index: [InspectedBox]?
  public var candidates: [[LayerID]]

  public init(answers: [LayerID?], index: [InspectedBox]?, candidates: [[LayerID]]) {
    self.answers = answers
    self.index = index
    self.candidates = candidates
  }
}
