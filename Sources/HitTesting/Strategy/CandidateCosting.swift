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
