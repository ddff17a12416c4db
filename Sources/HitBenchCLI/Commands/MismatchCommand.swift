import BenchKit
import HitTesting
import LayerModel
import Presentation
import Scenes

/// `hitbench mismatch`: how often hit-testing the MODEL tree during animations answers a
/// different layer than the presentation tree (answering for where a layer is not, during an animation), per scene.
enum MismatchCommand {
  static let summary = "Measure how often the model tree answers a different layer than the presentation tree."

  struct Options {
    var scenes: [SceneKind] = SceneKind.allCases
    var layers = 10_000
    var frames = 60
    var queries = 1000
    var seed: UInt64 = 1
    var format = "table"
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "mismatch", summary: summary)
    p.option(
      "--scene", \.scenes, valueName: "KIND,...|all", help: "scene kinds (default all)",
      expected: "a comma-separated list of \(SceneKind.allCases.map(\.rawValue).joined(separator: ", ")) or all"
    ) { s in
      if s == "all" { return SceneKind.allCases }
      let ks = (ArgumentValues.list(s) ?? []).map { SceneKind(rawValue: $0) }
      return ks.contains(where: { $0 == nil }) || ks.isEmpty ? nil : ks.map { $0! }
    }
    CommonOptions.layers(&p, \.layers, default: "10,000")
    CommonOptions.integer(
      &p, "--frames", \.frames, valueName: "F", help: "frames, 1/120 s apart (default 60)", in: 1...100_000)
    CommonOptions.integer(
      &p, "--queries", \.queries, valueName: "Q", help: "uniform points per frame (default 1000)", in: 1...1_000_000)
    CommonOptions.seed(&p, \.seed)
    p.option(
      "--format", \.format, valueName: "FORMAT", help: "table (default) or csv", expected: "table or csv"
    ) { ["table", "csv"].contains($0) ? $0 : nil }
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    if o.frames.multipliedReportingOverflow(by: o.queries).partialValue > RunConfiguration.pointLimit {
      throw .usage(
        command: "mismatch",
        message:
          "--frames (\(o.frames)) times --queries (\(o.queries)) is more than \(RunConfiguration.pointLimit) points")
    }
    Output.out(
      o.format == "csv"
        ? "scene,layers,frames,queries,differ,fraction\n"
        : "scene       layers  answers  model tree answers differently\n")
    for kind in o.scenes {
      let model = SceneGenerator(kind: kind, layers: o.layers, animatedFraction: 1, seed: o.seed).make()
      let presentation = PresentationFrameBuilder(root: model)
      let modelTree = PresentationFrameBuilder(root: model)
      var c = RunConfiguration()
      c.frames = o.frames
      c.warmup = 0
      c.seed = o.seed
      let points = Runner.points(c, model: model, builder: presentation, queries: o.queries)
      let times = Runner.times(c)
      var differ = 0
      for (f, t) in times.enumerated() {
        let pts = Array(points[(f * o.queries)..<(f * o.queries + o.queries)])
        presentation.build(at: t)
        modelTree.build(at: t, animated: false)
        let a = StrategyKind.grid.answers(presentation, pts)
        let b = StrategyKind.grid.answers(modelTree, pts, animated: false)
        for i in 0..<pts.count where a[i] != b[i] { differ += 1 }
      }
      let total = times.count * o.queries
      let fraction = Double(differ) / Double(max(total, 1))
      if o.format == "csv" {
        Output.out("\(kind.rawValue),\(o.layers),\(times.count),\(o.queries),\(differ),\(fraction)\n")
      } else {
        Output.out(
          kind.rawValue.padding(to: 10) + String(o.layers).leftPadded(8) + String(total).leftPadded(9)
            + "  \(formatNumber((fraction * 1000).rounded() / 10))%\n")
      }
    }
  }
}
