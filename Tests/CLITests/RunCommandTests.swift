import Foundation
import Testing

@Suite struct RunCommandTests {
  private func tmp(_ name: String) -> String { "/tmp/hitbench-cli-\(getpid())-\(name)" }

  @Test func runWritesValidJSONPerTheSchema() throws {
    let out = tmp("run.json")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let r = try hitbench([
      "run", "--scene", "particles", "--layers", "300", "--queries", "10,20", "--frames", "3", "--warmup", "1",
      "--strategy", "grid,tree-walk", "--format", "json", "--output", out, "--verify",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let doc = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
    let meta = try #require(doc["meta"] as? [String: Any])
    #expect((meta["command"] as? String)?.contains("--layers 300") == true)
    let results = try #require(doc["results"] as? [[String: Any]])
    #expect(results.count == 4)
    for res in results {
      #expect(res["layers"] as? Int == 300)
      #expect((res["frameNs"] as? [String: Any])?["median"] is Double)
      #expect(res["allocationsPerFrame"] as? Double == 0)
      #expect(res["disagreements"] as? Int == 0)
    }
  }

  @Test func aPinnedWindowIsUsedAndReported() throws {
    let out = tmp("window.json")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let r = try hitbench([
      "run", "--scene", "app", "--layers", "300", "--queries", "10", "--frames", "4", "--warmup", "1",
      "--strategy", "window-grid,linear-bvh,grid", "--window", "25", "--format", "json", "--output", out, "--verify",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let doc = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
    let results = try #require(doc["results"] as? [[String: Any]])
    for res in results {
      let timeAware = res["family"] as? String == "time-aware"
      #expect(res["windowPinned"] as? Bool == timeAware, "\(res["strategy"] ?? "?")")
      if timeAware { #expect(res["windowMs"] as? Double == 25) }
    }
    #expect(try hitbench(["run", "--window", "0"]).status == 64)
    #expect(try hitbench(["run", "--window", "5000"]).status == 64)
  }

  @Test func tableCsvAndMarkdown() throws {
    for format in ["table", "csv", "markdown"] {
      let r = try hitbench([
        "run", "--scene", "wide", "--layers", "100", "--queries", "5", "--frames", "2", "--warmup", "0",
        "--strategy", "flat-scan,tree-walk", "--format", format,
      ])
      #expect(r.status == 0)
      #expect(r.stdout.contains("flat-scan") && r.stdout.contains("tree-walk"), "\(format)")
    }
  }

  @Test func usageErrorsListTheValidChoicesAndWriteNothing() throws {
    let out = tmp("never.json")
    let cases: [([String], String)] = [
      (["run", "--scene", "forest"], "particles"),
      (["run", "--layers", "5"], "--layers"),
      (["run", "--layers", "2000000"], "--layers"),
      (["run", "--animated", "2"], "--animated"),
      (["run", "--queries", "0"], "--queries"),
      (["run", "--workload", "swipe"], "uniform"),
      (["run", "--suite", "nightly"], "default"),
      (["run", "--suite", "default", "--layers", "100"], "--layers"),
      (["run", "--format", "yaml", "--output", out], "--format"),
      (["generate", "forest", "-o", out], "particles"),
      (["generate", "app"], "-o"),
      (["export", "--scene", "app"], "--out"),
      (["profile", "--phase", "queries"], "--strategy"),
      (["profile", "--strategy", "grid", "--phase", "sleep"], "--phase"),
      (["compare", "a.json"], "NEW.json"),
    ]
    for (args, needle) in cases {
      let r = try hitbench(args)
      #expect(r.status == 64, "\(args)")
      #expect(r.stderr.contains(needle), "\(args): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
    let badScene = try hitbench(["run", "--scene", "/nonexistent.json"])
    #expect(badScene.status == 65)
  }

  @Test func generateAndRunAFile() throws {
    let scene = tmp("gen.json")
    defer { try? FileManager.default.removeItem(atPath: scene) }
    let g = try hitbench(["generate", "cards", "--layers", "200", "--seed", "3", "-o", scene])
    #expect(g.status == 0)
    let h = try hitbench(["hittest", "--scene", scene, "--point", "500,400", "--strategy", "all"])
    #expect(h.status == 0 && h.stdout.split(separator: "\n").count == strategyNames.count)
  }

  @Test func exportWritesBoxesAndPoints() throws {
    let dir = tmp("export")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let r = try hitbench([
      "export", "--scene", "particles", "--layers", "100", "--time", "0.5", "--queries", "40", "--out", dir,
    ])
    #expect(r.status == 0)
    let boxes = try String(contentsOfFile: dir + "/boxes.csv", encoding: .utf8).split(separator: "\n")
    let points = try String(contentsOfFile: dir + "/points.csv", encoding: .utf8).split(separator: "\n")
    #expect(boxes.first == "minx,miny,maxx,maxy,priority" && boxes.count == 101)
    #expect(points.first == "x,y" && points.count == 41)
  }

  @Test func compareVerdicts() throws {
    func write(_ name: String, _ median: Double) throws -> String {
      let path = tmp(name)
      try """
      {"meta": {}, "results": [{"strategy": "grid", "scene": "app", "layers": 10, "animatedFraction": 1,
        "queriesPerFrame": 100, "workload": "uniform", "semantics": "calayer", "frameNs": {"median": \(median)}}]}
      """.write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let base = try write("base.json", 1000)
    let same = try write("same.json", 1040)
    let slow = try write("slow.json", 1100)
    defer { for p in [base, same, slow] { try? FileManager.default.removeItem(atPath: p) } }
    let ok = try hitbench(["compare", base, same])
    #expect(ok.status == 0 && ok.stdout.contains("0 regressions"))
    let bad = try hitbench(["compare", base, slow, "--threshold", "5%"])
    #expect(bad.status == 1 && bad.stdout.contains("REGRESSION"))
    let loose = try hitbench(["compare", base, slow, "--threshold=0.2"])
    #expect(loose.status == 0)
    let junk = try hitbench(["compare", base, "/nonexistent.json"])
    #expect(junk.status == 65)
  }

  @Test func profileRunsAPhase() throws {
    let r = try hitbench([
      "profile", "--strategy", "bvh-sah", "--phase", "update", "--seconds", "0.05", "--scene", "wide", "--layers",
      "200",
    ])
    #expect(r.status == 0)
    #expect(r.stderr.contains("bvh-sah update"))
  }
}
