import Testing

@testable import HitTesting

/// A cost per candidate read from several pairs of timings of one batch (the queries whole,
/// their index work alone), each of which the host may have interrupted.
@Suite struct CandidateTimingsTests {
  static func pair(_ queries: UInt64, _ index: UInt64, candidates: Int = 10) -> CandidateTimings {
    CandidateTimings(candidates: candidates, queriesNanoseconds: queries, indexNanoseconds: index)
  }

  /// Three of five index timings interrupted (each longer than its whole batch): the least of
  /// each timing still reads the 100 ns the candidates took, 10 ns each. The median of the
  /// pairs' own differences read 0 here, unmeasured: it fails so.
  @Test func theLeastOfEachTimingIsRead() {
    let pairs = [
      Self.pair(1_000, 2_900), Self.pair(1_003, 2_700), Self.pair(1_001, 3_100), Self.pair(1_000, 900),
      Self.pair(1_005, 905),
    ]
    #expect(CandidateTimings.nanosecondsPerCandidate(pairs) == 10)
    // An interrupted whole batch is passed over as well.
    #expect(CandidateTimings.nanosecondsPerCandidate([Self.pair(9_000, 900), Self.pair(1_000, 920)]) == 10)
  }

  /// Nothing to read: no candidate, or the index alone never faster than the whole.
  @Test func noCandidateOrNoDifferenceReadsZero() {
    #expect(CandidateTimings.nanosecondsPerCandidate([Self.pair(1_000, 900, candidates: 0)]) == 0)
    #expect(CandidateTimings.nanosecondsPerCandidate([Self.pair(1_000, 1_000), Self.pair(1_200, 1_100)]) == 0)
    #expect(CandidateTimings.nanosecondsPerCandidate([CandidateTimings]()) == 0)
  }
}
