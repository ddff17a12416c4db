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

  /// A windowed strategy that holds fewer whole windows than its run asked (at least one) is
  /// marked not comparable, in JSON and in the table's note; one that holds them is not, and a
  /// run asked for more goes on until it holds them, past ten times its frames where that many
  /// windows need more.
  @Test func tooFewWindowsAreNotComparable() throws {
    let out = tmp("windows-held.json")
    defer { try? FileManager.default.removeItem(atPath: out) }
    func run(_ window: String, minWindows: String?) throws -> (table: String, results: [[String: Any]]) {
      var args = [
        "run", "--scene", "particles", "--layers", "300", "--queries", "5", "--frames", "12", "--warmup", "1",
        "--strategy", "window-grid,grid", "--window", window,
      ]
      if let minWindows { args += ["--min-windows", minWindows] }
      let table = try hitbench(args)
      try #require(table.status == 0, "\(table.stderr)")
      let json = try hitbench(args + ["--format", "json", "--output", out])
      try #require(json.status == 0, "\(json.stderr)")
      let doc = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
      return (table.stdout, try #require(doc["results"] as? [[String: Any]]))
    }
    // 12 frames (0.1 s) of a 1 s window: a tenth of one.
    let short = try run("1000", minWindows: nil)
    for r in short.results {
      let windowed = r["family"] as? String == "time-aware"
      #expect(r["comparable"] as? Bool == !windowed, "\(r["strategy"] ?? "?")")
    }
    let row = try #require(short.table.split(separator: "\n").first { $0.hasPrefix("window-grid ") })
    #expect(row.contains("of 1 windows: not comparable"), "\(row)")
    // Three 0.5 s windows are 180 frames, past ten times 12: the run goes on to hold them.
    let longer = try run("500", minWindows: "3")
    #expect(longer.results.allSatisfy { $0["comparable"] as? Bool == true })
    let timed = try #require(longer.results.first { $0["strategy"] as? String == "window-grid" })
    #expect((timed["frames"] as? Double ?? 0) >= 180, "\(timed["frames"] ?? "?") frames")
    // A 25 ms window over 12 frames: four whole windows.
    let held = try run("25", minWindows: "3")
    #expect(held.results.allSatisfy { $0["comparable"] as? Bool == true })
    #expect(!held.table.contains("not comparable"))
  }

  /// CPU per frame split by thread: the frame's own, the build's workers and the rest add up
  /// to the whole; a time-aware strategy's window builds (pinned short, so there are many)
  /// count as background work, never as build workers.
  @Test func cpuPerFrameSplitsByThread() throws {
    let out = tmp("cpu.json")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let r = try hitbench([
      "run", "--scene", "particles", "--layers", "3000", "--queries", "10", "--frames", "24", "--warmup", "2",
      "--threads", "2", "--strategy", "grid,window-grid", "--window", "20", "--format", "json", "--output", out,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let doc = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
    let results = try #require(doc["results"] as? [[String: Any]])
    #expect(results.count == 2)
    for res in results {
      func mean(_ key: String) throws -> Double {
        try #require((res[key] as? [String: Any])?["mean"] as? Double, "\(key)")
      }
      let name = res["strategy"] as? String ?? "?"
      let total = try mean("cpuNs")
      let thread = try mean("cpuThreadNs")
      let workers = try mean("cpuBuildWorkersNs")
      let background = try mean("cpuBackgroundNs")
      #expect(abs(thread + workers + background - total) <= Swift.max(total * 1e-9, 1), "\(name)")
      #expect(thread > 0, "\(name)")
      if name == "window-grid" {
        #expect(workers == 0, "window-grid builds no presentation frame")
        #expect(background > 0, "window-grid's window builds ran on its background thread")
      }
    }
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

  /// A results file of the current schema with one result per entry: the frame's mean, its
  /// standard deviation over `count` frames, and the allocations.
  private func resultsFile(
    _ name: String, _ results: [(strategy: String, mean: Double, stddev: Double, allocations: Double)],
    schema: String = "hitbench-results/3", thresholds: String = "", count: Int = 200,
    meta: String = #""cores": 2, "seed": 1"#, targets: String = "[]", blocks: [String: [Double]] = [:],
    allocationBlocks: [String: [Double]] = [:], instructions: [String: (frame: Double, windowMs: Double)] = [:]
  ) throws -> String {
    let path = tmp(name)
    let rows = results.map { r in
      // Blocks of 10 frames with these means (the frame, its update + queries and its CPU alike),
      // and these allocations per frame where given.
      let blockList = (blocks[r.strategy] ?? []).enumerated().map { i, m in
        let allocations = allocationBlocks[r.strategy].map { ", \"allocationsPerFrame\": \($0[i])" } ?? ""
        return "{\"firstFrame\": \(i * 10), \"frames\": 10, \"meanFrameNs\": \(m), \"meanHitTestNs\": \(m), "
          + "\"meanCpuNs\": \(m), \"maxFrameNs\": \(m * 1.2)\(allocations)}"
      }
      let summary =
        "{\"min\": \(r.mean * 0.9), \"median\": \(r.mean), \"p90\": \(r.mean * 1.05), \"p99\": \(r.mean * 1.1), "
        + "\"max\": \(r.mean * 1.2), \"mad\": \(r.stddev * 0.67), \"mean\": \(r.mean), \"stddev\": \(r.stddev), \"count\": \(count)}"
      // Counts as `run --instructions` writes them (the fields compare reads).
      let counted = instructions[r.strategy].map { i in
        ", \"instructions\": {\"framePerFrame\": \(i.frame), \"perBackgroundBuild\": \(i.frame / 4), "
          + "\"windowMs\": \(i.windowMs), \"frames\": 20}"
      }
      return """
        {"strategy": "\(r.strategy)", "scene": "app", "layers": 10, "animatedFraction": 1, "queriesPerFrame": 100,
         "workload": "uniform", "semantics": "calayer", "tree": "presentation", "threads": 1, "pacing": "real-time",
         "frameNs": \(summary), "hitTestNs": \(summary), "allocationsPerFrame": \(r.allocations),
         "blocks": [\(blockList.joined(separator: ","))]\(counted ?? "")}
        """
    }
    try """
    {"meta": {"schema": "\(schema)", \(meta)}, \(thresholds.isEmpty ? "" : "\"thresholds\": \(thresholds),")
     "targets": \(targets), "results": [\(rows.joined(separator: ","))]}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// `compare` judges the mean and p99 against thresholds and the frames' spread, names missing
  /// results, and refuses (65) a file it cannot compare faithfully.
  @Test func compareVerdicts() throws {
    let base = try resultsFile("base.json", [("grid", 1000, 10, 0), ("tree-walk", 5000, 10, 0)])
    let same = try resultsFile("same.json", [("grid", 1040, 10, 0), ("tree-walk", 5000, 10, 0)])
    let slow = try resultsFile("slow.json", [("grid", 1100, 10, 0), ("tree-walk", 5000, 10, 0)])
    // 10% slower, but the frames spread by half the mean: within noise.
    let noisyBase = try resultsFile("noisy-base.json", [("grid", 1000, 500, 0), ("tree-walk", 5000, 10, 0)])
    let noisySlow = try resultsFile("noisy-slow.json", [("grid", 1100, 500, 0), ("tree-walk", 5000, 10, 0)])
    let allocating = try resultsFile("alloc.json", [("grid", 1000, 10, 0.5), ("tree-walk", 5000, 10, 0)])
    // A library's allocations, the same binary twice, and 20% more.
    let peer = try resultsFile("peer.json", [("grid", 1000, 10, 0), ("tree-walk", 5000, 10, 61.5)])
    let peerAgain = try resultsFile("peer-again.json", [("grid", 1000, 10, 0), ("tree-walk", 5000, 10, 61.7)])
    let peerMore = try resultsFile("peer-more.json", [("grid", 1000, 10, 0), ("tree-walk", 5000, 10, 73.8)])
    let partial = try resultsFile("partial.json", [("grid", 1000, 10, 0)])
    let oldSchema = try resultsFile("old.json", [("grid", 1000, 10, 0)], schema: "hitbench-results/2")
    let twice = try resultsFile("twice.json", [("grid", 1000, 10, 0), ("grid", 1000, 10, 0)])
    let loose = try resultsFile(
      "loose.json", [("grid", 1000, 10, 0)], thresholds: #"{"frameNsMean": {"relative": 1e9, "absolute": 0}}"#)
    let unknown = try resultsFile(
      "unknown.json", [("grid", 1000, 10, 0)], thresholds: #"{"frameNsMedain": {"relative": 0.05, "absolute": 0}}"#)
    let untracked = try resultsFile(
      "untracked.json", [("grid", 1000, 10, 0)], thresholds: #"{"cpuNsMean": {"relative": 0.05, "absolute": 0}}"#)
    let infinite = tmp("infinite.json")
    try String(contentsOfFile: base, encoding: .utf8).replacingOccurrences(
      of: "\"mean\": 1000.0", with: "\"mean\": 1e999"
    )
    .write(toFile: infinite, atomically: true, encoding: .utf8)
    let all = [
      base, same, slow, noisyBase, noisySlow, allocating, partial, oldSchema, twice, loose, unknown, untracked, peer,
      peerAgain, peerMore,
    ]
    defer { for p in all + [infinite] { try? FileManager.default.removeItem(atPath: p) } }

    let ok = try hitbench(["compare", base, same])
    #expect(ok.status == 0 && ok.stdout.contains("0 regressions"), "\(ok.stdout)")
    let bad = try hitbench(["compare", base, slow, "--threshold", "5%"])
    #expect(bad.status == 1 && bad.stdout.contains("REGRESSION") && bad.stdout.contains("frameNsMean"))
    let relaxed = try hitbench(["compare", base, slow, "--threshold=0.2"])
    #expect(relaxed.status == 0, "\(relaxed.stdout)")
    let noise = try hitbench(["compare", noisyBase, noisySlow])
    #expect(noise.status == 0 && noise.stdout.contains("within noise"), "\(noise.stdout)")
    let allocs = try hitbench(["compare", base, allocating, "--threshold", "50%"])
    #expect(allocs.status == 1 && allocs.stdout.contains("allocationsPerFrame"), "\(allocs.stdout)")
    let jitter = try hitbench(["compare", peer, peerAgain])
    #expect(jitter.status == 0 && jitter.stdout.contains("0 regressions"), "\(jitter.stdout)")
    let more = try hitbench(["compare", peer, peerMore])
    #expect(more.status == 1 && more.stdout.contains("allocationsPerFrame"), "\(more.stdout)")
    let missing = try hitbench(["compare", base, partial])
    #expect(missing.status == 1 && missing.stdout.contains("MISSING"), "\(missing.stdout)")
    for (file, says) in [
      ("/nonexistent.json", "nonexistent"), (oldSchema, "hitbench-results/2"), (twice, "repeats"),
      (loose, "relative growth"), (unknown, "frameNsMedain"), (infinite, "finite"),
    ] {
      let r = try hitbench(["compare", base, file])
      #expect(r.status == 65 && r.stderr.contains(says), "\(file): \(r.status) \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
    // A threshold on a metric the results do not carry is refused, not skipped.
    let r = try hitbench(["compare", untracked, untracked])
    #expect(r.status == 65 && r.stderr.contains("cpuNs.mean"), "\(r.stderr)")
    #expect(try hitbench(["compare", base, same, "--threshold", "5000%"]).status == 64)
  }

  /// The planted slowdown of scripts/compare-power.sh lands in the named strategy's queries
  /// only, inside the timed region.
  @Test func aPlantedQueryDelaySlowsOneStrategy() throws {
    let r = try hitbench([
      "run", "--scene", "app", "--layers", "200", "--strategy", "grid,tree-walk", "--queries", "1", "--frames", "5",
      "--warmup", "1", "--inject-query-delay-ns", "grid:3000000", "--format", "csv",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = try #require(rows.first)
    let q = try #require(header.firstIndex(of: "queriesNsMin"))
    let s = try #require(header.firstIndex(of: "strategy"))
    for row in rows.dropFirst() {
      let fastest = try #require(Double(row[q]))
      #expect((row[s] == "grid") == (fastest >= 3_000_000), "\(row[s]): fastest queries \(fastest) ns")
    }
  }

  /// With blocks, a mean is judged by the interval of new / base over both sides' blocks (and,
  /// a side being one run, a process's own spread), not by the frames' spread: a 10% slowdown
  /// whose blocks spread as much is within noise however small the frames' standard deviation
  /// (the old rule would call it a regression), and a 30% one whose blocks are tight is a
  /// regression however large the frames' standard deviation.
  @Test func compareJudgesMeansByBlocks() throws {
    let spread: [Double] = [800, 1200, 900, 1100, 1000, 700, 1300, 1000]
    let tight: [Double] = [995, 1005, 1000, 998, 1002, 1000, 1001, 999]
    let base = try resultsFile("blocks-base.json", [("grid", 1000, 10, 0)], blocks: ["grid": spread])
    let new = try resultsFile("blocks-new.json", [("grid", 1100, 10, 0)], blocks: ["grid": spread.map { $0 * 1.1 }])
    let tightBase = try resultsFile("tight-base.json", [("grid", 1000, 500, 0)], blocks: ["grid": tight])
    let tightNew = try resultsFile(
      "tight-new.json", [("grid", 1300, 500, 0)], blocks: ["grid": tight.map { $0 * 1.3 }])
    defer { for p in [base, new, tightBase, tightNew] { try? FileManager.default.removeItem(atPath: p) } }
    let noisy = try hitbench(["compare", base, new])
    #expect(noisy.status == 0 && noisy.stdout.contains("within noise"), "\(noisy.stdout)")
    #expect(noisy.stdout.contains("new/base 97.5% "), "\(noisy.stdout)")
    let clear = try hitbench(["compare", tightBase, tightNew])
    #expect(clear.status == 1 && clear.stdout.contains("REGRESSION"), "\(clear.stdout)")
  }

  /// Allocations per frame are judged by their blocks' spread: a library that allocates in the
  /// frames its re-index lands in (blocks of 0 and about 30) allocating 7% more on the mean is
  /// within noise (`run --suite default --repeat 3` twice read embree-motion's 11.5 and 12.1 as
  /// a regression), where blocks that all allocate alike are judged as before: a strategy that
  /// allocated nothing and now allocates half an allocation a frame, and a library's tight
  /// 61.5 grown to 73.8, are regressions.
  @Test func compareJudgesAllocationsByTheirBlocks() throws {
    let times = [Double](repeating: 1000, count: 8)
    let bursty: [Double] = [0, 0, 30, 0, 0, 28, 0, 0]
    let burstyMore: [Double] = [0, 32, 0, 0, 30, 0, 0, 0]
    let peer = try resultsFile(
      "alloc-peer.json", [("grid", 1000, 10, 7.25)], blocks: ["grid": times], allocationBlocks: ["grid": bursty])
    let peerMore = try resultsFile(
      "alloc-peer-more.json", [("grid", 1000, 10, 7.75)], blocks: ["grid": times],
      allocationBlocks: ["grid": burstyMore])
    let none = try resultsFile(
      "alloc-none.json", [("grid", 1000, 10, 0)], blocks: ["grid": times],
      allocationBlocks: ["grid": [Double](repeating: 0, count: 8)])
    let half = try resultsFile(
      "alloc-half.json", [("grid", 1000, 10, 0.5)], blocks: ["grid": times],
      allocationBlocks: ["grid": [Double](repeating: 0.5, count: 8)])
    let tight = try resultsFile(
      "alloc-tight.json", [("grid", 1000, 10, 61.5)], blocks: ["grid": times],
      allocationBlocks: ["grid": [61.4, 61.6, 61.5, 61.5, 61.4, 61.6, 61.5, 61.5]])
    let tightMore = try resultsFile(
      "alloc-tight-more.json", [("grid", 1000, 10, 73.8)], blocks: ["grid": times],
      allocationBlocks: ["grid": [73.7, 73.9, 73.8, 73.8, 73.7, 73.9, 73.8, 73.8]])
    defer {
      for p in [peer, peerMore, none, half, tight, tightMore] { try? FileManager.default.removeItem(atPath: p) }
    }
    let bursts = try hitbench(["compare", peer, peerMore])
    #expect(bursts.status == 0 && bursts.stdout.contains("0 regressions"), "\(bursts.stdout)")
    let started = try hitbench(["compare", none, half])
    #expect(started.status == 1 && started.stdout.contains("allocationsPerFrame"), "\(started.stdout)")
    let grown = try hitbench(["compare", tight, tightMore])
    #expect(grown.status == 1 && grown.stdout.contains("allocationsPerFrame"), "\(grown.stdout)")
  }

  /// Two runs a side, three strategies: the new runs met a slower stretch of the host (every
  /// strategy 20% slower together), which is not a regression of any of them, and the run as a
  /// whole is printed; a strategy 10% slower than its run's others is one. (Judged by each
  /// strategy's blocks alone, as before, the first comparison reported three.)
  @Test func compareTakesTheRunAsAWholeOut() throws {
    let tight: [Double] = [995, 1005, 1000, 998, 1002, 1000]
    let names = ["grid", "tree-walk", "flat-scan"]
    func file(_ name: String, _ factor: [String: Double]) throws -> String {
      try resultsFile(
        name, names.map { ($0, 1000 * factor[$0]!, 10, 61.5) },
        blocks: Dictionary(uniqueKeysWithValues: names.map { n in (n, tight.map { $0 * factor[n]! }) }),
        instructions: Dictionary(uniqueKeysWithValues: names.map { ($0, (1_000_000, 50)) }))
    }
    let one = Dictionary(uniqueKeysWithValues: names.map { ($0, 1.0) })
    let slower = one.mapValues { $0 * 1.2 }
    var planted = slower
    planted["grid"] = 1.2 * 1.1
    let a1 = try file("host-a1.json", one)
    let a2 = try file("host-a2.json", one)
    let b1 = try file("host-b1.json", slower)
    let b2 = try file("host-b2.json", slower)
    let p1 = try file("host-p1.json", planted)
    let p2 = try file("host-p2.json", planted)
    defer { for p in [a1, a2, b1, b2, p1, p2] { try? FileManager.default.removeItem(atPath: p) } }
    let host = try hitbench(["compare", a1 + "," + a2, b1 + "," + b2])
    #expect(host.status == 0 && host.stdout.contains("0 regressions"), "\(host.stdout)")
    // Counts do not move with the host: the same allocations and instructions are the same.
    #expect(
      !host.stdout.split(separator: "\n").contains {
        ($0.contains("allocationsPerFrame") || $0.contains("instructions"))
          && ($0.contains("REGRESSION") || $0.contains("faster"))
      }, "\(host.stdout)")
    #expect(host.stdout.contains("the run as a whole new/base 1.2x"), "\(host.stdout)")
    let slowed = try hitbench(["compare", a1 + "," + a2, p1 + "," + p2])
    #expect(slowed.status == 1, "\(slowed.stdout)")
    let lines = slowed.stdout.split(separator: "\n").filter { $0.contains("REGRESSION") }
    #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("grid ") }, "\(slowed.stdout)")
    #expect(lines.contains { $0.contains("frameNsMean") && $0.contains("vs run") }, "\(slowed.stdout)")
  }

  /// Instruction counts are judged at 1% (a background build's at 2%) without noise (they have none) where both files
  /// counted them; counts of different windows are not compared; a file without counts
  /// compares its times as before.
  @Test func compareJudgesInstructionsAtOnePercent() throws {
    func file(_ name: String, _ frame: Double?, windowMs: Double = 50) throws -> String {
      try resultsFile(
        name, [("grid", 1000, 10, 0)], instructions: frame.map { ["grid": ($0, windowMs)] } ?? [:])
    }
    let base = try file("instr-base.json", 1_000_000)
    let within = try file("instr-within.json", 1_005_000)
    let more = try file("instr-more.json", 1_030_000)
    let fewer = try file("instr-fewer.json", 980_000)
    let otherWindow = try file("instr-window.json", 1_100_000, windowMs: 80)
    let uncounted = try file("instr-none.json", nil)
    defer {
      for p in [base, within, more, fewer, otherWindow, uncounted] { try? FileManager.default.removeItem(atPath: p) }
    }
    let same = try hitbench(["compare", base, within])
    #expect(same.status == 0 && same.stdout.contains("instructionsPerFrame"), "\(same.stdout)")
    let worse = try hitbench(["compare", base, more])
    #expect(worse.status == 1, "\(worse.stdout)")
    let lines = worse.stdout.split(separator: "\n")
    #expect(
      lines.contains { $0.contains("instructionsPerFrame") && $0.contains("REGRESSION") }
        && lines.contains { $0.contains("instructionsPerBackgroundBuild") && $0.contains("REGRESSION") },
      "\(worse.stdout)")
    let better = try hitbench(["compare", base, fewer])
    #expect(
      better.status == 0
        && better.stdout.split(separator: "\n").contains {
          $0.contains("instructionsPerFrame") && $0.contains("faster")
        },
      "\(better.stdout)")
    let windows = try hitbench(["compare", base, otherWindow])
    #expect(windows.status == 0 && windows.stdout.contains("windows differ"), "\(windows.stdout)")
    let plain = try hitbench(["compare", base, uncounted])
    #expect(plain.status == 0 && !plain.stdout.contains("instructionsPerFrame"), "\(plain.stdout)")
  }

  /// Each side of a comparison may be several runs, pooled: their blocks judged together, and a
  /// configuration missing from one run refused rather than half compared.
  @Test func comparePoolsRunsOfEachSide() throws {
    let tight: [Double] = [995, 1005, 1000, 998, 1002]
    let base1 = try resultsFile("pool-a1.json", [("grid", 1000, 10, 0)], count: 50, blocks: ["grid": tight])
    let base2 = try resultsFile("pool-a2.json", [("grid", 1000, 10, 0)], count: 50, blocks: ["grid": tight])
    let new1 = try resultsFile(
      "pool-b1.json", [("grid", 1100, 10, 0)], count: 50, blocks: ["grid": tight.map { $0 * 1.1 }])
    let new2 = try resultsFile(
      "pool-b2.json", [("grid", 1100, 10, 0)], count: 50, blocks: ["grid": tight.map { $0 * 1.1 }])
    let other = try resultsFile("pool-c.json", [("tree-walk", 1000, 10, 0)], count: 50)
    defer { for p in [base1, base2, new1, new2, other] { try? FileManager.default.removeItem(atPath: p) } }
    let pooled = try hitbench(["compare", base1 + "," + base2, new1 + "," + new2])
    #expect(pooled.status == 1, "\(pooled.stdout)")
    let row = pooled.stdout.split(separator: "\n").first { $0.contains("frameNsMean") }
    #expect(row?.contains("REGRESSION") == true, "\(pooled.stdout)")
    let same = try hitbench(["compare", base1 + "," + base2, base2 + "," + base1])
    #expect(same.status == 0, "\(same.stdout)")
    let missing = try hitbench(["compare", base1 + "," + other, new1])
    #expect(missing.status == 65 && missing.stderr.contains("every pooled file"), "\(missing.stderr)")
    let empty = try hitbench(["compare", base1 + ",", new1])
    #expect(empty.status == 64, "\(empty.stderr)")
  }

  /// Every result carries the 95% interval of each statistic of its frames it reports (not the
  /// max), around the statistic for the means.
  @Test func resultsCarryIntervalsOfTheirStatistics() throws {
    let r = try hitbench([
      "run", "--scene", "app", "--layers", "200", "--strategy", "grid,window-grid", "--queries", "5", "--frames", "40",
      "--warmup", "2", "--format", "json",
    ])
    try #require(r.status == 0, "\(r.stderr)")
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    for result in try #require(doc["results"] as? [[String: Any]]) {
      for (summary, statistic) in [
        ("frameNs", "mean"), ("frameNs", "median"), ("frameNs", "p90"), ("frameNs", "p99"), ("hitTestNs", "mean"),
        ("presentationNs", "mean"), ("updateNs", "mean"), ("queriesNs", "mean"), ("cpuNs", "mean"),
      ] {
        let key = summary + statistic.prefix(1).uppercased() + statistic.dropFirst()
        let low = try #require(result[key + "Low"] as? Double, "\(key)")
        let high = try #require(result[key + "High"] as? Double, "\(key)")
        let value = try #require((result[summary] as? [String: Any])?[statistic] as? Double)
        #expect(low <= high, "\(key): \(low)-\(high)")
        if statistic == "mean" { #expect(low <= value && value <= high, "\(key): \(value) outside \(low)-\(high)") }
      }
      #expect(result["frameNsMaxLow"] == nil)
    }
  }

  /// Values no run can measure are refused (65, naming the field) on either side, where they
  /// used to be compared ("-100% faster", a regression from a negative mean); an empty results
  /// list is refused on either side alike.
  @Test func compareRefusesImpossibleValues() throws {
    let base = try resultsFile("valid.json", [("grid", 1000, 10, 0)])
    defer { try? FileManager.default.removeItem(atPath: base) }
    let text = try String(contentsOfFile: base, encoding: .utf8)
    let cases: [(String, String, String, String)] = [
      ("negative", "\"mean\": 1000.0", "\"mean\": -5", "frameNs.mean"),
      ("zero", "\"mean\": 1000.0", "\"mean\": 0", "frameNs"),
      ("count", "\"count\": 200", "\"count\": -5", "count"),
      ("order", "\"min\": 900.0", "\"min\": 5000", "not in order"),
      ("denormal", "\"mean\": 1000.0", "\"mean\": 5e-320", "subnormal"),
      ("cores", "\"cores\": 2", "\"cores\": \"many\"", "meta.cores"),
      ("seed", "\"seed\": 1", "\"seed\": -1", "meta.seed"),
      ("targets", "\"targets\": []", "\"targets\": [{\"name\": 3}]", "targets[0]"),
      ("targets-kind", "\"targets\": []", "\"targets\": \"all met\"", "targets"),
      ("empty", #""results": [{"#, #""results": [], "x": [{"#, "empty"),
    ]
    for (name, from, to, says) in cases {
      let path = tmp("bad-\(name).json")
      defer { try? FileManager.default.removeItem(atPath: path) }
      let changed = text.replacingOccurrences(of: from, with: to)
      #expect(changed != text, "\(name): the mutation applies")
      try changed.write(toFile: path, atomically: true, encoding: .utf8)
      for (a, b) in [(base, path), (path, base)] {
        let r = try hitbench(["compare", a, b])
        #expect(r.status == 65, "\(name): \(r.status) \(r.stdout.suffix(200)) \(r.stderr)")
        #expect(r.stderr.contains(says) && r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
      }
    }
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
