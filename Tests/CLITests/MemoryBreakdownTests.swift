import Allocations
import Foundation
import Testing

/// Every run result breaks its memory down (model, compiled scene, frame with its builder, the
/// strategy's state) from jemalloc's live-heap counter, measured in a `hitbench run` process of
/// its own (in the test process other tests allocate at the same time).
@Suite struct MemoryBreakdownTests {
  /// One run's results as rows keyed by column (CSV).
  static func results(
    scene: String = "app", layers: Int, strategies: String, verify: Bool = false
  ) throws -> [[String: String]] {
    let r = try hitbenchRelease(
      [
        "run", "--scene", scene, "--layers", "\(layers)", "--strategy", strategies, "--queries", "50",
        "--frames", "3", "--warmup", "1", "--format", "csv",
      ] + (verify ? ["--verify"] : []))
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

  /// A particles run without `--verify` compiles the scene as it is generated: the model is
  /// never held whole (0 bytes) and the compiled scene holds the columns of the whole tree's
  /// compile (a verified run's, which also keeps the layers' list and their index: at most
  /// that, and at least 90% of it).
  @Test(
    .enabled(if: AllocationCounter.isAvailable, "jemalloc is not in this process (sanitizer builds leave it out)"),
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func aSceneCompiledWhileGeneratedHoldsNoModel() throws {
    let streamed = try Self.results(scene: "particles", layers: 20_000, strategies: "grid")
    let whole = try Self.results(scene: "particles", layers: 20_000, strategies: "grid", verify: true)
    func bytes(_ rows: [[String: String]], _ part: String) -> Double { Double(rows.first?[part] ?? "") ?? -1 }
    #expect(bytes(streamed, "modelBytes") == 0)
    #expect(bytes(whole, "modelBytes") > 0)
    let (s, w) = (bytes(streamed, "compiledSceneBytes"), bytes(whole, "compiledSceneBytes"))
    #expect(w > 0 && s <= w && s >= 0.9 * w, "compiled scene: \(s) B streamed, \(w) B whole")
  }
}
