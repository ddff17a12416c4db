import BenchKit
import Testing

/// Reading Callgrind's dumps (`CallgrindDumps`): each dump's label names whose count it is, and
/// the candidates pass's two parts make a cost per candidate of the candidate's own work.
@Suite struct CallgrindDumpsTests {
  /// The text of a dump labelled `label` with `total` instructions, as Callgrind writes it.
  static func dump(_ label: String, _ total: Int) -> Substring {
    "version: 1\ncreator: callgrind-3.19.0\ndesc: Trigger: Client Request: \(label)\nevents: Ir\n"
      + "fn=(1) f\n0 \(total)\ntotals: \(total)\n"
  }

  static let strategy = "hitbench configuration=0 strategy=window-grid threads=1 queries=1000"

  @Test func theCandidatesPartsGiveTheCandidatesOwnWork() throws {
    var dumps = CallgrindDumps()
    try dumps.add(Self.dump("\(Self.strategy) frames=30 phase=queries jobs=0", 15_000_000))
    try dumps.add(Self.dump("\(Self.strategy) frames=1 phase=candidates part=whole candidates=700", 500_000))
    try dumps.add(Self.dump("\(Self.strategy) frames=1 phase=candidates part=index", 325_000))
    let counts = try #require(dumps.instructions(configuration: 0, strategy: "window-grid", threads: 1, queries: 1000))
    // The frames' phase is per frame; the candidates' parts are not frames and leave it alone.
    #expect(counts.queriesPerFrame == 500_000 && counts.frames == 30)
    #expect(counts.candidateBatch == 500_000 && counts.candidateIndex == 325_000 && counts.candidatesCounted == 700)
    #expect(counts.perCandidate == 250)
  }

  @Test func aStrategyWithoutCandidatesCountsNone() throws {
    var dumps = CallgrindDumps()
    try dumps.add(Self.dump("hitbench configuration=0 strategy=grid threads=2 queries=10 frames=4 phase=queries", 4000))
    let counts = try #require(dumps.instructions(configuration: 0, strategy: "grid", threads: 2, queries: 10))
    #expect(counts.perCandidate == 0 && counts.perQuery == 0 && counts.queriesPerFrame == 1000)
  }

  /// A candidates dump whose label lost its part (cut short) is an error, never a count of the
  /// frames' phases or of the other part.
  @Test func aCandidatesDumpWithoutItsPartIsRefused() {
    for label in [
      "\(Self.strategy) frames=1 phase=candidates", "\(Self.strategy) frames=1 phase=candidates part=whole",
      "\(Self.strategy) frames=1 phase=candidates part=wh",
    ] {
      var dumps = CallgrindDumps()
      #expect(throws: CallgrindDumps.Problem.self, "\(label)") { try dumps.add(Self.dump(label, 100)) }
    }
  }
}
