import BenchKit
import FileIO
import HitTesting
import LayerModel
import Presentation
import Rendering

/// `hitbench render`: a picture (SVG) of one frame, its answers and a strategy's index; over
/// several times, an animated SVG or a page with a time slider.
enum RenderCommand {
  static let summary =
    "Draw a frame at time T (or frames over A:B:STEP), the layer each point hits and a strategy's index."

  /// The most frames one picture holds.
  static let frameLimit = 1000
  /// The most shapes one picture draws (frames x (layers + points)): about 200 bytes each in
  /// the file, so a picture stays within a few hundred MB of text and of memory.
  static let shapeLimit = 1_000_000

  struct Options {
    var run = RunConfiguration()
    var time = 0.0
    var times: [Double]?
    var trees: [HitTestTree] = [.presentation]
    var strategy: StrategyKind?
    var points: [Point] = []
    var output: String?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "render", summary: summary)
    RunCommand.borrowOptions(RunCommand.sceneOptions, into: &p, \.run)
    p.option(
      "--queries", \.run.queries, valueName: "Q",
      help: "workload points to draw per frame when no --point is given (default 0: none)",
      expected: "an integer from 0 to 100000"
    ) { s in ArgumentValues.integer(in: 0...100_000)(s).map { [$0] } }
    CommonOptions.time(&p, \.time)
    p.option(
      "--times", optional: \.times, valueName: "A:B:STEP",
      help: "frames at A, A+STEP, ... B instead of one (.svg: animated with SMIL; .html: a page with a slider)",
      expected: "A:B:STEP with finite A <= B, STEP > 0 and at most \(frameLimit) frames",
      parse: ArgumentValues.timeSteps(limit: frameLimit))
    p.option(
      "--tree", \.trees, valueName: "TREE",
      help: "presentation (default), model, or both (the model tree's answers beside, differences marked)",
      expected: "presentation, model or both", parse: CommonOptions.trees)
    p.option(
      "--strategy", optional: \.strategy, valueName: "NAME",
      help: "answer with this strategy (default tree-walk); draw its index and each point's candidates",
      expected: "one of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { StrategyKind(rawValue: $0) }
    p.repeatedOption(
      "--point", \.points, valueName: "X,Y", help: "a query point in world space (repeatable)",
      expected: "two finite decimal numbers 'X,Y'", parse: ArgumentValues.finitePoint)
    p.option(
      "--output", optional: \.output, valueName: "FILE.svg|FILE.html",
      help: "the picture to write (atomically; its directory must exist): SVG, or a self-contained HTML page",
      expected: "a path ending in .svg or .html"
    ) { ($0.hasSuffix(".svg") && $0.count > 4) || ($0.hasSuffix(".html") && $0.count > 5) ? $0 : nil }
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    o.run.queries = [0]
    let given = try parser.parse(args, into: &o).given
    if given.contains("--time") && given.contains("--times") {
      throw .usage(command: "render", message: "--time and --times both give the time: use one")
    }
    guard let output = o.output else {
      throw .usage(command: "render", message: "missing --output FILE.svg or FILE.html")
    }
    do { try FileIO.checkWritable(output) } catch { throw .file(error) }
    let model = try RunCommand.loadScene(o.run, command: "render")
    let names = model.subtreeInPreorder.enumerated().map { i, l in l.name ?? "#\(i)" }
    let kind = o.strategy ?? .treeWalk
    let times = o.times ?? [o.time]
    let perFrame = names.count + (o.points.isEmpty ? (o.run.queries.first ?? 0) : o.points.count)
    guard times.count * perFrame <= shapeLimit else {
      throw .usage(
        command: "render",
        message:
          "\(times.count) frames x (\(names.count) layers + \(perFrame - names.count) points) is more than the \(shapeLimit) shapes a picture draws: fewer frames, points or layers"
      )
    }
    // The tree drawn: the presentation tree unless only the model tree is asked for.
    let animated = o.trees.contains(.presentation)
    let presentation = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
    let modelBuilder = o.trees.count > 1 ? PresentationFrameBuilder(root: model, semantics: o.run.semantics) : nil
    let queries = o.points.isEmpty ? (o.run.queries.first ?? 0) : o.points.count
    let workload =
      o.points.isEmpty && queries > 0
      ? Runner.points(o.run, model: model, builder: presentation, queries: queries, times: times) : []
    let sceneLabel: String
    if case .file = o.run.scene {
      sceneLabel = o.run.scene.name
    } else {
      sceneLabel = "\(o.run.scene.name) \(o.run.layers) (seed \(o.run.seed))"
    }
    let caption =
      "scene: \(sceneLabel); tree: \(o.trees.count > 1 ? "both" : o.trees[0].rawValue); answers: \(kind.rawValue); "
      + "semantics: \(o.run.semantics.name)"

    // Frame k alone (what the picture's extent needs, nothing inspected), and its whole picture;
    // the frame objects are rebuilt in place, so each is drawn before the next.
    func frame(_ k: Int) -> FramePicture {
      presentation.build(at: times[k], animated: animated)
      var picture = FramePicture(frame: presentation.frame, names: names)
      picture.points = o.points.isEmpty ? Array(workload[(k * queries)..<(k * queries + queries)]) : o.points
      picture.caption = [caption]
      return picture
    }
    func picture(_ k: Int) -> FramePicture {
      var picture = frame(k)
      let inspection = kind.inspect(presentation, picture.points, animated: animated)
      picture.answers = inspection.answers
      picture.candidates = o.strategy == nil ? [] : inspection.candidates
      if let modelBuilder {
        modelBuilder.build(at: times[k], animated: false)
        picture.modelFrame = modelBuilder.frame
        picture.modelAnswers = kind.answers(modelBuilder, picture.points, animated: false)
      }
      if let s = o.strategy {
        picture.strategy = s.rawValue
        picture.index = inspection.index
      }
      return picture
    }

    let text: String
    if times.count == 1 && output.hasSuffix(".svg") {
      text = picture(0).svg()
    } else {
      // One view for every frame: the union of the frames' extents.
      var extent = Box.nothing
      for k in times.indices { extent = extent.union(frame(k).extent()) }
      let view = PictureView(
        extent: FramePicture.viewable(extent), size: 1000, legendLines: FramePicture.legendLines + 1)
      var sequence = PictureSequence(view: view)
      for k in times.indices {
        let d = picture(k).drawing(in: view, id: PictureSequence.idPrefix(k))
        sequence.frames.append(.init(time: times[k], body: d.body, defs: d.defs, legend: d.legend))
      }
      text = output.hasSuffix(".html") ? sequence.html(title: "hitbench render: \(caption)") : sequence.svg()
    }
    do { try FileIO.writeAtomically(text, to: output) } catch { throw .file(error) }
    Output.err("\(output): \(presentation.frame.count) rows, \(times.count) frames, \(queries) points a frame\n")
  }
}
