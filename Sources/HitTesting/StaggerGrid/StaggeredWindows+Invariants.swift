import LayerModel
import Presentation

extension _StaggeredWindows {
  /// Checks the windows (with `HITBENCH_INTERNAL_CHECKS`) after an update at clock time t:
  /// every moving group queued once, the queue a min-heap by window end, every window holding t
  /// (animated), every group's box the hull of its bounds' two ends; with `grid`, also the grid
  /// listing each group in the cells of its box (after a restart: every frame would make the
  /// checked tests' frames O(nodes)). O(groups), plus O(nodes) with `grid`.
  func _checkInvariants(at t: Double, animated: Bool, grid checkGrid: Bool) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let moving = groups.count - 1
      guard moving > 0 else { return }
      var seen = [Bool](repeating: false, count: groups.count)
      for k in 0..<moving {
        let g = Int(queue[k])
        precondition(g >= 1 && g < groups.count && !seen[g], "stagger-grid: group \(g) queued twice or out of range")
        seen[g] = true
        precondition(
          k == 0 || !_endsBefore(queue[k], queue[(k - 1) / 2]), "stagger-grid: the queue is not a heap by window end")
        // `t <= end`, not `<`: where t + length rounds to t (clock times near 1e300) a window is
        // the instant t itself.
        if animated { precondition(start[g] <= t && t <= end[g], "stagger-grid: group \(g)'s window misses t = \(t)") }
        precondition(
          box[g] == line[g].start.union(line[g].end), "stagger-grid: group \(g)'s box is not its bounds' hull")
      }
      if checkGrid { box.withUnsafeBufferPointer { grid._checkInvariants($0) } }
    #endif
  }
}
