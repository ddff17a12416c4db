import BenchKit
import HitTesting
import LayerModel
import Scenes

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
    RunCommand.borrowOptions(
      ["--scene", "--layers", "--animated", "--workload", "--seed", "--semantics"], into: &p, \.run)
    p.option(
      "--queries", \.run.queries, valueName: "Q", help: "points to export (default 100)",
      expected: "an integer from 1 to 1000000"
    ) { s in Int(s).flatMap { (1...1_000_000).contains($0) ? [$0] : nil } }
    p.option(
      "--time", \.time, valueName: "T", help: "clock time of the frame (default 0)", expected: "a finite number",
      parse: ArgumentValues.finite)
    p.option("--out", optional: \.out, valueName: "DIR", help: "the directory to write", expected: "a directory") {
      $0.isEmpty ? nil : $0
    }
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    guard let dir = o.out else { throw .usage(command: "export", message: "missing --out DIR") }
    let model = try RunCommand.loadScene(o.run, command: "export")
    let builder = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
    let frame = builder.build(at: o.time)
    var boxes = "minx,miny,maxx,maxy,priority\n"
    for r in 0..<frame.count where frame.flags[r].contains(.hittable) {
      boxes += "\(frame.worldMinX[r]),\(frame.worldMinY[r]),\(frame.worldMaxX[r]),\(frame.worldMaxY[r]),\(r)\n"
    }
    var c = o.run
    c.warmup = 0
    c.frames = 1
    c.fps = 1
    let q = o.run.queries.first ?? 100
    var single = c
    single.queries = [q]
    // The workload's points for a frame at time T: frame 0 of a one-frame run shifted to T.
    let area = model.frame.isNull ? model.bounds : model.frame
    var pts = [Point](repeating: .zero, count: q)
    var grid = HitTestingGrid()
    grid.update(frame)
    pts.withUnsafeMutableBufferPointer { buf in
      WorkloadGenerator(c.workload, area: area, seed: c.seed).fill(buf, frame: 0, time: o.time) { grid.onlyRoot($0) }
    }
    var points = "x,y\n"
    for p in pts { points += "\(p.x),\(p.y)\n" }
    try? makeDirectory(dir)
    do {
      try SceneFile.writeText(boxes, to: dir + "/boxes.csv")
      try SceneFile.writeText(points, to: dir + "/points.csv")
    } catch { throw .data(error.description) }
  }
}

/// A grid over one frame, answering "does this point hit only the root" for the miss workload.
struct HitTestingGrid {
  var grid = UniformGrid()
  mutating func update(_ f: PresentationFrame) { grid.update(with: f) }
  func onlyRoot(_ p: Point) -> Bool {
    let h = grid.hitTest(p)
    return h == nil || h == LayerID(0)
  }
}
