import LayerModel
import Presentation

extension _StaggerState {
  /// Checks the windows (with `HITBENCH_INTERNAL_CHECKS`) after an update at clock time t:
  /// every moving group queued once, the queue in order of window end, every window holding t
  /// (animated); with `grid`, also the grid listing each group in the cells of its box (after
  /// a restart: every frame would make the checked tests' frames O(nodes)). O(groups), plus
  /// O(nodes) with `grid`.
  func _checkInvariants(at t: Double, grid checkGrid: Bool) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let moving = groups.count - 1
      guard moving > 0 else { return }
      var seen = [Bool](repeating: false, count: groups.count)
      var last = -Double.infinity
      for k in 0..<moving {
        let g = Int(queue[(queueHead + k) % moving])
        precondition(g >= 1 && g < groups.count && !seen[g], "stagger-grid: group \(g) queued twice or out of range")
        seen[g] = true
        precondition(end[g] >= last, "stagger-grid: the queue is not in order of window end")
        last = end[g]
        // `t <= end`, not `<`: where t + length rounds to t (clock times near 1e300) a window is
        // the instant t itself.
        if animated { precondition(start[g] <= t && t <= end[g], "stagger-grid: group \(g)'s window misses t = \(t)") }
      }
      if checkGrid { box.withUnsafeBufferPointer { grid._checkInvariants($0) } }
    #endif
  }
}
