import LayerModel
import Presentation

/// One batch of queries against a window of a `WindowedStrategy`, and the visitor its index
/// offers entries to (`MotionIndex.visit`): the groups' search and the window's columns as
/// plain pointers. A query is `begin`, the index's visit, `finish`. Not generic, so its work
/// per entry is compiled once, specialised, in this module, and an index in another module
/// (a peer) calls it directly; no reference count, closure or existential per query or entry.
/// Counts the groups and members tested in every query (`tested`).
public struct WindowSearch: MotionIndexVisitor {
  /// Where the batch's time falls in the window (the index interpolates linear bounds by it).
  public let fraction: Double
  /// Whether the index offers entries in descending order (then a query stops at the first
  /// entry nothing after can beat).
  let ordered: Bool
  var search: CandidateSearch
  /// By entry: its key and bounds (`WindowSlot`); the outside groups and their bounds.
  let entries: UnsafePointer<WindowEntry>
  let bound: UnsafePointer<LinearBox>
  let outside: UnsafePointer<Int32>
  let outsideBound: UnsafePointer<LinearBox>
  let outsideCount: Int
  /// The query's point, and the groups and members tested by the batch.
  var point = Point(0, 0)
  var tally = TallyCounter()
  /// Index entries and outside groups looked at, queries answered, and when the batch began
  /// (for the window length's cost model).
  var scanned = 0
  var queries = 0
  /// Entries offered in the current query (for `costOfCandidates`, which times the index's
  /// share of each query alone).
  var offered = 0
  let started: UInt64
  /// With a budget (`_countingHeld`), an offer only counts the entries whose group bounds hold
  /// the point, for at most `budget` offers: the index's share of a query that was offered as
  /// many, without the search.
  var budget = -1
  var held = 0

  @inline(__always)
  init(
    search: CandidateSearch, started: UInt64, entries: UnsafePointer<WindowEntry>, bound: UnsafePointer<LinearBox>,
    outside: UnsafePointer<Int32>, outsideBound: UnsafePointer<LinearBox>, outsideCount: Int, fraction: Double,
    ordered: Bool
  ) {
    self.search = search
    self.started = started
    self.entries = entries
    self.bound = bound
    self.outside = outside
    self.outsideBound = outsideBound
    self.outsideCount = outsideCount
    self.fraction = fraction
    self.ordered = ordered
  }

  /// Groups and members tested by the batch's queries so far.
  public var tested: Int { tally.count }

  /// Starts the query for p: the world group's search.
  @inline(__always) public mutating func begin(_ p: Point) {
    // The tally through a local: a method of self may not also take a part of self inout.
    var t = tally
    _begin(p, &t)
    tally = t
  }

  /// Takes entry e of the query's visit (see `MotionIndexVisitor`).
  @inline(__always) public mutating func offer(_ e: Int32) -> Bool {
    if budget >= 0 { return _countHeld(e) }
    var t = tally
    defer { tally = t }
    return _offer(e, &t)
  }

  /// Ends the query: the outside groups, and the answer; `looked` is what the visit answered.
  @inline(__always) public mutating func finish(looked: Int) -> LayerID? {
    var t = tally
    defer { tally = t }
    return _finish(looked: looked, &t)
  }

  @inline(__always)
  mutating func _begin<Counter: WorkCounter>(_ p: Point, _ counter: inout Counter) {
    point = p
    offered = 0
    search.reset()
    search.group(0, p, &counter)
    queries &+= 1
  }

  @inline(__always)
  mutating func _offer<Counter: WorkCounter>(_ e: Int32, _ counter: inout Counter) -> Bool {
    // The key and the bounds are both by entry: neither load waits for the other.
    let key = entries[Int(e)]
    let l = bound[Int(e)]
    offered &+= 1
    // Offers in descending group order: no group from here can beat the best found.
    if ordered && search.nothingUpTo(prefixMaxRank: key.prefixMaxRank) { return false }
    counter.tested(1)
    if l.holds(point, at: fraction) { search.entry(key, point, &counter) }
    return true
  }

  @inline(__always)
  mutating func _finish<Counter: WorkCounter>(looked: Int, _ counter: inout Counter) -> LayerID? {
    scanned &+= looked &+ outsideCount
    let s = fraction
    var j = 0
    while j < outsideCount {
      let g = Int(outside[j])
      let l = outsideBound[j]
      j &+= 1
      counter.tested(1)
      if search.canBeat(g) && l.holds(point, at: s) { search.group(g, point, &counter) }
    }
    return search.answer
  }

  /// Makes the next visit count only, for at most `offers` offers, the entries whose bounds
  /// hold p (and, here, the outside groups that do): the index's share of a query that was
  /// offered that many, which `costOfCandidates` subtracts. Read `held` after the visit.
  mutating func _countingHeld(_ p: Point, offers: Int) {
    point = p
    budget = offers
    held = 0
    var j = 0
    while j < outsideCount {
      if outsideBound[j].holds(p, at: fraction) { held &+= 1 }
      j &+= 1
    }
  }

  @inline(__always) mutating func _countHeld(_ e: Int32) -> Bool {
    guard budget > 0 else { return false }
    budget &-= 1
    if bound[Int(e)].holds(point, at: fraction) { held &+= 1 }
    return budget > 0
  }
}

/// A query through `WindowSearch` with a counter of the caller's (`hitTest`'s): the same steps.
struct _CountedWindowQuery<Counter: WorkCounter>: MotionIndexVisitor {
  var search: WindowSearch
  var counter: Counter

  mutating func offer(_ e: Int32) -> Bool { search._offer(e, &counter) }
}
