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
  @usableFromInline let proposals: UnsafeMutablePointer<Int32>
  var search: CandidateSearch
  let bound: UnsafePointer<LinearBox>
  let entryGroup: UnsafePointer<Int32>
  let outside: UnsafePointer<Int32>
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
    search: CandidateSearch, started: UInt64, bound: UnsafePointer<LinearBox>, entryGroup: UnsafePointer<Int32>,
    outside: UnsafePointer<Int32>, outsideCount: Int, fraction: Double, proposals: UnsafeMutablePointer<Int32>
  ) {
    self.search = search
    self.started = started
    self.bound = bound
    self.entryGroup = entryGroup
    self.outside = outside
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
      let g = Int(entryGroup[Int(proposals[k])])
      k &+= 1
      // Proposals in descending group order: no group from here can beat the best found.
      if ordered && search.nothingUpTo(g) { break }
      counter.tested(1)
      if bound[g].holds(p, at: s) { search.group(g, p, &counter) }
    }
    lastOffered = k
    var j = 0
    while j < outsideCount {
      let g = Int(outside[j])
      j &+= 1
      counter.tested(1)
      if search.canBeat(g) && bound[g].holds(p, at: s) { search.group(g, p, &counter) }
    }
    return search.answer
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
    let g = Int(entryGroup[Int(e)])
    if search.nothingUpTo(g) { return false }
    counter.tested(1)
    if bound[g].holds(p, at: fraction) { search.group(g, p, &counter) }
    return true
  }

  /// The outside groups, and the answer; `entries` is how many index entries the visit looked at.
  @inline(__always)
  mutating func _finish<Counter: WorkCounter>(
    _ p: Point, looked entries: Int, offered: Int, _ counter: inout Counter
  ) -> LayerID? {
    scanned &+= entries &+ outsideCount
    lastOffered = offered
    let s = fraction
    var j = 0
    while j < outsideCount {
      let g = Int(outside[j])
      j &+= 1
      counter.tested(1)
      if search.canBeat(g) && bound[g].holds(p, at: s) { search.group(g, p, &counter) }
    }
    return search.answer
  }

  /// Whether entry e's group bounds hold p (the index's share of an offer).
  @inline(__always) func _holds(_ e: Int32, _ p: Point) -> Bool {
    bound[Int(entryGroup[Int(e)])].holds(p, at: fraction)
  }

  /// How many outside groups hold p.
  @inline(__always) func _outsideHeld(_ p: Point) -> Int {
    var held = 0
    var j = 0
    while j < outsideCount {
      if bound[Int(outside[j])].holds(p, at: fraction) { held &+= 1 }
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
      if bound[Int(entryGroup[Int(proposals[k])])].holds(p, at: s) { held &+= 1 }
      k &+= 1
    }
    var j = 0
    while j < outsideCount {
      if bound[Int(outside[j])].holds(p, at: s) { held &+= 1 }
      j &+= 1
    }
    return held
  }
}
