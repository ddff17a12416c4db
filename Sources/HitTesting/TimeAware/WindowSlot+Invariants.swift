import Columns
import LayerModel
import Presentation

extension WindowSlot {
  /// Checks a built window (with `HITBENCH_INTERNAL_CHECKS`): every group with a bound either an
  /// index entry (entries by ascending group, each entry's boxes its group's bound, within the
  /// index's magnitude limit) or on the outside list, never both; groups without one in
  /// neither. O(groups).
  func _checkInvariants(
    groups: Int, entryStart: borrowing ColumnBuffer<Box>, entryEnd: borrowing ColumnBuffer<Box>
  ) {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      var place = [Int8](repeating: 0, count: Swift.max(groups, 1))
      for i in 0..<entryGroup.count {
        let g = Int(entryGroup[i])
        precondition(g >= 1 && g < groups, "\(Index.name): entry \(i) is group \(g) of \(groups)")
        precondition(i == 0 || entryGroup[i - 1] < entryGroup[i], "\(Index.name): entries not by ascending group")
        precondition(
          entryStart[i] == bound[g].start && entryEnd[i] == bound[g].end, "\(Index.name): entry \(i)'s boxes")
        precondition(
          Self._inRange(bound[g].start) && Self._inRange(bound[g].end), "\(Index.name): entry \(i) out of range")
        place[g] += 1
      }
      for j in 0..<outside.count {
        let g = Int(outside[j])
        precondition(
          g >= 1 && g < groups && place[g] == 0, "\(Index.name): outside group \(g) also indexed or repeated")
        place[g] += 1
      }
      for g in 1..<Swift.max(groups, 1) {
        let hasBound = !(bound[g].start.isEmpty && bound[g].end.isEmpty)
        precondition(Int(place[g]) == (hasBound ? 1 : 0), "\(Index.name): group \(g) placed \(place[g]) times")
      }
    #endif
  }
}
