import Foundation
import Testing

/// Every strategy, in `hitbench list` order: the rebuild family, lazy-walk, the time-aware ones.
let strategyNames = [
  "tree-walk", "flat-scan", "flat-tree", "bvh-sah", "bvh-lbvh", "bvh-refit", "grid", "lazy-walk", "window-grid",
  "stagger-grid", "linear-bvh",
]

@Suite struct StrategyCommandTests {
  @Test func everyStrategyAnswersTheSeedScene() throws {
    let r = try hitbench([
      "hittest", "--scene", "data/scenes/seed-move.json", "--time", "1", "--point", "150,50", "--strategy", "all",
      "--format", "json",
    ])
    #expect(r.status == 0)
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let results = try #require(obj["results"] as? [[String: Any]])
    #expect(results.count == strategyNames.count)
    #expect(Set(results.compactMap { $0["strategy"] as? String }) == Set(strategyNames))
    #expect(results.allSatisfy { $0["hit"] as? String == "orange" })
  }

  @Test func listNamesEveryStrategy() throws {
    let r = try hitbench(["list"])
    #expect(r.status == 0)
    let names = r.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    #expect(names == strategyNames)
  }

  @Test func verifyPassesAndReportsItsCounts() throws {
    let r = try hitbench(["verify", "--scenes", "20", "--points", "100", "--seed", "5"])
    #expect(r.status == 0)
    // 20 scenes x 100 points x 3 presets x every strategy but tree-walk.
    #expect(r.stdout.contains("\(20 * 100 * 3 * (strategyNames.count - 1)) comparisons"))
    #expect(r.stdout.contains(" 0 disagreements"))
  }

  @Test func strategyAndVerifyUsageErrors() throws {
    for args in [
      ["hittest", "--scene", "data/scenes/seed-move.json", "--point", "1,1", "--strategy", "quadtree"],
      ["verify", "--scenes", "0"], ["verify", "--points", "many"], ["verify", "--strategy", "rtree"],
      ["verify", "--layers", "5-2"], ["list", "--all"],
    ] {
      let r = try hitbench(args)
      #expect(r.status == 64, "\(args)")
      #expect(r.stderr.contains(args[args.count - 2].split(separator: "=")[0]), "\(args): \(r.stderr)")
    }
  }
}
