import FileIO
import HitTesting
import JSON
import LayerModel
import Presentation
import SceneFormat
import Scenes
import Verification

/// `hitbench verify`: every strategy against `tree-walk` on random scenes under every preset.
enum VerifyCommand {
  static let summary = "Compare every strategy with tree-walk on random hostile scenes; exit 1 on a disagreement."

  struct Options {
    var scenes = 200
    var points = 1000
    var seed: UInt64 = 1
    var strategies: [StrategyKind] = []
    var semantics: [HitTestSemantics] = []
    var layers: ClosedRange<Int> = 1...60
    var output = "verify-failures"
    var shrink = 0.0
    var motionShrink = 0.0
    var animated = 0.3
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "verify", summary: summary)
    p.option(
      "--scenes", \.scenes, valueName: "N", help: "random scenes (default 200)",
      expected: "an integer from 1 to 10000000", parse: ArgumentValues.integer(in: 1...10_000_000))
    p.option(
      "--points", \.points, valueName: "M", help: "points per scene and preset (default 1000)",
      expected: "an integer from 1 to 1000000", parse: ArgumentValues.integer(in: 1...1_000_000))
    p.option(
      "--seed", \.seed, valueName: "S", help: "seed (default 1)", expected: "an unsigned integer",
      parse: ArgumentValues.uint64)
    p.option(
      "--strategy", \.strategies, valueName: "A,B|all",
      help: "strategies to check (default all but tree-walk)",
      expected: "a comma-separated list of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")) or all",
      parse: StrategyKind.parseList)
    p.option(
      "--semantics", \.semantics, valueName: "P", help: "one preset (default all three)",
      expected: "calayer, calayer-seed or uiview"
    ) { HitTestSemantics(named: $0).map { [$0] } }
    p.option(
      "--layers", \.layers, valueName: "MIN-MAX", help: "layers per scene (default 1-60)",
      expected: "a range like 1-60 with 1 <= MIN <= MAX <= 100000", parse: ArgumentValues.range)
    p.option(
      "--output", \.output, valueName: "DIR", help: "where disagreeing scenes are written (default verify-failures)",
      expected: "a directory"
    ) { $0.isEmpty ? nil : $0 }
    p.option(
      "--animated", \.animated, valueName: "F", help: "fraction of each scene's layers animated (default 0.3)",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.option(
      "--inject-motion-shrink", \.motionShrink, valueName: "D",
      help: "self-test: time-aware strategies use motion bounds shrunk by D points; verify must fail",
      expected: "a number from 0 to 1000", parse: ArgumentValues.number(in: 0...1000))
    p.option(
      "--inject-shrink", \.shrink, valueName: "D",
      help: "self-test: strategies answer with every hit region shrunk by D points; verify must fail",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    var v = Verifier()
    v.scenes = o.scenes
    v.points = o.points
    v.seed = o.seed
    if !o.strategies.isEmpty { v.strategies = o.strategies.filter { $0 != .treeWalk } }
    if !o.semantics.isEmpty { v.semantics = o.semantics }
    v.generator = RandomScene(layerCount: o.layers, hostile: true, animatedFraction: o.animated)
    v.shrinkHitRegions = o.shrink
    v.shrinkMotionBounds = o.motionShrink
    let progress = Progress(total: o.scenes, label: "verify")
    let report = v.run { progress.update($0) }
    progress.finish()
    Output.out("strategy      preset        comparisons  tolerated  disagreements\n")
    for key in report.tallies.keys.sorted() {
      let t = report.tallies[key]!
      let parts = key.split(separator: " ")
      Output.out(
        String(parts[0]).padding(to: 14) + String(parts[1]).padding(to: 14)
          + String(t.comparisons).leftPadded(11) + String(t.tolerated).leftPadded(11)
          + String(t.disagreements).leftPadded(15) + "\n")
    }
    let share = formatNumber((report.toleratedShare * 1e5).rounded() / 1e3)
    Output.out(
      "\(report.comparisons) comparisons, \(report.tolerated) tolerated (\(share)%: within the measured rounding of an edge; limit \(formatNumber(AnswerComparison.toleratedShareLimit * 100))%), \(report.disagreementCount) disagreements\n"
    )
    if report.disagreementCount == 0 && !report.passed {
      throw .failed("the tolerated share \(share)% exceeds the limit")
    }
    guard report.disagreementCount > 0 else { return }
    do { try FileIO.makeDirectories(o.output) } catch { throw .file(error) }
    for (i, d) in report.disagreements.enumerated() {
      let minimal = Verifier.minimize(d)
      let path = "\(o.output)/disagreement-\(i + 1).json"
      let all = d.model.subtreeInPreorder
      let name = { (id: LayerID?) in id.map { all[Int($0.rawValue)].name ?? "#\($0.rawValue)" } ?? "nil" }
      Output.out(
        "\(d.strategy.rawValue) under \(d.semantics.name), scene seed \(d.sceneSeed), t=\(d.time), point \(formatNumber(d.point.x)),\(formatNumber(d.point.y)): got \(name(d.answer)), tree-walk \(name(d.expected)); minimal scene: \(path) (\(minimal.subtreeInPreorder.count) layers)\n"
      )
      do { try SceneFile.write(minimal, to: path) } catch { throw .file(error) }
      Output.out(
        "  reproduce: hitbench hittest --scene \(path) --time \(d.time) --semantics \(d.semantics.name) --strategy all --point \(d.point.x),\(d.point.y)\n"
      )
    }
    throw .failed("\(report.disagreementCount) disagreements")
  }
}

extension String {
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
