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
    var trees: [HitTestTree] = [.presentation]
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
    CommonOptions.time(&p, \.time)
    p.option(
      "--tree", \.trees, valueName: "TREE",
      help: "presentation (default), model, or both (the model tree's answers beside, differences marked)",
      expected: "presentation, model or both", parse: CommonOptions.trees)
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
    // The tree drawn: the presentation tree unless only the model tree is asked for.
    let animated = o.trees.contains(.presentation)
    let presentation = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
    presentation.build(at: o.time, animated: animated)
    var points = o.points
    if points.isEmpty, let q = o.run.queries.first, q > 0 {
      points = Runner.points(o.run, model: model, builder: presentation, queries: q, times: [o.time])
    }
    var picture = FramePicture(frame: presentation.frame, names: names)
    picture.points = points
    let (answers, index) = kind.answersAndIndex(presentation, points, animated: animated)
    picture.answers = answers
    let sceneLabel: String
    if case .file = o.run.scene {
      sceneLabel = o.run.scene.name
    } else {
      sceneLabel = "\(o.run.scene.name) \(o.run.layers) (seed \(o.run.seed))"
    }
    picture.caption = [
      "scene: \(sceneLabel); tree: \(o.trees.count > 1 ? "both" : o.trees[0].rawValue); answers: \(kind.rawValue); "
        + "semantics: \(o.run.semantics.name)"
    ]
    if o.trees.count > 1 {
      let modelBuilder = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
      modelBuilder.build(at: o.time, animated: false)
      picture.modelFrame = modelBuilder.frame
      picture.modelAnswers = kind.answers(modelBuilder, points, animated: false)
    }
    if let s = o.strategy {
      picture.strategy = s.rawValue
      picture.index = index ?? []
    }
    do { try FileIO.writeAtomically(picture.svg(), to: output) } catch { throw .file(error) }
    Output.err("\(output): \(presentation.frame.count) rows, \(points.count) points\n")
  }
}
