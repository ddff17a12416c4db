import Foundation
import Testing

/// One rule for each kind of option, for every command (ArgumentParser, stated under each
/// command's options in `--help`): no value silently replaces another, numbers are decimal,
/// lists have no empty item, query points are finite, one way to give a time, and a picture
/// whose size is unbounded is refused before it is drawn.
@Suite struct OptionRulesTests {
  @Test func eachRuleIsAUsageError() throws {
    let scene = "data/scenes/seed-move.json"
    let cases: [([String], String)] = [
      // Given twice: the last used to win silently.
      (["run", "--scene", "app", "--layers", "100", "--pacing", "back-to-back", "--pacing", "real-time"], "--pacing"),
      (["run", "--scene", "app", "--layers", "100", "--strategy", "grid", "--strategy", "bvh-sah"], "--strategy"),
      (["run", "--scene", "app", "--layers", "100", "--output", "/tmp/a.json", "--output", "/tmp/b.json"], "--output"),
      // Hexadecimal used to read as 16.
      (["run", "--scene", "app", "--layers", "100", "--budget", "0x10"], "--budget"),
      (["hittest", "--scene", scene, "--point", "0x10,1"], "--point"),
      // Empty list items: `--queries 1,,2` used to be accepted while `--columns ,` was refused.
      (["run", "--scene", "app", "--layers", "100", "--queries", "1,,2"], "--queries"),
      (["run", "--scene", "app", "--layers", "100", "--columns", ","], "--columns"),
      (["run", "--scene", "app", "--layers", "100", "--strategy", "grid,"], "--strategy"),
      // A thread count twice would run the same builder twice under one name.
      (["run", "--scene", "app", "--layers", "100", "--threads", "2,2"], "--threads"),
      (["run", "--scene", "app", "--layers", "100", "--threads", "1,0"], "--threads"),
      (["profile", "--scene", "app", "--layers", "100", "--strategy", "grid", "--threads", "1,2"], "--threads"),
      // A point at infinity used to be counted and not drawn.
      (["render", "--scene", scene, "--point", "inf,5", "--output", "/tmp/hitbench-never.svg"], "--point"),
      (["hittest", "--scene", scene, "--point", "nan,5"], "--point"),
      // --time beside --times used to be ignored.
      (
        ["render", "--scene", scene, "--time", "1", "--times", "0:1:0.5", "--output", "/tmp/hitbench-never.svg"],
        "--time"
      ),
      // 1000 frames of 100,000 points: 1e8 points, several GB before it was killed.
      (["render", "--times", "0:999:1", "--queries", "100000", "--output", "/tmp/hitbench-never.html"], "frames"),
      (["render", "--layers", "20000", "--times", "0:999:1", "--output", "/tmp/hitbench-never.html"], "frames"),
    ]
    for (args, says) in cases {
      let r = try hitbench(args)
      #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains(says) && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: "/tmp/hitbench-never.svg"))
    #expect(!FileManager.default.fileExists(atPath: "/tmp/hitbench-never.html"))
    // --point repeats; a label shows a far point as it is (it read "(1000000000, 1)").
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let ok = try hitbench([
      "render", "--scene", scene, "--point", "1e300,1", "--point", "5,5", "--output", dir + "/p.svg",
    ])
    #expect(ok.status == 0, "\(ok.stderr)")
    let svg = try String(contentsOfFile: dir + "/p.svg", encoding: .utf8)
    #expect(svg.contains("(1e+300, 1)") && !svg.contains("(1000000000, 1)"))
    let help = try hitbench(["help", "run"])
    #expect(help.stdout.contains("Each option at most once"), "\(help.stdout.suffix(300))")
  }
}
