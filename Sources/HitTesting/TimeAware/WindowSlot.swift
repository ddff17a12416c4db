import Columns
import LayerModel
import Presentation

/// One window's index and everything a query reads with it: the index over the groups whose
/// bounds it can hold (entry i is group `entries[i].group`, ascending, its bounds `bound[i]`),
/// and the groups kept outside it (infinite or huge bounds: tested on every query). A query
/// reads an entry's key and bounds by the entry, in two independent loads, where reading them
/// by group would chain three cache misses an entry at a million layers (docs/optimisation-log.md,
/// entry 37). Two slots make a double buffer: queries read the front one while the builder
/// fills the back one for the next window.
final class WindowSlot<Index: MotionIndex> {
  var index = Index()
  /// The window [start, end): the model tree's is unbounded (it does not move).
  var start = Double.nan
  var end = Double.nan
  var animated = true
  /// Entry i's bounds (i < `entries.count`), and the outside groups' (`outsideBound`).
  var bound = ColumnBuffer<LinearBox>()
  var entries = ColumnBuffer<WindowEntry>()
  var outside = ColumnBuffer<Int32>()
  var outsideBound = ColumnBuffer<LinearBox>()
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
    entries.reserve(groups)
    outside.reserve(groups)
    outsideBound.reserve(groups)
    index.reserve(groups)
  }

  /// Bounds every moving group (`bounds(g)`: its bounds over the window, empty for none, and
  /// their `WindowEntry.exactWithin`) into
  /// the index's entries or, beyond the index's magnitude limit, the outside list, both in
  /// ascending group order, and rebuilds the index from the entries' bounds in place (no copy).
  /// Each entry's key copies what a query reads of its group from `groups` (`WindowEntry`).
  @inline(__always) func fill(_ groups: MotionGroups, bounds: (Int) -> (LinearBox, Double)) {
    var n = 0
    var out = 0
    let limit = Index.magnitudeLimit
    precondition(limit.isFinite, "\(Index.name): an infinite magnitude limit")
    for g in 1..<Swift.max(groups.count, 1) {
      BuildPause.checkpoint(every: g)
      let (l, exactWithin) = bounds(g)
      if l.start.isEmpty && l.end.isEmpty { continue }
      if Self._inRange(l.start, limit: limit) && Self._inRange(l.end, limit: limit) {
        entries[n] = WindowEntry(g, of: groups, exactWithin: exactWithin)
        bound[n] = l
        n += 1
      } else {
        outside[out] = Int32(g)
        outsideBound[out] = l
        out += 1
      }
    }
    entries.reserve(n)
    outside.reserve(out)
    outsideBound.reserve(out)
    BuildPause.checkpoint()
    bound.withUnsafeBufferPointer { b in index.rebuild(UnsafeBufferPointer(rebasing: b[..<n])) }
    _checkInvariants(groups)
  }

  /// Every group's bounds (empty where it has none), scattered back from the entries and the
  /// outside list: for inspection and tests (it allocates).
  func groupBounds(groups: Int) -> [LinearBox] {
    var all = [LinearBox](repeating: .nothing, count: Swift.max(groups, 1))
    for i in 0..<entries.count { all[Int(entries[i].group)] = bound[i] }
    for j in 0..<outside.count { all[Int(outside[j])] = outsideBound[j] }
    return all
  }

  /// Every edge finite and within the index's magnitude limit, and the box not empty.
  @inline(__always) static func _inRange(_ b: Box) -> Bool { _inRange(b, limit: Index.magnitudeLimit) }

  /// The same against a finite `limit` read once per build: a NaN or infinite edge fails its
  /// magnitude compare, so no separate finiteness test is needed.
  @inline(__always) static func _inRange(_ b: Box, limit: Double) -> Bool {
    b.minX <= b.maxX && b.minY <= b.maxY && Swift.abs(b.minX) <= limit && Swift.abs(b.minY) <= limit
      && Swift.abs(b.maxX) <= limit && Swift.abs(b.maxY) <= limit
  }

  var memoryFootprint: Int {
    index.memoryFootprint + bound.memoryFootprint + entries.memoryFootprint + outside.memoryFootprint
      + outsideBound.memoryFootprint
  }
}

/// An index entry's key: its group, the largest rank of groups up to it (with a static order, a
/// search over entries in descending order stops at the first whose prefix cannot beat the best
/// found), and what a query reads of the group before its candidates (`MotionGroups`: its root,
/// its highest rank, whether the root is decided lean), side by side so that a query's test of
/// an entry loads them at once rather than chaining a load by group for each at a million
/// layers. And where the entry's bounds decide its lean root (`exactWithin`), how far they are
/// moved out from its box. 24 bytes.
struct WindowEntry: BitwiseCopyable {
  var group: Int32
  var prefixMaxRank: Int32
  var root: Int32
  var maxRank: Int32
  var leanRoot: Bool
  /// Where the group is a lean root decided by its world box alone and the window's bounds
  /// follow that box (`MotionBounds.linearBounds`' `exactWithin`, rounded up); infinity
  /// elsewhere. A point inside the bounds by more than twice this is inside the root's box
  /// (`LinearBox.surely(_:holds:by:)`): the root holds it, without an evaluation.
  var exactWithin: Float
}

extension WindowEntry {
  /// Group g's key, read from its columns, with the bounds' `exactWithin` (Double's, rounded up:
  /// `Float` rounds to nearest, within 2^-24 of it, and the product is at least that much
  /// larger; below `Float`'s least normal the product still rounds up to at least it).
  @inline(__always) init(_ g: Int, of groups: MotionGroups, exactWithin: Double = .infinity) {
    let margin = Float(exactWithin * (1 + 0x1p-20) + 0x1p-140)
    self.init(
      group: Int32(g), prefixMaxRank: groups.prefixMaxRank[g], root: groups.root[g], maxRank: groups.maxRank[g],
      leanRoot: groups.leanRoot[g], exactWithin: margin)
  }
}
