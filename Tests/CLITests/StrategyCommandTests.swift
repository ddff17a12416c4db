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
    let r = try hitbench(["verify", "--scenes", "20", "--points", "100", "--seed", "5", "--histories", "0"])
    #expect(r.status == 0)
    // One row per strategy, preset and tree: 20 scenes x 100 points each for every strategy but
    // tree-walk, whose row counts its answers judged by the oracle.
    let rows = r.stdout.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count == 6 }
    for name in strategyNames {
      let mine = rows.filter { $0[0] == name }
      #expect(mine.count == 6, "\(name): a row per preset and tree")
      for row in mine {
        if name == "tree-walk" {
          #expect(Int(row[3])! > 0, "\(row)")
        } else {
          #expect(row[3] == "2000", "\(row)")
        }
        #expect(row[5] == "0", "\(row)")
      }
    }
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

@Suite struct VerificationCommandTests {
  /// Each injected fault makes `verify` fail, naming the fault; two at once are a usage error.
  @Test(arguments: [
    ["--inject-shift", "1e-6"], ["--inject-flag"], ["--inject-order"], ["--inject-shrink", "1e-6"],
    ["--inject-stale-windows"],
  ])
  func verifyCatchesAnInjectedFault(_ fault: [String]) throws {
    let r = try hitbench(["verify", "--scenes", "12", "--points", "300", "--seed", "3"] + fault)
    #expect(r.status == 1, "\(fault): \(r.stdout.suffix(300))")
    #expect(r.stderr.contains("was injected, as it must be caught"), "\(fault): \(r.stderr)")
  }

  /// The histories: their own table, one row per strategy, preset and tree they met.
  @Test func verifyDrivesEveryStrategyThroughHistories() throws {
    let r = try hitbench(["verify", "--scenes", "1", "--points", "20", "--histories", "12", "--frames", "10"])
    #expect(r.status == 0, "\(r.stderr)")
    let parts = r.stdout.components(separatedBy: "across frames: 12 histories")
    #expect(parts.count == 2, "\(r.stdout)")
    let rows = parts.last!.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count == 6 }
    for name in strategyNames { #expect(rows.contains { $0[0] == name }, "\(name) in the histories' table") }
    for bad in [["--histories", "-1"], ["--frames", "0"]] {
      #expect(try hitbench(["verify"] + bad).status == 64, "\(bad)")
    }
  }

  @Test func verifyOneTreeAndUsageErrors() throws {
    let r = try hitbench(["verify", "--scenes", "5", "--points", "50", "--tree", "model"])
    #expect(r.status == 0)
    #expect(r.stdout.contains(" model ") && !r.stdout.contains(" presentation "))
    for args in [["verify", "--inject-flag", "--inject-order"], ["verify", "--tree", "both-ways"]] {
      let bad = try hitbench(args)
      #expect(bad.status == 64, "\(args)")
    }
  }

  /// `run --verify` that finds a wrong answer writes no report, and says which strategy, tree,
  /// time and point, with a minimal scene that reproduces it.
  @Test func runVerifyThatFailsWritesNoReport() throws {
    let dir = try temporaryDirectory()
    let r = try hitbench([
      "run", "--scene", "app", "--layers", "300", "--frames", "2", "--warmup", "0", "--queries", "400", "--strategy",
      "grid", "--verify", "--inject-shrink", "0.5", "--format", "json", "--output", dir + "/out.json", "--failures",
      dir + "/failures",
    ])
    #expect(r.status == 1)
    #expect(r.stderr.contains("no report was written"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/out.json"))
    #expect(r.stdout.contains("grid under calayer, presentation tree"), "\(r.stdout)")
    #expect(r.stdout.contains("reproduce: hitbench hittest --scene \(dir)/failures/disagreement-1.json --time "))
    #expect(FileManager.default.fileExists(atPath: dir + "/failures/disagreement-1.json"))
  }
}
