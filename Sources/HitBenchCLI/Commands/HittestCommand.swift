import FileIO
import HitTesting
import JSON
import LayerModel
@_spi(FaultInjection) import Presentation
import SceneFormat
import Verification

/// `hitbench hittest`: which layer is under each point of a scene, at a time, by a semantics.
enum HittestCommand {
  static let summary = "Hit-test points against a scene file and print the layer under each."

  struct Options {
    var scene: String?
    var points: [Point] = []
    var semantics = HitTestSemantics.calayer
    var format = "text"
    var time = 0.0
    var tree = HitTestTree.presentation
    var strategies: [StrategyKind] = [.treeWalk]
    var replay: [FrameHistory.Run]?
    var windowMilliseconds: Double?
    var verify = false
    var faults = InjectedFaults()
  }

  /// The most frames `--replay` takes (each a presentation build and every point answered).
  static let replayLimit = 1_000_000

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "hittest", summary: summary)
    p.option(
      "--scene", optional: \.scene, valueName: "FILE", help: "the scene file (JSON, see docs/scene-format.md)",
      expected: "a file path"
    ) { $0 }
    p.repeatedOption(
      "--point", \.points, valueName: "X,Y",
      help: "a point in the root layer's superlayer space (repeatable)", expected: "two finite decimal numbers 'X,Y'",
      parse: ArgumentValues.finitePoint)
    CommonOptions.semantics(&p, \.semantics)
    p.option(
      "--format", \.format, valueName: "FORMAT", help: "text (default) or json",
      expected: "text or json"
    ) { ["text", "json"].contains($0) ? $0 : nil }
    CommonOptions.time(&p, \.time)
    CommonOptions.tree(&p, \.tree)
    p.option(
      "--strategy", \.strategies, valueName: "NAME|all", help: "tree-walk (default), another strategy, a list, or all",
      expected: "\(StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")), a comma-separated list, or all",
      parse: StrategyKind.parseList)
    p.option(
      "--replay", optional: \.replay, valueName: "RUNS",
      help:
        "answer after driving each strategy (one instance) through these frames, the last one's answers printed: comma-separated, each a time T or START:FRAMES@FPS (frame i at START + i / FPS; a negative FPS runs backwards); instead of --time",
      expected:
        "comma-separated times T or runs START:FRAMES@FPS (finite, FRAMES >= 1, FPS not 0; at most \(replayLimit) frames)"
    ) { FrameHistory.runs(parsing: $0, limit: replayLimit) }
    p.option(
      "--window", optional: \.windowMilliseconds, valueName: "MS",
      help: "a fixed window for the time-aware strategies, in ms (default: chosen by cost)",
      expected: "a number of milliseconds from 1 to 4000", parse: ArgumentValues.number(in: 1...4000))
    p.flag(
      "--verify", \.verify,
      help:
        "compare every strategy's answers with tree-walk's (within the oracle's tolerance); exit 1 on a disagreement")
    p.option(
      "--inject-shrink", \.faults.shrinkHitRegions, valueName: "D",
      help:
        "self-test: the strategies answer with every hit region shrunk by D points (tree-walk too, unless --verify)",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.flag(
      "--inject-stale-windows", \.faults.staleWindows,
      help: "self-test: the time-aware strategies' windows built ahead bound the window before theirs")
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let given = try parser.parse(args, into: &o)
    if o.replay != nil && given.given.contains("--time") {
      throw .usage(command: "hittest", message: "--replay and --time both give the time: use one")
    }
    guard let path = o.scene else { throw .usage(command: "hittest", message: "missing --scene FILE") }
    guard !o.points.isEmpty else { throw .usage(command: "hittest", message: "missing --point X,Y (at least one)") }
    let model: Layer
    do { model = try SceneFile.read(path: path) } catch { throw .scene(error) }
    let animated = o.tree.isAnimated
    let names = model.subtreeInPreorder.enumerated().map { i, l in l.name ?? "#\(i)" }
    // answers[s][i]: strategy s's answer for point i.
    let answers: [[LayerID?]]
    var time = o.time
    if let runs = o.replay {
      let history = FrameHistory(runs: runs, windowMilliseconds: o.windowMilliseconds)
      time = history.times.last ?? o.time
      answers = o.strategies.map {
        Verifier.replay(
          model, history: history, semantics: o.semantics, tree: o.tree, strategy: $0, points: o.points,
          faults: o.faults)
      }
    } else {
      let builder = PresentationFrameBuilder(root: model, semantics: o.semantics)
      builder.scene._faults = o.faults
      builder.build(at: o.time, animated: animated)
      let options = StrategyOptions(windowSeconds: o.windowMilliseconds.map { $0 / 1000 })
      answers = o.strategies.map { $0.answers(builder, o.points, animated: animated, options: options) }
    }
    if o.format == "json" {
      var results: [JSONValue] = []
      for (i, p) in o.points.enumerated() {
        for (k, kind) in o.strategies.enumerated() {
          let point = JSONValue.array([jsonNumber(p.x), jsonNumber(p.y)])
          let hit: JSONValue = answers[k][i].map { .string(names[Int($0.rawValue)]) } ?? .null
          results.append(.object([("point", point), ("strategy", .string(kind.rawValue)), ("hit", hit)]))
        }
      }
      Output.out(JSONValue.object([("results", .array(results))]).serialized(indent: 2) + "\n")
    } else {
      for (i, p) in o.points.enumerated() {
        for (k, kind) in o.strategies.enumerated() {
          let label = o.strategies.count > 1 ? " [\(kind.rawValue)]" : ""
          let hit = answers[k][i].map { Output.escaped(names[Int($0.rawValue)]) } ?? "nil"
          Output.out("\(formatNumber(p.x)),\(formatNumber(p.y))\(label) -> \(hit)\n")
        }
      }
    }
    guard o.verify else { return }
    // The reference: tree-walk on a frame built afresh at the last time, no fault injected.
    let reference = PresentationFrameBuilder(root: model, semantics: o.semantics)
    var walk = TreeWalk()
    walk.update(with: reference.build(at: time, animated: animated))
    let oracle = ReferenceOracle(model: model, time: time, tree: o.tree, semantics: o.semantics)
    var wrong = 0
    for (k, kind) in o.strategies.enumerated() {
      for (i, p) in o.points.enumerated() {
        let expected = walk.hitTest(p)
        // tree-walk itself is judged by the oracle.
        let agrees =
          kind == .treeWalk
          ? oracle.accepts(answers[k][i], at: p)
          : !AnswerComparison.compare(answers[k][i], expected, at: p, oracle: oracle).isDisagreement
        guard !agrees else { continue }
        wrong += 1
        let name = { (id: LayerID?) in id.map { Output.escaped(names[Int($0.rawValue)]) } ?? "nil" }
        Output.err(
          "hittest: \(kind.rawValue) at \(formatNumber(p.x)),\(formatNumber(p.y)), t=\(time): got \(name(answers[k][i])), tree-walk \(name(expected))\n"
        )
      }
    }
    if wrong > 0 { throw .failed("\(wrong) answers disagree with tree-walk (--verify)") }
  }

  /// A JSON number, or the string the scene reader accepts for a non-finite one.
  static func jsonNumber(_ v: Double) -> JSONValue { v.isFinite ? .number(v) : .string(formatNumber(v)) }
}
