import LayerModel
import Presentation

/// One batch of queries against a window of a `WindowedStrategy`: the groups' search and the
/// window's columns as plain pointers, and room for the index's proposals. Not generic, so its
/// query is compiled once, specialised, in this module; the strategy's loop (inlined where the
/// index is concrete) asks the index for proposals and hands them here. No reference count,
/// closure or existential per query or candidate.
public struct WindowSearch {
  /// Where the batch's time falls in the window (the index interpolates linear bounds by it).
  @usableFromInline let fraction: Double
  /// Where the index writes a query's proposals (room for every group).
  @usableFromInline let proposals: UnsafeMutableBufferPointer<Int32>
  var search: CandidateSearch
  /// By entry: its key and bounds (`WindowSlot`); the outside groups and their bounds.
  let entries: UnsafePointer<WindowEntry>
  let bound: UnsafePointer<LinearBox>
  let outside: UnsafePointer<Int32>
  let outsideBound: UnsafePointer<LinearBox>
  let outsideCount: Int
  /// Index entries and outside groups looked at, queries answered, and when the batch began
  /// (for the window length's cost model).
  var scanned = 0
  var queries = 0
  /// How many entries the last query's search was offered (for `costOfCandidates`, which
  /// times the index's share of that query alone).
  var lastOffered = 0
  let started: UInt64

  @inline(__always)
  init(
    search: CandidateSearch, started: UInt64, entries: UnsafePointer<WindowEntry>, bound: UnsafePointer<LinearBox>,
    outside: UnsafePointer<Int32>, outsideBound: UnsafePointer<LinearBox>, outsideCount: Int, fraction: Double,
    proposals: UnsafeMutableBufferPointer<Int32>
  ) {
    self.search = search
    self.started = started
    self.entries = entries
    self.bound = bound
    self.outside = outside
    self.outsideBound = outsideBound
    self.outsideCount = outsideCount
    self.fraction = fraction
    self.proposals = proposals
  }

  /// The answer for p, given the index's `n` proposals for it (in descending entry order when
  /// `ordered`).
  public mutating func query(_ p: Point, proposed n: Int, ordered: Bool) -> LayerID? {
    var counter = NoCounter()
    return _query(p, proposed: n, ordered: ordered, &counter)
  }

  /// The same, adding the groups and members tested to `tested`.
  public mutating func query(_ p: Point, proposed n: Int, ordered: Bool, counting tested: inout Int) -> LayerID? {
    var counter = TallyCounter()
    let answer = _query(p, proposed: n, ordered: ordered, &counter)
    tested &+= counter.count
    return answer
  }

  @inline(__always)
  mutating func _query<Counter: WorkCounter>(_ p: Point, proposed n: Int, ordered: Bool, _ counter: inout Counter)
    -> LayerID?
  {
    search.reset()
    search.group(0, p, &counter)
    let s = fraction
    scanned &+= n &+ outsideCount
    queries &+= 1
    var k = 0
    while k < n {
      let e = Int(proposals[k])
      k &+= 1
      let key = entries[e]
      // Proposals in descending group order: no group from here can beat the best found.
      if ordered && search.nothingUpTo(prefixMaxRank: key.prefixMaxRank) { break }
      counter.tested(1)
      if bound[e].holds(p, at: s) { search.entry(key, p, &counter) }
    }
    lastOffered = k
    _outside(p, &counter)
    return search.answer
  }

  /// The outside groups' search for p.
  @inline(__always)
  mutating func _outside<Counter: WorkCounter>(_ p: Point, _ counter: inout Counter) {
    let s = fraction
    var j = 0
    while j < outsideCount {
      let g = Int(outside[j])
      let l = outsideBound[j]
      j &+= 1
      counter.tested(1)
      if search.canBeat(g) && l.holds(p, at: s) { search.group(g, p, &counter) }
    }
  }

  /// A streamed query, for an index that visits the entries that may hold p itself, in
  /// descending entry order: `_begin`, then `_offer` for each entry until it answers false,
  /// then `_finish`. The search stops at the first entry nothing after can beat, so a dense
  /// cell costs the entries above the answer, not every entry listed.
  @inline(__always)
  mutating func _begin<Counter: WorkCounter>(_ p: Point, _ counter: inout Counter) {
    search.reset()
    search.group(0, p, &counter)
    queries &+= 1
  }

  /// Offers entry e (entries offered in descending order): whether the visit goes on.
  @inline(__always)
  mutating func _offer<Counter: WorkCounter>(_ e: Int32, _ p: Point, _ counter: inout Counter) -> Bool {
    // The key and the bounds are both by entry: neither load waits for the other.
    let key = entries[Int(e)]
    let l = bound[Int(e)]
    if search.nothingUpTo(prefixMaxRank: key.prefixMaxRank) { return false }
    counter.tested(1)
    if l.holds(p, at: fraction) { search.entry(key, p, &counter) }
    return true
  }

  /// The outside groups, and the answer; `looked` is how many index entries the visit looked at.
  @inline(__always)
  mutating func _finish<Counter: WorkCounter>(
    _ p: Point, looked: Int, offered: Int, _ counter: inout Counter
  ) -> LayerID? {
    scanned &+= looked &+ outsideCount
    lastOffered = offered
    _outside(p, &counter)
    return search.answer
  }

  /// Whether entry e's group bounds hold p (the index's share of an offer).
  @inline(__always) func _holds(_ e: Int32, _ p: Point) -> Bool {
    bound[Int(e)].holds(p, at: fraction)
  }

  /// How many outside groups hold p.
  @inline(__always) func _outsideHeld(_ p: Point) -> Int {
    var held = 0
    var j = 0
    while j < outsideCount {
      if outsideBound[j].holds(p, at: fraction) { held &+= 1 }
      j &+= 1
    }
    return held
  }

  /// How many of the `n` proposals (and outside groups) hold p: the index's share of a query,
  /// which `costOfCandidates` subtracts.
  public func proposalsHeld(_ p: Point, proposed n: Int) -> Int {
    let s = fraction
    var held = 0
    var k = 0
    while k < n {
      if bound[Int(proposals[k])].holds(p, at: s) { held &+= 1 }
      k &+= 1
    }
    var j = 0
    while j < outsideCount {
      if outsideBound[j].holds(p, at: s) { held &+= 1 }
      j &+= 1
    }
    return held
  }
}
