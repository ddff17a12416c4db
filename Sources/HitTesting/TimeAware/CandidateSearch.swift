import LayerModel
import Presentation

/// One query's search over the motion groups, shared by every time-aware strategy: the world
/// group's grid, then each candidate group an index proposes (highest first when the index
/// keeps order): the group's root evaluated at the frame's time (a lean root by
/// `LazyPresentation.leanCandidate`, others through the lazy presentation's rows), the point
/// converted into the group's space, its members' grid, each candidate member's exact test on
/// its lazily evaluated row; the top-most wins, as the reference. With a static order, a search
/// stops at the first hit in a rank-sorted list and skips every group no candidate of which can
/// beat the best found. Holds no reference count: the objects are the batch's, the columns a
/// `MotionGroups.View`.
struct CandidateSearch {
  let view: MotionGroups.View
  // Unmanaged, each call through a guaranteed reference: a batch's objects outlive it, and
  // neither a load nor a call may touch their reference counts.
  let _lazy: Unmanaged<LazyPresentation>
  let _frame: Unmanaged<PresentationFrame>
  let ordered: Bool
  /// Whether a query searches the world group last (`MotionGroups.worldBelowMoving`, with a
  /// static order): after a moving hit it can hold nothing above it, and is skipped (a
  /// particle under the point costs no search of the still layers beneath).
  let worldLast: Bool
  /// The best candidate so far: its layer (-1: none) and rank.
  var bestLayer = -1
  var bestRank: Int32 = -1
  /// Exact tests run.
  var candidates = 0

  @inline(__always)
  init(_ view: MotionGroups.View, _ lazy: LazyPresentation, _ frame: PresentationFrame) {
    self.view = view
    _lazy = Unmanaged.passUnretained(lazy)
    _frame = Unmanaged.passUnretained(frame)
    ordered = lazy.orderIsStatic
    worldLast = ordered && view.worldBelowMoving
  }

  @inline(__always) mutating func reset() {
    bestLayer = -1
    bestRank = -1
  }

  var answer: LayerID? { bestLayer >= 0 ? LayerID(Int32(bestLayer)) : nil }

  /// Whether group g can still hold something above the best found (with a static order).
  @inline(__always) func canBeat(_ g: Int) -> Bool { canBeat(maxRank: view.maxRank[g]) }

  /// The same for a group whose highest rank is given (an index entry's key carries it).
  @inline(__always) func canBeat(maxRank: Int32) -> Bool { Self.canBeat(maxRank: maxRank, best: bestRank, ordered) }

  /// The rule of `canBeat(maxRank:)` against a best rank given (`_HeldCount`: the query's
  /// answer), `ordered` by the scene's static order.
  @inline(__always) static func canBeat(maxRank: Int32, best: Int32, _ ordered: Bool) -> Bool {
    !ordered || maxRank > best
  }

  /// Whether no group up to and including one whose `MotionGroups.prefixMaxRank` is this can
  /// beat the best found (a list of groups in descending index can stop there; an index entry
  /// carries its group's in its key).
  @inline(__always) func nothingUpTo(prefixMaxRank: Int32) -> Bool {
    Self.nothingUpTo(prefixMaxRank: prefixMaxRank, best: bestRank, ordered)
  }

  /// The rule of `nothingUpTo(prefixMaxRank:)` against a best rank given.
  @inline(__always) static func nothingUpTo(prefixMaxRank: Int32, best: Int32, _ ordered: Bool) -> Bool {
    ordered && prefixMaxRank <= best
  }

  /// Tests an index entry's group for world point p, from the entry's key: a lean root without
  /// reading the group's columns (`group` reads them by group, a chain of loads at a million
  /// layers), any other group through `group`. The same tests in the same order as `group`.
  @inline(__always)
  mutating func entry<Counter: WorkCounter>(_ key: WindowEntry, _ p: Point, _ counter: inout Counter) {
    guard key.leanRoot else { return group(Int(key.group), p, &counter) }
    // A member-less group's highest rank is its root's.
    _leanRoot(Int(key.root), rank: key.maxRank, p, &counter)
  }

  /// A lean root r of rank `rank` as a candidate for world point p (`LazyPresentation.leanCandidate`;
  /// lean roots need a static order, so the rank decides against the best found).
  @inline(__always)
  mutating func _leanRoot<Counter: WorkCounter>(_ r: Int, rank: Int32, _ p: Point, _ counter: inout Counter) {
    guard rank > bestRank else { return }
    candidates &+= 1
    counter.evaluated(LayerID(Int32(r)))
    if _lazy._withUnsafeGuaranteedRef({ $0.leanCandidate(r, p) }) {
      bestLayer = r
      bestRank = rank
    }
  }

  /// A lean root r of rank `rank` whose entry's exact lines hold the point well inside
  /// (`LinearBox.surely(_:holds:by:)`): a candidate that holds it, decided without an
  /// evaluation.
  @inline(__always)
  mutating func _leanRootHeld<Counter: WorkCounter>(_ r: Int, rank: Int32, _ counter: inout Counter) {
    guard rank > bestRank else { return }
    candidates &+= 1
    counter.evaluated(LayerID(Int32(r)))
    bestLayer = r
    bestRank = rank
  }

  /// Tests group g for world point p.
  @inline(__always)
  mutating func group<Counter: WorkCounter>(_ g: Int, _ p: Point, _ counter: inout Counter) {
    guard canBeat(g) else { return }
    var q = p
    // How far the conversion into the group's space can be off: member boxes are widened by
    // it (the members' exact tests convert the world point with maps of their own).
    var error = (x: 0.0, y: 0.0)
    if g > 0 {
      let r = Int(view.root[g])
      if view.leanRoot[g] {
        // A member-less group under a pinned parent: one lean evaluation a frame.
        _leanRoot(r, rank: view.rank[r], p, &counter)
        return
      }
      _lazy._withUnsafeGuaranteedRef { $0.ensure(r) }
      if !ordered || view.rank[r] > bestRank {
        candidates &+= 1
        counter.evaluated(LayerID(Int32(r)))
        if _frame._withUnsafeGuaranteedRef({ $0.isCandidate(r, p) }) { _take(r) }
      }
      guard let local = _frame._withUnsafeGuaranteedRef({ $0._fromWorldWithError(r, p) }) else { return }
      q = local.point
      error = local.error
    }
    let start = Int(view.memberStart[g])
    let end = Int(view.memberStart[g + 1])
    guard start < end else { return }
    let grid = Int(view.gridOf[g])
    if grid >= 0, let cell = view.gridGeometry[grid].cell(of: q, within: error) {
      let base = Int(view.gridCellBase[grid]) + cell
      var e = Int(view.cellStart[base])
      let stop = Int(view.cellStart[base + 1])
      while e < stop {
        if !_consider(start + Int(view.cellEntries[e]), q, error, p, &counter) { return }
        e &+= 1
      }
    } else {
      // No grid, or the point's uncertainty straddles cells: every member.
      var i = start
      while i < end {
        if !_consider(i, q, error, p, &counter) { return }
        i &+= 1
      }
    }
  }

  /// Member i as a candidate for world point p (q in its group's space, within `error`):
  /// answers whether the search of the list goes on (with a static order, not after a hit:
  /// ranks only decrease along a list).
  @inline(__always)
  mutating func _consider<Counter: WorkCounter>(
    _ i: Int, _ q: Point, _ error: (x: Double, y: Double), _ p: Point, _ counter: inout Counter
  )
    -> Bool
  {
    counter.tested(1)
    let m = Int(view.members[i])
    if ordered && view.rank[m] <= bestRank { return false }
    let b = view.memberBox[i]
    guard q.x >= b.minX - error.x && q.x <= b.maxX + error.x && q.y >= b.minY - error.y && q.y <= b.maxY + error.y
    else { return true }
    candidates &+= 1
    counter.evaluated(LayerID(Int32(m)))
    _lazy._withUnsafeGuaranteedRef { $0.ensure(m) }
    if _frame._withUnsafeGuaranteedRef({ $0.isCandidate(m, p) }) {
      _take(m)
      return !ordered
    }
    return true
  }

  @inline(__always) mutating func _take(_ m: Int) {
    if bestLayer < 0
      || (ordered
        ? view.rank[m] > bestRank
        : _lazy._withUnsafeGuaranteedRef { $0.isAbove(m, bestLayer) })
    {
      bestLayer = m
      bestRank = view.rank[m]
    }
  }
}
