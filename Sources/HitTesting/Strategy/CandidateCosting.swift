import CCallgrind
import Clocks
import LayerModel

/// A strategy whose queries evaluate candidates lazily (the time-aware ones) and can say what
/// one candidate costs: its lazy evaluation and exact test, apart from the index that proposes
/// it. Measured untimed for the frames, after them, at the last update's time.
public protocol CandidateCosting {
  /// The candidates `points` meet, and two timings: the queries with every candidate evaluated
  /// fresh (the frame's evaluations forgotten first), and the same queries' index work alone.
  func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> CandidateTimings
}

/// One measurement of `CandidateCosting`: a batch's candidates, the batch timed whole and its
/// index work alone timed.
public struct CandidateTimings: Sendable, Equatable {
  public var candidates: Int
  public var queriesNanoseconds: UInt64
  public var indexNanoseconds: UInt64

  public init(candidates: Int, queriesNanoseconds: UInt64, indexNanoseconds: UInt64) {
    self.candidates = candidates
    self.queriesNanoseconds = queriesNanoseconds
    self.indexNanoseconds = indexNanoseconds
  }

  /// None measured (a strategy with no state yet).
  public static let none = CandidateTimings(candidates: 0, queriesNanoseconds: 0, indexNanoseconds: 0)

  /// Nanoseconds a candidate from several measurements of one batch: the least whole timing
  /// less the least index timing, over the candidates (0 where it cannot tell: no candidate,
  /// or the index alone never faster). Each timing is its work plus whatever the host added, so
  /// the least of each is the closest to its work; a difference taken within each pair and then
  /// its median read 0 whenever most pairs had their index timing interrupted (window-grid on
  /// particles 10k: a few microseconds of candidates in 300 us batches; 12 ns a candidate in
  /// one suite run, unmeasured in the next; docs/optimisation-log.md, entry 100).
  public static func nanosecondsPerCandidate(_ timings: some Sequence<CandidateTimings>) -> Double {
    var queries = UInt64.max
    var index = UInt64.max
    var candidates = 0
    for t in timings where t.candidates > 0 {
      queries = Swift.min(queries, t.queriesNanoseconds)
      index = Swift.min(index, t.indexNanoseconds)
      candidates = t.candidates
    }
    guard candidates > 0, queries > index else { return 0 }
    return Double(queries - index) / Double(candidates)
  }
}

/// `costOfCandidates`' measurement, one for every strategy that has one: `queries` timed (the
/// batch with every candidate evaluated fresh; answers the candidates met) and `indexAlone`
/// timed (the same batch's index work alone, each proposal's bounds tested; answers how many
/// held, which is kept so that the work is not optimised away).
/// Under `run --instructions`' candidates pass, Callgrind counts each of the two apart
/// (`hitbench_candidate_count_arm`).
func _timedCandidateCost(queries: () -> Int, indexAlone: () -> Int) -> CandidateTimings {
  let counting = hitbench_candidate_count_begin()
  let t0 = Clocks.monotonicNanoseconds()
  let candidates = queries()
  let t1 = Clocks.monotonicNanoseconds()
  hitbench_candidate_count_split(counting, candidates)
  let held = indexAlone()
  let t2 = Clocks.monotonicNanoseconds()
  hitbench_candidate_count_end(counting)
  Clocks.keep(held)
  return CandidateTimings(candidates: candidates, queriesNanoseconds: t1 &- t0, indexNanoseconds: t2 &- t1)
}
