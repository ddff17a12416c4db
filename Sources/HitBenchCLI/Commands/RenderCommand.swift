import BenchKit
import FileIO
import HitTesting
import LayerModel
import Presentation
import Rendering

/// `hitbench render`: a picture (SVG) of one frame, its answers and a strategy's index.
enum RenderCommand {
  static let summary = "Draw a frame at time T, the layer each point hits and a strategy's index, as SVG."

  struct Options {
    var run = RunConfiguration()
    var time = 0.0
    var tree = "presentation"
    var strategy: StrategyKind?
    var points: [Point] = []
    var output: String?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "render", summary: summary)
    RunCommand.borrowOptions(
      ["--scene", "--layers", "--animated", "--workload", "--seed", "--semantics"], into: &p, \.run)
    p.option(
      "--queries", \.run.queries, valueName: "Q",
      help: "workload points to draw when no --point is given (default 0: none)",
      expected: "an integer from 0 to 100000"
    ) { s in ArgumentValues.integer(in: 0...100_000)(s).map { [$0] } }
    p.option(
      "--time", \.time, valueName: "T", help: "clock time of the frame in seconds (default 0)",
      expected: "a finite number of seconds", parse: ArgumentValues.finite)
    p.option(
      "--tree", \.tree, valueName: "TREE",
      help: "presentation (default), model, or both (the model tree's answers beside, differences marked)",
      expected: "presentation, model or both"
    ) { ["presentation", "model", "both"].contains($0) ? $0 : nil }
    p.option(
      "--strategy", optional: \.strategy, valueName: "NAME",
      help: "answer with this strategy (default tree-walk) and draw its index where it can show it",
      expected: "one of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { StrategyKind(rawValue: $0) }
    p.repeatedOption(
      "--point", \.points, valueName: "X,Y", help: "a query point in world space (repeatable)",
      expected: "two numbers 'X,Y'", parse: ArgumentValues.point)
    p.option(
      "--output", optional: \.output, valueName: "FILE.svg", help: "the picture to write (atomically)",
      expected: "a path ending in .svg"
    ) { $0.hasSuffix(".svg") && $0.count > 4 ? $0 : nil }
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    o.run.queries = [0]
    _ = try parser.parse(args, into: &o)
    guard let output = o.output else { throw .usage(command: "render", message: "missing --output FILE.svg") }
    let model = try RunCommand.loadScene(o.run, command: "render")
    let names = model.subtreeInPreorder.enumerated().map { i, l in l.name ?? "#\(i)" }
    let kind = o.strategy ?? .treeWalk
    let presentation = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
    presentation.build(at: o.time, animated: o.tree != "model")
    var points = o.points
    if points.isEmpty, let q = o.run.queries.first, q > 0 {
      points = Runner.points(o.run, model: model, builder: presentation, queries: q, times: [o.time])
    }
    let animated = o.tree != "model"
    var picture = FramePicture(frame: presentation.frame, names: names)
    picture.points = points
    picture.answers = kind.answers(presentation, points, animated: animated)
    let sceneLabel: String
    if case .file = o.run.scene {
      sceneLabel = o.run.scene.name
    } else {
      sceneLabel = "\(o.run.scene.name) \(o.run.layers) (seed \(o.run.seed))"
    }
    picture.caption = [
      "scene: \(sceneLabel); tree: \(o.tree); answers: \(kind.rawValue); "
        + "semantics: \(o.run.semantics.name)"
    ]
    if o.tree == "both" {
      let modelBuilder = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
      modelBuilder.build(at: o.time, animated: false)
      picture.modelFrame = modelBuilder.frame
      picture.modelAnswers = kind.answers(modelBuilder, points, animated: false)
    }
    if let s = o.strategy {
      picture.strategy = s.rawValue
      picture.index = s.inspection(presentation, animated: animated) ?? []
    }
    do { try FileIO.writeAtomically(picture.svg(), to: output) } catch { throw .file(error) }
    Output.err("\(output): \(presentation.frame.count) rows, \(points.count) points\n")
  }
}
