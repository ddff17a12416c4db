import Clocks
import LayerModel

/// A strategy whose queries evaluate candidates lazily (the time-aware ones) and can say what
/// one candidate costs: its lazy evaluation and exact test, apart from the index that proposes
/// it. Measured untimed for the frames, after them, at the last update's time.
public protocol CandidateCosting {
  /// The candidates `points` meet and the nanoseconds their evaluations and exact tests take:
  /// the queries timed with every candidate evaluated fresh (the frame's evaluations forgotten
  /// first), less the same queries' index work alone.
  func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> (candidates: Int, nanoseconds: UInt64)
}

/// `costOfCandidates`' measurement, one for every strategy that has one: `queries` timed (the
/// batch with every candidate evaluated fresh; answers the candidates met) less `indexAlone`
/// timed (the same batch's index work alone, each proposal's bounds tested; answers how many
/// held, which is kept so that the work is not optimised away).
func _timedCandidateCost(queries: () -> Int, indexAlone: () -> Int) -> (candidates: Int, nanoseconds: UInt64) {
  let t0 = Clocks.monotonicNanoseconds()
  let candidates = queries()
  let t1 = Clocks.monotonicNanoseconds()
  let held = indexAlone()
  let t2 = Clocks.monotonicNanoseconds()
  if held < 0 { print(held) }
  let full = t1 &- t0
  let index = t2 &- t1
  return (candidates, full > index ? full &- index : 0)
}
