import Allocations
import Foundation
import Testing

/// Every run result breaks its memory down (model, compiled scene, frame with its builder, the
/// strategy's state) from jemalloc's live-heap counter, measured in a `hitbench run` process of
/// its own (in the test process other tests allocate at the same time).
@Suite struct MemoryBreakdownTests {
  /// One run's results as rows keyed by column (CSV).
  static func results(layers: Int, strategies: String) throws -> [[String: String]] {
    let r = try hitbenchRelease([
      "run", "--scene", "particles", "--layers", "\(layers)", "--strategy", strategies, "--queries", "50",
      "--frames", "3", "--warmup", "1", "--format", "csv",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { row in
      Dictionary(uniqueKeysWithValues: zip(header.map(String.init), row.map(String.init)))
    }
  }

  @Test(
    .enabled(if: AllocationCounter.isAvailable, "jemalloc is not in this process (sanitizer builds leave it out)"),
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func everyResultBreaksItsMemoryDownAndThePartsGrowWithTheScene() throws {
    let parts = ["modelBytes", "compiledSceneBytes", "frameBytes", "strategyBytes"]
    let strategies = "grid,bvh-sah,lazy-walk,window-grid"
    let small = try Self.results(layers: 10_000, strategies: strategies)
    let large = try Self.results(layers: 40_000, strategies: strategies)
    #expect(small.count == 4 && large.count == 4)
    for rows in [small, large] {
      for row in rows {
        let name = row["strategy"] ?? "?"
        for p in parts { #expect(Double(row[p] ?? "") ?? 0 > 0, "\(name): \(p) is \(row[p] ?? "missing")") }
        // What the strategy holds includes the structures it counts itself.
        let held = Double(row["strategyBytes"] ?? "") ?? 0
        let own = Double(row["indexBytes"] ?? "") ?? .infinity
        if name == "grid" || name == "bvh-sah" { #expect(held >= own, "\(name): holds \(held) B, counts \(own) B") }
      }
      // The scene's parts are measured once per configuration: the same for every strategy.
      for p in parts.dropLast() { #expect(Set(rows.map { $0[p] }).count == 1, "\(p) differs between strategies") }
    }
    // Four times the layers: each part of the scene grows about fourfold (per-layer storage,
    // not a fixed cost nor a quadratic one).
    for p in parts.dropLast() {
      let a = Double(small[0][p] ?? "") ?? 0
      let b = Double(large[0][p] ?? "") ?? 0
      #expect(b / a > 3 && b / a < 5.5, "\(p): \(a) B at 10,000 layers, \(b) B at 40,000")
    }
  }
}
