import Columns
import LayerModel
import Presentation

/// One window's index and everything a query reads with it: each group's bounds over the
/// window, the index over the groups whose bounds it can hold (entry i is group `entryGroup[i]`,
/// ascending), and the groups kept outside it (infinite or huge bounds: tested on every query).
/// Two slots make a double buffer: queries read the front one while the builder fills the back
/// one for the next window.
final class WindowSlot<Index: MotionIndex> {
  var index = Index()
  /// The window [start, end): the model tree's is unbounded (it does not move).
  var start = Double.nan
  var end = Double.nan
  var animated = true
  /// Each group's bounds (group 0, the fixed layers, is empty).
  var bound = ColumnBuffer<LinearBox>()
  var entryGroup = ColumnBuffer<Int32>()
  var outside = ColumnBuffer<Int32>()
  /// Groups whose motion could not be bounded, and the build's wall time.
  var unbounded = 0
  var buildNanoseconds: UInt64 = 0
  /// The scene version and group count it was built for.
  var version = -1

  /// Whether clock time t is inside the window.
  @inline(__always) func holds(_ t: Double) -> Bool { t >= start && t < end }

  /// Where t falls in the window, from 0 to 1 (0 for an unbounded or empty window).
  @inline(__always) func fraction(_ t: Double) -> Double { LinearBox.fraction(t, from: start, to: end) }

  /// Makes room for `groups` groups (allocates only when the group count grows).
  func reserve(_ groups: Int) {
    if bound.count != groups { bound.reserve(groups, filling: .nothing) }
    entryGroup.reserve(groups)
    outside.reserve(groups)
    index.reserve(groups)
  }

  /// Splits the groups' bounds into the index's entries and the outside list, and rebuilds the
  /// index from the entries' boxes, gathered into `entryStart` and `entryEnd` (the builder's,
  /// shared by both slots).
  func index(groups: Int, gathering entryStart: inout ColumnBuffer<Box>, _ entryEnd: inout ColumnBuffer<Box>) {
    entryStart.reserve(groups)
    entryEnd.reserve(groups)
    var n = 0
    var out = 0
    for g in 1..<Swift.max(groups, 1) {
      BuildPause.checkpoint(every: g)
      let l = bound[g]
      if l.start.isEmpty && l.end.isEmpty { continue }
      if Self._inRange(l.start) && Self._inRange(l.end) {
        entryGroup[n] = Int32(g)
        entryStart[n] = l.start
        entryEnd[n] = l.end
        n += 1
      } else {
        outside[out] = Int32(g)
        out += 1
      }
    }
    entryGroup.reserve(n)
    entryStart.reserve(n)
    entryEnd.reserve(n)
    outside.reserve(out)
    BuildPause.checkpoint()
    entryStart.withUnsafeBufferPointer { s in
      entryEnd.withUnsafeBufferPointer { e in index.rebuild(start: s, end: e) }
    }
    _checkInvariants(groups: groups, entryStart: entryStart, entryEnd: entryEnd)
  }

  /// Every edge finite and within the index's magnitude limit.
  @inline(__always) static func _inRange(_ b: Box) -> Bool {
    let limit = Index.magnitudeLimit
    return b.isFiniteAndNonEmpty && Swift.abs(b.minX) <= limit && Swift.abs(b.minY) <= limit
      && Swift.abs(b.maxX) <= limit && Swift.abs(b.maxY) <= limit
  }

  var memoryFootprint: Int {
    index.memoryFootprint + bound.memoryFootprint + entryGroup.memoryFootprint + outside.memoryFootprint
  }
}
