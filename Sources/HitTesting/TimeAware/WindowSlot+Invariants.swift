import Columns
import LayerModel
import Presentation

extension WindowSlot {
  /// Checks a built window (with `HITBENCH_INTERNAL_CHECKS`): entries by ascending group, each
  /// entry's bounds within the index's magnitude limit, its key's prefix rank, root, highest
  /// rank and lean flag its group's; outside groups with bounds beyond the limit, neither
  /// indexed nor repeated, by ascending group. O(groups).
  func _checkInvariants(_ motionGroups: MotionGroups) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let groups = motionGroups.count
      var place = [Int8](repeating: 0, count: Swift.max(groups, 1))
      for i in 0..<entries.count {
        let g = Int(entries[i].group)
        precondition(g >= 1 && g < groups, "\(Index.name): entry \(i) is group \(g) of \(groups)")
        precondition(i == 0 || entries[i - 1].group < entries[i].group, "\(Index.name): entries not by ascending group")
        let key = entries[i]
        precondition(
          key.prefixMaxRank == motionGroups.prefixMaxRank[g] && key.root == motionGroups.root[g]
            && key.maxRank == motionGroups.maxRank[g] && key.leanRoot == motionGroups.leanRoot[g],
          "\(Index.name): entry \(i)'s key is not its group's")
        precondition(
          Self._inRange(bound[i].start) && Self._inRange(bound[i].end), "\(Index.name): entry \(i) out of range")
        place[g] += 1
      }
      for j in 0..<outside.count {
        let g = Int(outside[j])
        precondition(
          g >= 1 && g < groups && place[g] == 0, "\(Index.name): outside group \(g) also indexed or repeated")
        precondition(j == 0 || outside[j - 1] < outside[j], "\(Index.name): outside groups not by ascending group")
        let l = outsideBound[j]
        precondition(
          !(l.start.isEmpty && l.end.isEmpty) && !(Self._inRange(l.start) && Self._inRange(l.end)),
          "\(Index.name): outside group \(g)'s bounds")
        place[g] += 1
      }
    #endif
  }
}
