import Foundation
import Testing

@testable import HitBenchCLI

@Suite struct HittestEndToEndTests {
  @Test func seedLayersAnswersBlueWhiteNil() throws {
    let r = try hitbench([
      "hittest", "--scene", "data/scenes/seed-layers.json", "--point", "160,284", "--point", "70,200",
      "--point", "-5,-12.5",
    ])
    #expect(r.status == 0)
    #expect(r.stdout == "160,284 -> blue\n70,200 -> white\n-5,-12.5 -> nil\n")
    #expect(r.stderr.isEmpty)
  }

  @Test func seedMoveFollowsThePresentationTree() throws {
    func hit(_ t: String, _ tree: String) throws -> String {
      try hitbench([
        "hittest", "--scene", "data/scenes/seed-move.json", "--time", t, "--tree", tree, "--point", "150,50",
      ])
      .stdout
    }
    #expect(try hit("1", "presentation") == "150,50 -> orange\n")
    #expect(try hit("1", "model") == "150,50 -> view\n")
    #expect(try hit("3", "presentation") == "150,50 -> orange\n")
    #expect(try hit("0", "presentation") == "150,50 -> view\n")
  }

  @Test func jsonOutputShape() throws {
    let r = try hitbench([
      "hittest", "--scene=data/scenes/seed-layers.json", "--point=-5,-12.5", "--point", "160,284", "--format", "json",
    ])
    #expect(r.status == 0)
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let results = try #require(obj["results"] as? [[String: Any]])
    #expect(results.count == 2)
    #expect((results[0]["point"] as? [Double]) == [-5, -12.5])
    #expect(results[0]["hit"] is NSNull)
    #expect(results[1]["hit"] as? String == "blue")
    #expect(results[1]["strategy"] as? String == "tree-walk")
  }

  @Test func semanticsPresetsChangeTheAnswer() throws {
    let scene = "/tmp/hitbench-cli-z-\(getpid()).json"
    try """
    {"hitbench": 1, "root": {"name": "root", "bounds": [0,0,100,100], "position": [50,50], "sublayers": [
      {"name": "low", "bounds": [0,0,50,50], "position": [25,25], "zPosition": 1},
      {"name": "high", "bounds": [0,0,50,50], "position": [25,25]}]}}
    """.write(toFile: scene, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: scene) }
    func hit(_ s: String) throws -> String {
      try hitbench(["hittest", "--scene", scene, "--point", "10,10", "--semantics", s]).stdout
    }
    #expect(try hit("calayer") == "10,10 -> low\n")
    #expect(try hit("calayer-seed") == "10,10 -> high\n")
    #expect(try hit("uiview") == "10,10 -> high\n")
  }

  @Test func usageErrorsExit64NamingTheFlag() throws {
    let cases: [([String], String)] = [
      (["hittest", "--scene", "data/scenes/seed-layers.json", "--pont", "1,2"], "--pont"),
      (["hittest", "--scene", "data/scenes/seed-layers.json", "--point"], "missing value for --point"),
      (["hittest", "--scene", "data/scenes/seed-layers.json", "--point", "1,x"], "--point"),
      (["hittest", "--scene", "data/scenes/seed-layers.json", "--point", "1,2", "--time", "soon"], "--time"),
      (
        ["hittest", "--scene", "data/scenes/seed-layers.json", "--point", "1,2", "--semantics", "appkit"], "--semantics"
      ),
      (["hittest", "--scene", "data/scenes/seed-layers.json", "--point", "1,2", "--format", "xml"], "--format"),
      (["hittest", "--scene", "data/scenes/seed-layers.json", "--point", "1,2", "--tree", "render"], "--tree"),
      (["hittest", "--point", "1,2"], "--scene"),
      (["hittest", "--scene", "data/scenes/seed-layers.json"], "--point"),
      (["frobnicate"], "frobnicate"),
      (["help", "frobnicate"], "frobnicate"),
      ([], "usage"),
    ]
    for (args, needle) in cases {
      let r = try hitbench(args)
      #expect(r.status == 64, "\(args)")
      #expect(r.stderr.contains(needle), "\(args): \(r.stderr)")
      #expect(r.stdout.isEmpty, "\(args)")
    }
  }

  @Test func badScenesExit65NamingTheFileAndPath() throws {
    let scene = "/tmp/hitbench-cli-bad-\(getpid()).json"
    try
      #"{"hitbench": 1, "root": {"bounds": [0,0,1,1], "position": [0,0], "sublayers": [{"bounds": "wide", "position": [0,0]}]}}"#
      .write(toFile: scene, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: scene) }
    let r = try hitbench(["hittest", "--scene", scene, "--point", "1,2"])
    #expect(r.status == 65)
    #expect(r.stderr.contains(scene) && r.stderr.contains("root.sublayers[0].bounds") && r.stderr.contains("expected"))
    let missing = try hitbench(["hittest", "--scene", "/nonexistent.json", "--point", "1,2"])
    #expect(missing.status == 65 && missing.stderr.contains("/nonexistent.json"))
  }

  @Test func helpExitsZero() throws {
    let top = try hitbench(["--help"])
    #expect(top.status == 0 && top.stdout.contains("hittest"))
    let sub = try hitbench(["help", "hittest"])
    #expect(sub.status == 0 && sub.stdout.contains("--point X,Y") && sub.stdout.contains("--semantics"))
    let flag = try hitbench(["hittest", "--help"])
    #expect(flag.status == 0 && flag.stdout == sub.stdout)
  }
}

@Suite struct ArgumentParserTests {
  struct Options {
    var n = 1
    var xs: [Double] = []
    var on = false
  }

  private var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "t", summary: "test")
    p.option(
      "--n", \.n, valueName: "N", help: "", expected: "a positive integer",
      parse: ArgumentValues.integer(in: 1...Int.max))
    p.repeatedOption("--x", \.xs, valueName: "X", help: "", expected: "a number", parse: ArgumentValues.number)
    p.flag("--on", \.on, help: "")
    return p
  }

  @Test func formsAndNegativeValues() throws {
    var o = Options()
    _ = try parser.parse(["--n", "3", "--x=-2.5", "--x", "-1e3", "--on"], into: &o)
    #expect(o.n == 3 && o.xs == [-2.5, -1000] && o.on)
  }

  @Test func errorsNameTheFlag() {
    for args in [["--n", "0"], ["--n"], ["--m", "1"], ["--on=yes"], ["stray"]] {
      var o = Options()
      #expect(throws: CommandError.self) { _ = try parser.parse(args, into: &o) }
      do {
        _ = try parser.parse(args, into: &o)
      } catch {
        #expect(error.exitCode == 64)
        #expect(error.description.contains(args[0].split(separator: "=")[0]), "\(error)")
      }
    }
  }
}
