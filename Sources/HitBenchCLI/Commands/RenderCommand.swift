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
    let layers = model.subtreeInPreorder.count
    let kind = o.strategy ?? .treeWalk
    let times = o.times ?? [o.time]
    let perFrame = layers + (o.points.isEmpty ? (o.run.queries.first ?? 0) : o.points.count)
    guard times.count * perFrame <= shapeLimit else {
      throw .usage(
        command: "render",
        message:
          "\(times.count) frames x (\(layers) layers + \(perFrame - layers) points) is more than the \(shapeLimit) shapes a picture draws: fewer frames, points or layers"
      )
    }
    let queries = o.points.isEmpty ? (o.run.queries.first ?? 0) : o.points.count
    let caption = FrameDrawing.legend(o.run, tree: o.trees.count > 1 ? "both" : o.trees[0].rawValue, answers: kind)
    let drawing = FrameDrawing(
      model: model, semantics: o.run.semantics, trees: o.trees, strategy: o.strategy, caption: caption)
    let workload =
      o.points.isEmpty && queries > 0
      ? Runner.points(o.run, model: model, builder: drawing.presentation, queries: queries, times: times) : []
    func points(_ k: Int) -> [Point] {
      o.points.isEmpty ? Array(workload[(k * queries)..<(k * queries + queries)]) : o.points
    }
    func frame(_ k: Int) -> FramePicture { drawing.frame(at: times[k], points: points(k)) }
    func picture(_ k: Int) -> FramePicture { drawing.picture(at: times[k], points: points(k)) }

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
    Output.err(
      "\(output): \(drawing.presentation.frame.count) rows, \(times.count) frames, \(queries) points a frame\n")
  }
}
