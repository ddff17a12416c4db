import Columns
import LayerModel
import Motion
import Presentation

/// Computes each moving group's bounds over a window into a `WindowSlot`: its root's box and
/// its members' region, from the animations' structure (`MotionBounds`, its own instance over
/// the groups' lazy presentation, whose fixed rows it only reads: a builder thread computes
/// while queries evaluate with the same lazy presentation).
/// Window boxes hold the group at every time of the window; linear bounds are exact where the
/// root moves piecewise linearly (`MotionBounds.linearBounds`), else lines fitted through
/// `subWindows` sub-window boxes and moved out to hold them all. Allocates only when the group
/// count grows.
final class WindowBounds {
  let motion: MotionBounds
  /// Sub-windows per window for fitting lines.
  static let subWindows = 4
  var subBoxes = ColumnBuffer<Box>()
  var exact = ColumnBuffer<Bool>()

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
  /// into `slot.bound`; answers how many groups could not be bounded.
  func compute<Index: MotionIndex>(
    into slot: WindowSlot<Index>, _ groups: MotionGroups, from t0: Double, to t1: Double, animated: Bool
  ) -> Int {
    motion.animated = animated
    let end = animated ? t1 : t0
    var unbounded = 0
    slot.bound[0] = .nothing
    switch Index.bounds {
    case .window:
      for g in 1..<Swift.max(groups.count, 1) {
        BuildPause.checkpoint(every: g)
        let (b, lost) = motion._windowBox(groups, g, from: t0, to: end)
        slot.bound[g] = LinearBox(start: b, end: b)
        if lost { unbounded += 1 }
      }
    case .linear:
      unbounded = _fit(into: slot, groups, from: t0, to: end)
    case .linearWhereExact:
      for g in 1..<Swift.max(groups.count, 1) {
        BuildPause.checkpoint(every: g)
        let (b, lost) = motion._linearWhereExact(groups, g, from: t0, to: end)
        slot.bound[g] = b
        if lost { unbounded += 1 }
      }
    }
    return unbounded
  }

  /// Exact lines (`MotionBounds.linearBounds`) as the bounds of every group that has them (with
  /// `unclippedOnly`, only under no clipping ancestor), marked in `exact`.
  func _exactLines<Index: MotionIndex>(
    into slot: WindowSlot<Index>, _ groups: MotionGroups, from t: Double, to end: Double, unclippedOnly: Bool
  ) {
    exact.reserve(groups.count)
    for g in 1..<Swift.max(groups.count, 1) {
      BuildPause.checkpoint(every: g)
      exact[g] = false
      guard let b = motion._exactLines(groups, g, from: t, to: end, unclippedOnly: unclippedOnly) else { continue }
      slot.bound[g] = b
      exact[g] = true
    }
  }

  /// Linear bounds for every group (see the type's documentation).
  func _fit<Index: MotionIndex>(into slot: WindowSlot<Index>, _ groups: MotionGroups, from t: Double, to end: Double)
    -> Int
  {
    let count = groups.count
    let n = Self.subWindows
    subBoxes.reserve(count * n)
    var unbounded = 0
    _exactLines(into: slot, groups, from: t, to: end, unclippedOnly: false)
    // The others: sub-window boxes, one sub-window at a time (the motion bounds memoise
    // ancestors per window), and lines through the first and last, moved out to hold them all.
    let step = (end - t) / Double(n)
    for j in 0..<n {
      let a = t + step * Double(j)
      let b = j == n - 1 ? end : t + step * Double(j + 1)
      for g in 1..<Swift.max(count, 1) where !exact[g] {
        BuildPause.checkpoint(every: g)
        let (box, lost) = motion._windowBox(groups, g, from: a, to: b)
        if j == 0 && lost { unbounded += 1 }
        subBoxes[g * n + j] = box
      }
    }
    subBoxes.withUnsafeBufferPointer { sb in
      for g in 1..<Swift.max(count, 1) where !exact[g] {
        slot.bound[g] = Self._line(through: UnsafeBufferPointer(rebasing: sb[(g * n)..<(g * n + n)]))
      }
    }
    return unbounded
  }

  /// The linear bounds holding consecutive sub-window boxes: for each edge, the line through
  /// the first and last sub-box's edge, moved out by the most a sub-box sticks out of it at
  /// either end of its sub-window (an empty sub-box, never a candidate, stands in as the union
  /// of all). Infinite where an edge is.
  static func _line(through s: UnsafeBufferPointer<Box>) -> LinearBox {
    var all = Box.nothing
    for b in s { all = all.union(b) }
    guard !all.isEmpty else { return .nothing }
    let lowX = _edge(s, all, 0, lower: true)
    let lowY = _edge(s, all, 1, lower: true)
    let highX = _edge(s, all, 2, lower: false)
    let highY = _edge(s, all, 3, lower: false)
    return LinearBox(
      start: Box(minX: lowX.0, minY: lowY.0, maxX: highX.0, maxY: highY.0),
      end: Box(minX: lowX.1, minY: lowY.1, maxX: highX.1, maxY: highY.1))
  }

  /// Box b's edge `e`: 0 minX, 1 minY, 2 maxX, 3 maxY. (A key path here was read through the
  /// runtime, with generic metadata look-ups: a tenth of `linear-bvh`'s window build on the idle
  /// screen, docs/optimisation-log.md entry 63.)
  @inline(__always) static func _edgeValue(_ b: Box, _ e: Int) -> Double {
    switch e {
    case 0: b.minX
    case 1: b.minY
    case 2: b.maxX
    default: b.maxY
    }
  }

  @inline(__always) static func _edge(_ s: UnsafeBufferPointer<Box>, _ all: Box, _ edge: Int, lower: Bool) -> (
    Double, Double
  ) {
    let n = s.count
    @inline(__always) func v(_ j: Int) -> Double { _edgeValue(s[j].isEmpty ? all : s[j], edge) }
    let infinite = lower ? (-Double.infinity, -Double.infinity) : (Double.infinity, Double.infinity)
    let a = v(0)
    let b = v(n - 1)
    guard a.isFinite && b.isFinite else { return infinite }
    var out = 0.0
    for j in 0..<n {
      let x = v(j)
      guard x.isFinite else { return infinite }
      let y0 = a + (b - a) * (Double(j) / Double(n))
      let y1 = a + (b - a) * (Double(j + 1) / Double(n))
      out = Swift.max(out, lower ? Swift.max(y0 - x, y1 - x) : Swift.max(x - y0, x - y1))
    }
    // The interpolation's own rounding: a relative pad.
    let pad = out + (Swift.abs(a) + Swift.abs(b)) * 1e-12 + 1e-12
    return lower ? (a - pad, b - pad) : (a + pad, b + pad)
  }
}

extension MotionBounds {
  /// Group g's window box over [t, end]: where its root and members can be at any time of it
  /// (its root's box, its ancestors computed for the window on the way, and its members'
  /// region); and whether its root could not be bounded. Every time-aware rule's window box.
  @inline(__always) func _windowBox(_ groups: MotionGroups, _ g: Int, from t: Double, to end: Double) -> (
    box: Box, unbounded: Bool
  ) {
    let r = Int(groups.root[g])
    let (root, region) = box(of: r, region: groups.hull[g], from: t, to: end)
    return (root.union(region), isUnbounded(r))
  }

  /// Group g's bounds over [t, end] by the one rule of `MotionBoundsKind.linearWhereExact`:
  /// exact lines where its root moves piecewise linearly under no clipping ancestor (a clipping
  /// ancestor bounds a window box, not the lines), else its window box at both ends; and
  /// whether its root could not be bounded. What `window-grid` bounds its windows' groups by,
  /// and `stagger-grid` each group over its own window.
  @inline(__always) func _linearWhereExact(_ groups: MotionGroups, _ g: Int, from t: Double, to end: Double) -> (
    bounds: LinearBox, unbounded: Bool
  ) {
    if end.isFinite, let b = _exactLines(groups, g, from: t, to: end, unclippedOnly: true) { return (b, false) }
    let (b, unbounded) = _windowBox(groups, g, from: t, to: end)
    return (LinearBox(start: b, end: b), unbounded)
  }

  /// Group g's exact lines over [t, end] (`linearBounds` of its root and members' region), nil
  /// where it has none; with `unclippedOnly`, also where an ancestor clips (lines are not
  /// clipped, so there they can be far wider than the clipped window box).
  @inline(__always) func _exactLines(
    _ groups: MotionGroups, _ g: Int, from t: Double, to end: Double, unclippedOnly: Bool
  ) -> LinearBox? {
    let r = Int(groups.root[g])
    guard end > t, !unclippedOnly || isUnclipped(r),
      let b = linearBounds(of: r, region: groups.hull[g], from: t, to: end)
    else { return nil }
    return LinearBox(start: b.start, end: b.end)
  }
}
