import Columns
import LayerModel

extension PresentationFrame {
  /// Checks the frame's structure (compiled in with `HITBENCH_INTERNAL_CHECKS`, which debug
  /// builds and so the test suite define; a no-op otherwise): rows in preorder with parents
  /// first, nested subtree ranges, guard rows on the ancestor chain, flags that imply their
  /// prerequisites, each model layer on exactly one row, and the last build's changed runs
  /// ascending, disjoint and within the rows (none when it recomputed every row). O(rows).
  public func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      precondition(count <= capacity, "more rows than storage")
      precondition(!recomputedEveryRow || _changedRunCount == 0, "runs listed for a build of every row")
      var lastEnd: Int32 = 0
      for i in 0..<_changedRunCount {
        let run = _changedRuns[i]
        precondition(
          run.start >= lastEnd && run.start < run.end && Int(run.end) <= count && (i == 0 || run.start > lastEnd),
          "changed run \(i) (\(run.start)..<\(run.end)) out of order, empty, joinable or past the rows")
        lastEnd = run.end
      }
      guard count > 0 else { return }
      precondition(parent[0] == -1 && subtreeEnd[0] == Int32(count), "row 0 is the root and spans the frame")
      var seen = [Bool](repeating: false, count: count)
      for r in 0..<count {
        let id = Int(layer[r].rawValue)
        precondition(id >= 0 && id < count && !seen[id], "row \(r): layer \(id) not a permutation")
        seen[id] = true
        let end = Int(subtreeEnd[r])
        precondition(end > r && end <= count, "row \(r): subtree end \(end)")
        let f = flags[r]
        precondition(!f.contains(.hittable) || f.contains(.reachable), "row \(r): hittable but unreachable")
        if r == 0 { continue }
        let p = Int(parent[r])
        precondition(p >= 0 && p < r, "row \(r): parent \(p) is not an earlier row")
        precondition(end <= Int(subtreeEnd[p]), "row \(r): subtree leaves its parent's")
        precondition(
          !f.contains(.reachable) || flags[p].contains(.reachable), "row \(r): reachable under an unreachable parent")
        let g = Int(guardRow[r])
        precondition(g < r, "row \(r): guard row \(g) after it")
        if g >= 0 {
          precondition(
            flags[g].contains(.clips) || flags[g].contains(.projective),
            "row \(r): guard \(g) neither clips nor projects")
          precondition(r < Int(subtreeEnd[g]), "row \(r): guard \(g) is not an ancestor")
        }
      }
    #endif
  }
}
