import Columns
import LayerModel
import Motion
import Presentation

/// Bounds each moving group over a window into a `WindowSlot`'s index, by the one rule every
/// time-aware strategy bounds its groups by (`MotionBounds._linearWhereExact`): exact lines
/// where the group's root moves piecewise linearly under no clipping ancestor, its window box
/// (its root's box and its members' region) at both ends elsewhere. Its own `MotionBounds` over
/// the groups' lazy presentation, whose fixed rows it only reads: a builder thread computes
/// while queries evaluate with the same lazy presentation. Allocates nothing.
final class WindowBounds {
  let motion: MotionBounds

  /// Reads the fixed layers from the groups' lazy presentation (pinned there).
  init(groups: MotionGroups) {
    motion = MotionBounds(sharing: groups.lazy)
    // It computes on the builder thread; its owner takes in scene changes while it is idle.
    motion.synchronizesWithScene = false
    // Windows follow one another, and each group's region (its hull) is fixed until the scene
    // changes: a translated root's straight stretch answers the windows after the first.
    motion.reusesPieces = true
  }

  /// Every moving group's bounds over [t0, t1] (the model tree's at t0, which hold forever)
  /// into `slot` (`WindowSlot.fill`); answers how many groups could not be bounded.
  func compute<Index: MotionIndex>(
    into slot: WindowSlot<Index>, _ groups: MotionGroups, from t0: Double, to t1: Double, animated: Bool
  ) -> Int {
    motion.animated = animated
    let end = animated ? t1 : t0
    var unbounded = 0
    // Read once a window (a class reference read from the scene's variable is retained).
    let program = motion.scene.animations
    slot.fill(groups) { g in
      let (b, lost, exactWithin) = motion._linearWhereExact(groups, g, from: t0, to: end, program)
      if lost { unbounded += 1 }
      return (b, exactWithin)
    }
    return unbounded
  }
}

extension MotionBounds {
  /// Group g's window box over [t, end]: where its root and members can be at any time of it
  /// (its root's box, its ancestors computed for the window on the way, and its members'
  /// region); and whether its root could not be bounded. Every time-aware rule's window box.
  @inline(__always) func _windowBox(
    _ groups: MotionGroups, _ g: Int, from t: Double, to end: Double, _ program: FrozenAnimationProgram
  ) -> (box: Box, unbounded: Bool) {
    let r = Int(groups.root[g])
    let (root, region) = box(of: r, region: groups.hull[g], from: t, to: end, program)
    return (root.union(region), isUnbounded(r))
  }

  /// Group g's bounds over [t, end] by the one rule: exact lines where its root moves piecewise
  /// linearly under no clipping ancestor (a clipping ancestor bounds a window box, not the
  /// lines, which can then be far wider than the clipped box, as a scroll view's content is),
  /// else its window box at both ends; and whether its root could not be bounded; and where
  /// the bounds decide the group's one candidate, how far they are moved out from its box at
  /// most (`WindowEntry.exactWithin`; infinity elsewhere). What every windowed strategy bounds
  /// its window's groups by, and `stagger-grid` each group over its own window. A window box
  /// may be taken over a longer `span` from t (it then holds the window too): groups bounded
  /// over windows from one time that end apart, boxed over one span, have their moving
  /// ancestors bounded once, not once a group (the window's own lines stay the tighter).
  /// `program` is the scene's animations, read by the caller once for many groups.
  @inline(__always) func _linearWhereExact(
    _ groups: MotionGroups, _ g: Int, from t: Double, to end: Double, boxedTo span: Double? = nil,
    _ program: FrozenAnimationProgram
  ) -> (bounds: LinearBox, unbounded: Bool, exactWithin: Double) {
    if end.isFinite, let (b, exactWithin) = _exactLines(groups, g, from: t, to: end, program) {
      return (b, false, exactWithin)
    }
    // Only a root under moving ancestors has them to share (others keep their own window's
    // box, tighter where the span is longer).
    let shared = span.map { Swift.max($0, end) } ?? end
    let (b, unbounded) = _windowBox(
      groups, g, from: t, to: movesWithParent(Int(groups.root[g])) ? shared : end, program)
    return (LinearBox(start: b, end: b), unbounded, .infinity)
  }

  /// Group g's exact lines over [t, end] (`linearBounds` of its root and members' region), nil
  /// where it has none or an ancestor clips; and their `exactWithin` where its root is a lean
  /// root decided by its world box alone (`MotionGroups.boxAlone`), else infinity.
  @inline(__always) func _exactLines(
    _ groups: MotionGroups, _ g: Int, from t: Double, to end: Double, _ program: FrozenAnimationProgram
  ) -> (LinearBox, Double)? {
    let r = Int(groups.root[g])
    guard end > t, isUnclipped(r),
      let b = linearBounds(of: r, region: groups.hull[g], from: t, to: end, program)
    else { return nil }
    return (LinearBox(start: b.start, end: b.end), groups.boxAlone[g] ? b.exactWithin : .infinity)
  }
}
