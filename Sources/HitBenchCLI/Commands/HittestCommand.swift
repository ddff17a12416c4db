import LayerModel

/// `hitbench hittest`: which layer is under each point of a scene, at a time, by a semantics.
enum HittestCommand {
  static let summary = "Hit-test points against a scene file and print the layer under each."

  struct Options {
    var scene: String?
    var points: [Point] = []
    var semantics = HitTestSemantics.calayer
    var format = "text"
    var time = 0.0
    var tree = "presentation"
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "hittest", summary: summary)
    p.option(
      "--scene", \.scene, valueName: "FILE", help: "the scene file (JSON, see docs/scene-format.md)",
      expected: "a file path"
    ) { $0 }
    p.repeatedOption(
      "--point", \.points, valueName: "X,Y",
      help: "a point in the root layer's superlayer space (repeatable)", expected: "two numbers 'X,Y'",
      parse: ArgumentValues.point)
    p.option(
      "--semantics", \.semantics, valueName: "NAME", help: "calayer (default), calayer-seed or uiview",
      expected: "one of calayer, calayer-seed, uiview"
    ) { HitTestSemantics(named: $0) }
    p.option(
      "--format", \.format, valueName: "FORMAT", help: "text (default) or json",
      expected: "text or json"
    ) { ["text", "json"].contains($0) ? $0 : nil }
    p.option(
      "--time", \.time, valueName: "T", help: "clock time in seconds (default 0)",
      expected: "a finite number of seconds", parse: ArgumentValues.finite)
    p.option(
      "--tree", \.tree, valueName: "TREE", help: "presentation (default) or model",
      expected: "presentation or model"
    ) { ["presentation", "model"].contains($0) ? $0 : nil }
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    guard let path = o.scene else { throw .usage(command: "hittest", message: "missing --scene FILE") }
    guard !o.points.isEmpty else { throw .usage(command: "hittest", message: "missing --point X,Y (at least one)") }
    let model: Layer
    do { model = try SceneFile.read(path: path) } catch { throw .scene(error) }
    let tree = o.tree == "model" ? model : model.presentation(at: o.time)
    var rows: [(Point, Layer?)] = []
    for p in o.points { rows.append((p, tree.hitTest(p, semantics: o.semantics))) }
    let strategy = "tree-walk"
    if o.format == "json" {
      var results: [JSONValue] = []
      for (p, hit) in rows {
        let point = JSONValue.array([jsonNumber(p.x), jsonNumber(p.y)])
        let name: JSONValue = hit.map { .string(displayName($0)) } ?? .null
        results.append(.object([("point", point), ("strategy", .string(strategy)), ("hit", name)]))
      }
      Output.out(JSONValue.object([("results", .array(results))]).serialized(indent: 2) + "\n")
    } else {
      for (p, hit) in rows {
        Output.out("\(formatNumber(p.x)),\(formatNumber(p.y)) -> \(hit.map(displayName) ?? "nil")\n")
      }
    }
  }

  /// A JSON number, or the string the scene reader accepts for a non-finite one.
  static func jsonNumber(_ v: Double) -> JSONValue { v.isFinite ? .number(v) : .string(formatNumber(v)) }

  /// A layer's name, or its preorder index for an unnamed layer.
  static func displayName(_ layer: Layer) -> String {
    let model = layer.modelLayer ?? layer
    if let name = model.name { return name }
    let all = model.rootLayer.subtreeInPreorder
    return "#\(all.firstIndex { $0 === model } ?? -1)"
  }
}
