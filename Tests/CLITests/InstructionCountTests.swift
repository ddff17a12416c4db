import Foundation
import Testing

/// Instruction counts under Callgrind (`run --instructions`): a counted run collects only the
/// asked phase of its measured frames, a loop of known length (two instructions an iteration, a
/// million iterations) is counted within 1%, every thread's share of a phase is counted, and
/// two runs agree. Skipped, visibly, without Valgrind or the release binary.
@Suite struct InstructionCountTests {
  static let valgrind: String? = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
    .map { "\($0)/valgrind" }.first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    .enabled(if: valgrind != nil, "valgrind is not installed (apt install valgrind)"),
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func aKnownLoopAndEachStrategyAreCounted() throws {
    let dir = NSTemporaryDirectory() + "hitbench-callgrind-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.valgrind!)
    p.arguments = [
      "-q", "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=\(dir)/cg.%p", releaseHitbench!.path,
      "run", "--scene", "app", "--layers", "100", "--strategy", "grid,window-grid", "--queries", "5", "--frames", "2",
      "--warmup", "1", "--format", "csv",
    ]
    p.environment = ProcessInfo.processInfo.environment.merging(["HITBENCH_COUNTED_PHASE": "queries"]) { $1 }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    // Each dump: its label and its total.
    var dumps: [String: Int] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
      let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
      var label: String?
      var total: Int?
      for line in text.split(separator: "\n") {
        if line.hasPrefix("desc: Trigger: Client Request: ") { label = String(line.dropFirst(31)) }
        if line.hasPrefix("totals: ") { total = Int(line.dropFirst(8).split(separator: " ")[0]) }
      }
      if let label, let total { dumps[label] = total }
    }
    let loop = try #require(dumps["hitbench calibration iterations=1000000"], "\(dumps)")
    #expect(abs(Double(loop) / 2_000_000 - 1) < 0.01, "a 2,000,000-instruction loop counted \(loop)")
    // grid builds frames on the machine's cores; window-grid reads the scene (one thread).
    let cores = ProcessInfo.processInfo.activeProcessorCount
    for (strategy, threads) in [("grid", cores), ("window-grid", 1)] {
      let counted = dumps[
        "hitbench configuration=0 strategy=\(strategy) threads=\(threads) queries=5 frames=2 phase=queries jobs=0"]
      #expect((counted ?? 0) > 0, "\(strategy): \(dumps)")
    }
  }

  /// One `run --instructions` of grid and window-grid (a 20 ms window, so that background
  /// builds fall in the measured frames) on `threads` build threads (a list runs grid on each):
  /// each result's counts, by strategy and threads ("grid 2").
  static func counted(threads: String) throws -> [String: [String: Double]] {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let r = try hitbenchRelease([
      "run", "--scene", "particles", "--layers", "5000", "--strategy", "grid,window-grid", "--queries", "10",
      "--frames", "12", "--warmup", "2", "--window", "20", "--threads", threads, "--instructions", "--format",
      "json", "--output", dir + "/r.json",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json")))
    var out: [String: [String: Double]] = [:]
    for result in ((doc as? [String: Any])?["results"] as? [[String: Any]]) ?? [] {
      let key = "\(result["strategy"] as? String ?? "") \((result["threads"] as? Double).map { Int($0) } ?? 0)"
      out[key] = result["instructions"] as? [String: Double]
    }
    return out
  }

  @Test(
    .enabled(if: valgrind != nil, "valgrind is not installed (apt install valgrind)"),
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func everyThreadsShareIsCountedAndRunsAgree() throws {
    let both = try Self.counted(threads: "1,2")
    let again = try Self.counted(threads: "1,2")
    let grid = try #require(both["grid 2"])
    let windowGrid = try #require(both["window-grid 1"])
    // 5,000 rows split over two threads: the worker's half must be counted as well (Callgrind's
    // collection is per thread), so the build costs about what it does on one thread; each
    // thread count's frames are a count of their own.
    let buildOne = try #require(both["grid 1"]?["buildPerFrame"])
    let buildTwo = try #require(grid["buildPerFrame"])
    #expect(buildOne > 0 && abs(buildTwo / buildOne - 1) < 0.02, "build on 1 thread \(buildOne), on 2 \(buildTwo)")
    // Background window builds are a phase of their own, and only a time-aware strategy has them.
    #expect((windowGrid["backgroundPerFrame"] ?? 0) > 0, "\(windowGrid)")
    #expect(grid["backgroundPerFrame"] == 0 && (grid["perQuery"] ?? 0) > 0, "\(grid)")
    // A candidate's own work (the candidates pass: a batch with every candidate evaluated
    // afresh, less its index work alone) is counted only for a strategy that measures it, and
    // is less than a query's whole work per candidate (index, search and candidates).
    let batch = try #require(windowGrid["candidateBatch"])
    let index = try #require(windowGrid["candidateIndex"])
    let perCandidate = try #require(windowGrid["perCandidate"])
    let candidates = try #require(windowGrid["candidatesCounted"])
    #expect(batch > index && index > 0 && candidates > 0, "\(windowGrid)")
    #expect(abs(perCandidate - (batch - index) / candidates) <= 1e-9 * perCandidate, "\(windowGrid)")
    let perQuery = try #require(windowGrid["perQuery"])
    let candidatesPerQuery = try #require(windowGrid["candidatesPerQuery"])
    #expect(perCandidate < perQuery / candidatesPerQuery, "\(windowGrid)")
    #expect(grid["perCandidate"] == 0 && grid["candidatesCounted"] == 0, "\(grid)")
    // The same binary and command count the same work.
    for strategy in ["grid 1", "grid 2", "window-grid 1"] {
      // A background build's cost averages the windows posted in the measured frames, which
      // follow the host's pace: within the 2% compare allows it.
      for (key, within) in [("framePerFrame", 0.005), ("perBackgroundBuild", 0.02), ("perCandidate", 0.005)] {
        let a = try #require(both[strategy]?[key])
        let b = try #require(again[strategy]?[key])
        #expect(abs(a - b) <= within * max(a, b), "\(strategy) \(key): \(a) then \(b)")
      }
    }
  }

  /// Without Valgrind the run stops before its frames, with exit 69 and one line.
  @Test(
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func withoutValgrindTheRunStopsWith69() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let r = try hitbenchRelease(
      ["run", "--scene", "app", "--layers", "100", "--strategy", "grid", "--instructions", "--output", dir + "/r.txt"],
      environment: ["PATH": dir])
    #expect(r.status == 69, "\(r.status) \(r.stderr)")
    #expect(r.stderr.contains("Valgrind") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/r.txt"))
  }
}
