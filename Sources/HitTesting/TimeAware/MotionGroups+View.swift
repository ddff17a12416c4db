import Columns
import LayerModel
import Presentation

extension MotionGroups {
  /// The columns a query reads, as plain pointers: one view per batch of queries, so nothing
  /// per query or candidate touches a reference count or an exclusivity check.
  struct View {
    let root: UnsafePointer<Int32>
    let memberStart: UnsafePointer<Int32>
    let members: UnsafePointer<Int32>
    let memberBox: UnsafePointer<Box>
    let maxRank: UnsafePointer<Int32>
    let gridOf: UnsafePointer<Int32>
    let gridGeometry: UnsafePointer<GridGeometry>
    let gridCellBase: UnsafePointer<Int32>
    let cellStart: UnsafePointer<Int32>
    let cellEntries: UnsafePointer<Int32>
    let leanRoot: UnsafePointer<Bool>
    let rank: UnsafePointer<Int32>
    let count: Int
    let worldBelowMoving: Bool
  }

  /// A view of the columns, valid while the groups are not rebuilt (`refresh`): a batch of
  /// queries takes one, and updates, which may rebuild, never run during a batch.
  var view: View {
    View(
      root: root._unsafeStorage, memberStart: memberStart._unsafeStorage, members: members._unsafeStorage,
      memberBox: memberBox._unsafeStorage, maxRank: maxRank._unsafeStorage, gridOf: gridOf._unsafeStorage,
      gridGeometry: gridGeometry._unsafeStorage, gridCellBase: gridCellBase._unsafeStorage,
      cellStart: cellStart._unsafeStorage, cellEntries: cellEntries._unsafeStorage,
      leanRoot: leanRoot._unsafeStorage, rank: rank._unsafeStorage, count: count,
      worldBelowMoving: worldBelowMoving)
  }

  /// Runs `body` with a view of the columns (valid inside it only).
  @inline(__always) func withView<R>(_ body: (View) -> R) -> R { body(view) }

  /// Checks the groups (with `HITBENCH_INTERNAL_CHECKS`): member ranges nested in order, each
  /// member in its group and not moving, members by descending rank, the prefix of the
  /// highest ranks non-decreasing, grids' cells within their group, lean roots without
  /// members. O(layers + grid entries).
  func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      precondition(count >= 1 && root[0] == -1 && memberStart[0] == 0, "group 0 is the world")
      for g in 0..<count {
        let a = Int(memberStart[g])
        let b = Int(memberStart[g + 1])
        precondition(a <= b && b <= members.count, "group \(g): members \(a)..<\(b)")
        if g > 0 {
          let r = Int(root[g])
          precondition(groupOf[r] == Int32(g) && _moves(r), "group \(g): root \(r) is not a moving layer of it")
          precondition(!leanRoot[g] || a == b, "group \(g): a lean root with members")
        }
        for i in a..<b {
          let m = Int(members[i])
          precondition(groupOf[m] == Int32(g) && !_moves(m), "group \(g): member \(m)")
          precondition(i == a || rank[Int(members[i - 1])] > rank[m], "group \(g): members not by descending rank")
        }
        precondition(g == 0 || prefixMaxRank[g] >= prefixMaxRank[g - 1], "group \(g): prefix of ranks decreases")
        let grid = Int(gridOf[g])
        guard grid >= 0 else { continue }
        let geometry = gridGeometry[grid]
        let base = Int(gridCellBase[grid])
        for c in 0..<geometry.cellCount {
          let lo = Int(cellStart[base + c])
          let hi = Int(cellStart[base + c + 1])
          precondition(lo <= hi && hi <= cellEntries.count, "group \(g): cell \(c)")
          for e in lo..<hi { precondition(Int(cellEntries[e]) < b - a, "group \(g): cell \(c) entry outside") }
        }
      }
    #endif
  }
}
