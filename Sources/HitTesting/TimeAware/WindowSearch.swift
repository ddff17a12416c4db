import Clocks
import LayerModel
import Presentation

/// One batch of queries of a time-aware strategy, and the visitor its index offers entries to
/// (`MotionIndex.visit`, `LinkedBoxGrid.visit`): the groups' search and the entries' keys and
/// bounds as plain pointers. A query is `begin`, the index's visit, `finish`. The entries are
/// a window's (`WindowedStrategy`: one window for all, interpolated at one fraction) or the
/// groups themselves, each with a window of its own (`stagger-grid`). Not generic, so its work
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
  /// By entry: its key and bounds (`WindowSlot`); the outside groups and their bounds. (Base
  /// addresses of the buffers given: an offer reads one key and one bound, no count.)
  let entries: UnsafePointer<WindowEntry>
  let bound: UnsafePointer<LinearBox>
  let outside: UnsafePointer<Int32>
  let outsideBound: UnsafePointer<LinearBox>
  let outsideCount: Int
  /// How many entries the index may offer (checked with `HITBENCH_INTERNAL_CHECKS`).
  let entryCount: Int
  /// The query's point, and the groups and members tested by the batch.
  var point = Point(0, 0)
  var tally = TallyCounter()
  /// Index entries and outside groups looked at, queries answered, and when the batch began
  /// (for the window length's cost model).
  var scanned = 0
  var queries = 0
  /// Entries offered in the current query (for `costOfCandidates`, which times the index's
  /// share of each query alone), and whether the last offer stopped the visit (every other
  /// offer counts as an entry tested, added once at the query's end).
  var offered = 0
  var stopped = false
  /// The batch's candidates when the current query began, and the batch's candidates beyond
  /// the one each query's answer needs (the window length's cost model: with the world group
  /// searched last, a query on a particle tests one candidate where it tested two, and a count
  /// by batch, candidates less queries, read that as no excess at all).
  var candidatesBefore = 0
  var beyondOne = 0
  let started: UInt64

  /// A batch over `entries` and their `bound`s (as many of each), and the `outside` groups
  /// and their `outsideBound`s (as many of each; none for an index that lists every group).
  /// The buffers must stay as they are until the batch ends.
  @inline(__always)
  init(
    search: CandidateSearch, started: UInt64, entries: UnsafeBufferPointer<WindowEntry>,
    bound: UnsafeBufferPointer<LinearBox>, outside: UnsafeBufferPointer<Int32>,
    outsideBound: UnsafeBufferPointer<LinearBox>, fraction: Double, ordered: Bool
  ) {
    precondition(
      bound.count >= entries.count && outsideBound.count >= outside.count, "a window's bounds shorter than its entries")
    // A pointer for an empty buffer (nil where it has no storage): never read.
    @inline(__always) func base<T>(_ b: UnsafeBufferPointer<T>) -> UnsafePointer<T> {
      b.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<T>.alignment)!
    }
    self.search = search
    self.started = started
    self.entries = base(entries)
    self.bound = base(bound)
    self.outside = base(outside)
    self.outsideBound = base(outsideBound)
    outsideCount = outside.count
    entryCount = entries.count
    self.fraction = fraction
    self.ordered = ordered
  }

  /// Takes the batch's counts into a strategy's counters and window length, as it ends (for
  /// reports and the length's cost model). Measured: the estimate per candidate and entry alone
  /// undercounts a lazy evaluation several times, and windows then grow too long.
  func _record(into counters: inout StrategyCounters, _ length: inout WindowLength, presentations: Int) {
    counters.candidates &+= search.candidates
    counters.presentations = presentations
    length.candidates &+= search.candidates
    length.beyondOne &+= beyondOne
    length.scanned &+= scanned
    length.queries &+= queries
    length.queryNanoseconds &+= Clocks.monotonicNanoseconds() &- started
  }

  /// Groups and members tested by the batch's queries so far.
  public var tested: Int { tally.count }

  /// Starts the query for p: the world group's search (at the end instead, where it ranks below
  /// every moving layer: `CandidateSearch.worldLast`).
  @inline(__always) public mutating func begin(_ p: Point) {
    // The tally through a local: a method of self may not also take a part of self inout.
    var t = tally
    _begin(p, &t)
    tally = t
  }

  /// Whether no entry up to e can beat the best found (see `MotionIndexVisitor`).
  @inline(__always) public func skips(upTo e: Int32) -> Bool {
    #if HITBENCH_INTERNAL_CHECKS
      precondition(e >= 0 && Int(e) < entryCount, "entry \(e) skipped of \(entryCount)")
    #endif
    return search.nothingUpTo(prefixMaxRank: entries[Int(e)].prefixMaxRank)
  }

  /// Takes entry e of the query's visit (see `MotionIndexVisitor`).
  @inline(__always) public mutating func offer(_ e: Int32) -> Bool { _offer(e, _OneWindow(fraction: fraction)) }

  /// `offer` with entries interpolated through `windows`, counting into the tally.
  @inline(__always) mutating func _offer<Windows: _EntryWindows>(_ e: Int32, _ windows: Windows) -> Bool {
    var t = tally
    defer { tally = t }
    return _offer(e, &t, windows)
  }

  /// Ends the query: the outside groups (and the world group, searched last), and the answer;
  /// `looked` is what the visit answered.
  @inline(__always) public mutating func finish(looked: Int) -> LayerID? {
    var t = tally
    defer { tally = t }
    return _finish(looked: looked, &t)
  }

  @inline(__always)
  mutating func _begin<Counter: WorkCounter>(_ p: Point, _ counter: inout Counter) {
    point = p
    offered = 0
    stopped = false
    search.reset()
    candidatesBefore = search.candidates
    if !search.worldLast { search.group(0, p, &counter) }
    queries &+= 1
  }

  @inline(__always)
  mutating func _offer<Counter: WorkCounter, Windows: _EntryWindows>(
    _ e: Int32, _ counter: inout Counter, _ windows: Windows
  ) -> Bool {
    // The key and the bounds are both by entry, so neither load waits for the other (the
    // bounds' load issues as soon as the checks before it are predicted). Fields are read where
    // they decide: an unordered index offers many entries that cannot beat the best found.
    #if HITBENCH_INTERNAL_CHECKS
      precondition(e >= 0 && Int(e) < entryCount, "entry \(e) offered of \(entryCount)")
    #endif
    let key = entries + Int(e)
    offered &+= 1
    // Offers in descending group order: no group from here can beat the best found.
    if ordered && search.nothingUpTo(prefixMaxRank: key.pointee.prefixMaxRank) {
      stopped = true
      return false
    }
    guard search.canBeat(maxRank: key.pointee.maxRank) else { return true }
    let b = bound[Int(e)].at(windows.fraction(Int(e)))
    guard LinearBox.holds(b, point) else { return true }
    if LinearBox.surely(b, holds: point, by: key.pointee.exactWithin) {
      // Exact lines of a root decided by its box: the bounds are its exact test.
      search._leanRootHeld(Int(key.pointee.root), rank: key.pointee.maxRank, &counter)
    } else {
      search.entry(key.pointee, point, &counter)
    }
    return true
  }

  @inline(__always)
  mutating func _finish<Counter: WorkCounter>(looked: Int, _ counter: inout Counter) -> LayerID? {
    scanned &+= looked &+ outsideCount
    counter.tested(stopped ? offered &- 1 : offered)
    let s = fraction
    var j = 0
    while j < outsideCount {
      let g = Int(outside[j])
      let l = outsideBound[j]
      j &+= 1
      counter.tested(1)
      if search.canBeat(g) && l.holds(point, at: s) { search.group(g, point, &counter) }
    }
    // Below every moving layer: searched only when none holds the point (`group` skips it
    // when the best found ranks above it).
    if search.worldLast { search.group(0, point, &counter) }
    beyondOne &+= Swift.max(search.candidates &- candidatesBefore &- (search.bestLayer >= 0 ? 1 : 0), 0)
    return search.answer
  }
}

/// A query through `WindowSearch` with a counter of the caller's (`hitTest`'s): the same steps.
struct _CountedWindowQuery<Counter: WorkCounter, Windows: _EntryWindows>: MotionIndexVisitor {
  var search: WindowSearch
  var counter: Counter
  let windows: Windows

  mutating func offer(_ e: Int32) -> Bool { search._offer(e, &counter, windows) }
  func skips(upTo e: Int32) -> Bool { search.skips(upTo: e) }
}

/// A `WindowSearch` whose entries each have a window of their own (`stagger-grid`'s groups):
/// the same query, each entry's bounds interpolated at the batch's time in its own window.
struct _OwnWindowSearch: MotionIndexVisitor {
  var search: WindowSearch
  let windows: _OwnWindows

  @inline(__always) mutating func offer(_ e: Int32) -> Bool { search._offer(e, windows) }
  @inline(__always) func skips(upTo e: Int32) -> Bool { search.skips(upTo: e) }
}

/// Where a search interpolates an entry's bounds: at the fraction of the batch's window or of
/// the entry's own (the one policy in which `stagger-grid`'s query differs; both specialise).
protocol _EntryWindows {
  func fraction(_ e: Int) -> Double
}

/// Every entry in the batch's window.
struct _OneWindow: _EntryWindows {
  let fraction: Double

  @inline(__always) func fraction(_ e: Int) -> Double { fraction }
}

/// Each entry in a window of its own: the windows' ends by entry, and the batch's clock time.
struct _OwnWindows: _EntryWindows {
  let start: UnsafePointer<Double>
  let end: UnsafePointer<Double>
  let time: Double

  /// The windows of as many entries as the search's (`start` and `end` as long).
  init(start: UnsafeBufferPointer<Double>, end: UnsafeBufferPointer<Double>, time: Double) {
    precondition(start.count == end.count && start.count > 0, "windows' starts and ends of different lengths")
    (self.start, self.end, self.time) = (start.baseAddress!, end.baseAddress!, time)
  }

  @inline(__always) func fraction(_ e: Int) -> Double { LinearBox.fraction(time, from: start[e], to: end[e]) }
}

/// The index's share of a query alone (`costOfCandidates` subtracts it): a visit that only
/// tests the bounds of the entries offered, and the outside groups'. It walks the index as the
/// query did, to its end or, where the query stopped (an ordered index stops at the offer after
/// which nothing can beat its best), as far; and it skips what the query's answer rules out
/// (`skips`, and the bounds of entries that cannot beat the answer, with the scene's static
/// order). The query skipped no more, since its best only rises to the answer: so the walk is
/// at most the query's, and the difference at least the candidates' work (exactly it where the
/// index offers in descending order; an unordered index's query also tests entries below its
/// answer before finding it, and that is counted with the candidates). It went no further than
/// the query's offers where the query went on, and skipped the visit of a query offered
/// nothing, which took the rest of each scan and such queries' whole scans for candidates'
/// work; docs/optimisation-log.md, entry 101.
struct _HeldCount<Windows: _EntryWindows>: MotionIndexVisitor {
  let bound: UnsafePointer<LinearBox>
  /// The entries' keys, and whether their ranks order them (the scene's static order).
  let entries: UnsafePointer<WindowEntry>
  let ranked: Bool
  let windows: Windows
  let point: Point
  /// Offers left before the query's stop; with no stop, `Int.max`.
  var budget: Int
  /// The rank of the query's answer (-1: none).
  let bestRank: Int32
  var held = 0

  /// The index work of a query at p that went as `query` says, over entries' `bound`s and
  /// keys (as many as the index offers; `ranked`: the keys' ranks order them), with the outside
  /// groups' `outsideBound`s at `fraction`.
  init(
    bound: UnsafePointer<LinearBox>, entries: UnsafePointer<WindowEntry>, ranked: Bool,
    outsideBound: UnsafeBufferPointer<LinearBox>, fraction: Double, _ windows: Windows, _ p: Point,
    _ query: _QueryOffers
  ) {
    (self.bound, self.entries, self.ranked, self.windows, point) = (bound, entries, ranked, windows, p)
    budget = query.stopped ? query.offers : .max
    bestRank = query.bestRank
    for b in outsideBound where b.holds(p, at: fraction) { held &+= 1 }
  }

  init(_ search: WindowSearch, _ windows: Windows, _ p: Point, _ query: _QueryOffers) {
    self.init(
      bound: search.bound, entries: search.entries, ranked: search.search.ordered,
      outsideBound: UnsafeBufferPointer(start: search.outsideBound, count: search.outsideCount),
      fraction: search.fraction, windows, p, query)
  }

  /// The query's own rule (`WindowSearch.skips`) with its answer known from the start.
  @inline(__always) func skips(upTo e: Int32) -> Bool {
    CandidateSearch.nothingUpTo(prefixMaxRank: entries[Int(e)].prefixMaxRank, best: bestRank, ranked)
  }

  @inline(__always) mutating func offer(_ e: Int32) -> Bool {
    guard budget > 0 else { return false }
    budget &-= 1
    // The query's test of an entry, its answer known: an entry that cannot beat it is not
    // bounded (`WindowSearch._offer`).
    if CandidateSearch.canBeat(maxRank: entries[Int(e)].maxRank, best: bestRank, ranked),
      bound[Int(e)].holds(point, at: windows.fraction(Int(e)))
    {
      held &+= 1
    }
    return budget > 0
  }
}

/// How a query's visit went (`costOfCandidates` repeats its index work alone): the entries
/// offered, whether the last offer stopped it, and the rank of the answer it found (-1: none).
struct _QueryOffers {
  var offers: Int
  var stopped: Bool
  var bestRank: Int32 = -1
}

extension WindowSearch {
  /// The cost model's measurement (`CandidateCosting`) of a batch: the queries (`query`: the
  /// index's visit with this search), then the same visits counting only the entries whose
  /// bounds hold each point, for as many offers as its query took (`held`). Answers the
  /// candidates and the queries' time less the index's.
  mutating func _costOfCandidates<Windows: _EntryWindows>(
    _ points: UnsafeBufferPointer<Point>, _ windows: Windows, query: (Point, inout WindowSearch) -> Int,
    held: (Point, inout _HeldCount<Windows>) -> Int
  ) -> CandidateTimings {
    let offers = UnsafeMutableBufferPointer<_QueryOffers>.allocate(capacity: Swift.max(points.count, 1))
    defer { offers.deallocate() }
    return _timedCandidateCost(
      queries: {
        for (i, p) in points.enumerated() {
          begin(p)
          _ = finish(looked: query(p, &self))
          offers[i] = _QueryOffers(offers: offered, stopped: stopped, bestRank: search.bestRank)
        }
        return search.candidates
      },
      indexAlone: {
        var total = 0
        for (i, p) in points.enumerated() {
          var count = _HeldCount(self, windows, p, offers[i])
          _ = held(p, &count)
          total &+= count.held
        }
        return total
      })
  }
}
