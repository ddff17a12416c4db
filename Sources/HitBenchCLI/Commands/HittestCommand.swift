import FileIO
import HitTesting
import JSON
import LayerModel
import Presentation
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
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "hittest", summary: summary)
    p.option(
      "--scene", optional: \.scene, valueName: "FILE", help: "the scene file (JSON, see docs/scene-format.md)",
      expected: "a file path"
    ) { $0 }
    p.repeatedOption(
      "--point", \.points, valueName: "X,Y",
      help: "a point in the root layer's superlayer space (repeatable)", expected: "two numbers 'X,Y'",
      parse: ArgumentValues.point)
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
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    guard let path = o.scene else { throw .usage(command: "hittest", message: "missing --scene FILE") }
    guard !o.points.isEmpty else { throw .usage(command: "hittest", message: "missing --point X,Y (at least one)") }
    let model: Layer
    do { model = try SceneFile.read(path: path) } catch { throw .scene(error) }
    let builder = PresentationFrameBuilder(root: model, semantics: o.semantics)
    let animated = o.tree.isAnimated
    builder.build(at: o.time, animated: animated)
    let names = model.subtreeInPreorder.enumerated().map { i, l in l.name ?? "#\(i)" }
    // answers[s][i]: strategy s's answer for point i.
    let answers = o.strategies.map { $0.answers(builder, o.points, animated: animated) }
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
  }

  /// A JSON number, or the string the scene reader accepts for a non-finite one.
  static func jsonNumber(_ v: Double) -> JSONValue { v.isFinite ? .number(v) : .string(formatNumber(v)) }
}
