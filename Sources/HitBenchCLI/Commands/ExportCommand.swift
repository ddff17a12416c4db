import BenchKit
import FileIO
import JSON
import LayerModel
import Presentation
import SceneFormat
import Scenes
import Verification

#if canImport(Glibc)
  import Glibc
#endif

/// `hitbench export`: the boxes and points the strategies see, as CSV for other libraries.
enum ExportCommand {
  static let summary = "Write one frame's world boxes (boxes.csv) and workload points (points.csv) to a directory."

  struct Options {
    var run = RunConfiguration()
    var time = 0.0
    var out: String?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "export", summary: summary)
    RunCommand.borrowOptions(RunCommand.sceneOptions, into: &p, \.run)
    p.option(
      "--queries", \.run.queries, valueName: "Q", help: "points to export (default 100)",
      expected: "an integer from 1 to 1000000"
    ) { s in ArgumentValues.integer(in: 1...1_000_000)(s).map { [$0] } }
    CommonOptions.time(&p, \.time)
    p.option(
      "--out", optional: \.out, valueName: "DIR",
      help:
        "the directory to write boxes.csv and points.csv in (created when missing; both checked before either is written)",
      expected: "a directory", parse: ArgumentValues.path
    )
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    guard let dir = o.out else { throw .usage(command: "export", message: "missing --out DIR") }
    // Both files checked before either is written: a failed export changes no file.
    do {
      try FileIO.checkDirectoryCreatable(dir)
      if FileIO.isDirectory(dir) {
        try FileIO.checkWritable(dir + "/boxes.csv")
        try FileIO.checkWritable(dir + "/points.csv")
      }
    } catch { throw .file(error) }
    let model = try RunCommand.loadScene(o.run, command: "export")
    let builder = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
    let frame = builder.build(at: o.time)
    var boxes = "minx,miny,maxx,maxy,priority\n"
    for r in 0..<frame.count where frame.flags[r].contains(.hittable) {
      boxes +=
        "\(frame.worldBox[r].minX),\(frame.worldBox[r].minY),\(frame.worldBox[r].maxX),\(frame.worldBox[r].maxY),\(r)\n"
    }
    // The workload's points for one frame at time T (frame index 0 of the workload's sequence).
    let q = o.run.queries.first ?? 100
    let pts = Runner.points(o.run, model: model, builder: builder, queries: q, times: [o.time])
    var points = "x,y\n"
    for p in pts { points += "\(p.x),\(p.y)\n" }
    do {
      try FileIO.makeDirectories(dir)
      try FileIO.writeAtomically(boxes, to: dir + "/boxes.csv")
      try FileIO.writeAtomically(points, to: dir + "/points.csv")
    } catch { throw .file(error) }
  }
}
