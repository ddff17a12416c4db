import Foundation
import Testing

/// `hittest --replay`: a strategy driven through frames before it answers, so what it keeps
/// across frames is what answers; and `run --verify`'s reproducers use it.
@Suite struct ReplayCommandTests {
  /// The two-layer scene of the report on iteration ends: a 40x40 layer moved from (0, 0) to
  /// (300, 500) over 0.3 s, repeating forever.
  static let scene = """
    {"hitbench": 1, "root": {"name": "root", "bounds": [0, 0, 400, 600], "position": [200, 300],
     "sublayers": [{"name": "box", "bounds": [0, 0, 40, 40], "position": [0, 0],
       "animations": {"m": {"type": "basic", "keyPath": "position", "fromValue": [0, 0],
         "toValue": [300, 500], "duration": 0.3, "repeatCount": "infinity"}}, "sublayers": []}]}}
    """

  /// A fault only later frames show (windows built ahead bound the window before theirs):
  /// `run --verify` finds it, and the command it prints replays the strategy's frames on the
  /// minimal scene and fails (exit 1); the same point at the same time on a fresh instance
  /// agrees, so a single-time reproducer could not have shown it.
  @Test func runVerifyPrintsAReplayThatFails() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.scene.write(toFile: dir + "/S.json", atomically: true, encoding: .utf8)
    let r = try hitbench([
      "run", "--scene", dir + "/S.json", "--strategy", "window-grid", "--frames", "30", "--warmup", "1",
      "--queries", "200", "--verify", "--inject-stale-windows", "--window", "50", "--failures", dir + "/f",
    ])
    #expect(r.status == 1, "\(r.stderr)")
    let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("reproduce: hitbench hittest") })
    let args = line.split(separator: "reproduce: hitbench ")[1].split(separator: " ").map(String.init)
    #expect(args.contains("--replay") && args.contains("--inject-stale-windows") && args.contains("--verify"))
    let replayed = try hitbench(args)
    #expect(replayed.status == 1, "the reproducer must fail: \(replayed.stdout) \(replayed.stderr)")
    #expect(replayed.stderr.contains("disagree"))
    // One time, a fresh instance: the last replayed time in place of the replay.
    let i = try #require(args.firstIndex(of: "--replay"))
    let spec = args[i + 1].split(separator: ":")
    let frames = try #require(Int(spec[1].split(separator: "@")[0]))
    var single = args
    single[i] = "--time"
    single[i + 1] = "\(Double(frames - 1) / 120)"
    let once = try hitbench(single)
    #expect(once.status == 0, "a fresh instance at one time agrees: \(once.stderr)")
  }

  @Test func malformedReplaysAreUsageErrors() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.scene.write(toFile: dir + "/S.json", atomically: true, encoding: .utf8)
    let base = ["hittest", "--scene", dir + "/S.json", "--point", "1,1"]
    for extra in [
      ["--replay", "0:0@60"], ["--replay", "0:3@0"], ["--replay", "a"], ["--replay", "0:3@60,"],
      ["--replay", "0:3@60", "--time", "1"], ["--replay", "0:2000000@60"], ["--window", "0.5"],
    ] {
      let r = try hitbench(base + extra)
      #expect(r.status == 64, "\(extra): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
    }
    let ok = try hitbench(base + ["--replay", "0:36@120,2.5", "--window", "20", "--strategy", "all", "--verify"])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stdout.split(separator: "\n").count == 11)
  }
}
