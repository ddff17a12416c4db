import Foundation
import Testing

/// `run --trace`: the timeline's slices agree with the run's phase times, no thread's work
/// overlaps itself, every strategy and helper is named, and tracing allocates nothing in a
/// measured frame.
@Suite struct TraceTests {
  struct Slice {
    var name: String
    var pid: Int
    var tid: Int
    var ts: Double
    var dur: Double
    var measured: Bool
  }

  @Test(
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func slicesMatchThePhaseTimes() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A 20 ms window: window-grid builds in the background within the run.
    let r = try hitbenchRelease([
      "run", "--scene", "particles", "--layers", "6000", "--strategy", "grid,window-grid,tree-walk", "--queries",
      "20", "--frames", "30", "--warmup", "3", "--window", "20", "--trace", dir + "/t.json", "--format", "json",
      "--output", dir + "/r.json",
    ])
    try #require(r.status == 0, "\(r.stderr)")
    let trace = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/t.json"))) as? [String: Any])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any])
    let events = try #require(trace["traceEvents"] as? [[String: Any]])
    var processes: [Int: String] = [:]
    var threads: [Int: String] = [:]
    var slices: [Slice] = []
    for e in events {
      let ph = e["ph"] as? String
      let args = e["args"] as? [String: Any]
      if ph == "M", e["name"] as? String == "process_name" {
        processes[e["pid"] as! Int] = args?["name"] as? String
      } else if ph == "M" {
        threads[e["tid"] as! Int] = args?["name"] as? String
      } else if ph == "X" {
        slices.append(
          Slice(
            name: e["name"] as! String, pid: e["pid"] as! Int, tid: e["tid"] as! Int, ts: e["ts"] as! Double,
            dur: e["dur"] as! Double, measured: args?["measured"] as? Bool ?? true))
      }
    }
    let results = try #require(report["results"] as? [[String: Any]])
    for result in results {
      let strategy = try #require(result["strategy"] as? String)
      let pid = try #require(processes.first { $0.value.hasPrefix(strategy + " Q=20") }?.key, "\(processes)")
      let mine = slices.filter { $0.pid == pid && $0.measured }
      // One frame slice per measured frame; each phase's slices sum to its mean times the frames.
      let frames = try #require(result["frames"] as? Int)
      #expect(mine.filter { $0.name == "frame" }.count == frames, "\(strategy)")
      for (name, key) in [("build", "presentationNs"), ("update", "updateNs"), ("queries", "queriesNs")] {
        let mean = try #require((result[key] as? [String: Any])?["mean"] as? Double)
        let traced = mine.filter { $0.name == name }.reduce(0) { $0 + $1.dur } * 1000
        #expect(abs(traced - mean * Double(frames)) <= 1 + 1e-9 * traced, "\(strategy) \(name): \(traced) ns")
      }
    }
    // On each thread, the outer slices follow one another without overlap, and a frame's
    // phases lie within it.
    let outer: Set = ["frame", "build job", "window build"]
    for key in Set(slices.map { "\($0.tid)" }) {
      let own = slices.filter { "\($0.tid)" == key && outer.contains($0.name) }.sorted { $0.ts < $1.ts }
      for (a, b) in zip(own, own.dropFirst()) {
        #expect(a.ts + a.dur <= b.ts + 0.002, "thread \(key): \(a.name) at \(a.ts) overlaps \(b.name) at \(b.ts)")
      }
    }
    let frames = slices.filter { $0.name == "frame" }
    for phase in slices where ["build", "update", "queries"].contains(phase.name) {
      #expect(
        frames.contains {
          $0.tid == phase.tid && $0.ts <= phase.ts + 0.002 && phase.ts + phase.dur <= $0.ts + $0.dur + 0.002
        },
        "\(phase.name) at \(phase.ts) lies in no frame")
    }
    // Helpers appear on threads of their own, named.
    let windowBuilds = slices.filter { $0.name == "window build" }
    #expect(!windowBuilds.isEmpty && windowBuilds.allSatisfy { threads[$0.tid] == "background builder" }, "\(threads)")
    #expect(slices.filter { $0.name == "build job" }.allSatisfy { threads[$0.tid]?.hasPrefix("build worker") == true })
    // Recording allocates nothing in a measured frame.
    for result in results {
      #expect(result["allocationsPerFrame"] as? Double == 0, "\(result["strategy"] ?? "")")
    }
  }

  /// A trace that cannot be written stops the run before its first frame (73), and nothing is
  /// left behind.
  @Test func anUnwritableTraceStopsTheRunFirst() throws {
    let r = try hitbench([
      "run", "--scene", "app", "--layers", "50", "--strategy", "grid", "--frames", "2", "--trace",
      "/nonexistent-dir/t.json",
    ])
    #expect(r.status == 73 && r.stderr.split(separator: "\n").count == 1, "\(r.status) \(r.stderr)")
    #expect(r.stdout.isEmpty, "\(r.stdout)")
  }
}
