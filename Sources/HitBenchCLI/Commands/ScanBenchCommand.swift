import BenchKit
import Clocks
import HitTesting
import LayerModel
import Presentation
import Scenes

/// `hitbench scanbench`: flat-scan's SIMD8 box loop against a scalar loop over the same rows.
enum ScanBenchCommand {
  static let summary = "Time flat-scan's SIMD box loop against a scalar loop over the same rows (ns per box)."

  struct Options {
    var run = RunConfiguration()
    var repeats = 30
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "scanbench", summary: summary)
    p.option(
      "--scene", \.run.scene, valueName: "KIND", help: "scene kind (default app)",
      expected: "one of \(SceneKind.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { SceneKind(rawValue: $0).map { .generated($0) } }
    CommonOptions.layers(&p, \.run.layers, default: "10,000")
    CommonOptions.integer(
      &p, "--repeats", \.repeats, valueName: "R", help: "timed repetitions, the median is reported (default 30)",
      in: 1...10_000)
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    let model: Layer
    do { model = try Runner.scene(o.run) } catch { throw .usage(command: "scanbench", message: error.description) }
    let builder = PresentationFrameBuilder(root: model)
    var scan = FlatScan()
    scan.update(with: builder.build(at: 0.5))
    var c = o.run
    c.frames = 1
    c.warmup = 0
    let points = Runner.points(c, model: model, builder: builder, queries: 64)
    var simd: [Double] = []
    var scalar: [Double] = []
    var branchy: [Double] = []
    var check = 0
    for _ in 0..<o.repeats {
      let t0 = Clocks.monotonicNanoseconds()
      for p in points { check &+= scan.countContainingSIMD(p) }
      let t1 = Clocks.monotonicNanoseconds()
      for p in points { check &-= scan.countContainingScalar(p) }
      let t2 = Clocks.monotonicNanoseconds()
      for p in points { check &-= scan.countContainingScalarBranchy(p) }
      let t3 = Clocks.monotonicNanoseconds()
      check &+= points.reduce(0) { $0 &+ scan.countContainingSIMD($1) }
      simd.append(Double(t1 - t0))
      scalar.append(Double(t2 - t1))
      branchy.append(Double(t3 - t2))
    }
    guard check == 0 else { throw .failed("the SIMD and scalar loops counted differently") }
    let boxes = Double(scan.scannedBoxes * points.count)
    let s = Summary(simd).median / boxes
    let k = Summary(scalar).median / boxes
    let b = Summary(branchy).median / boxes
    Output.out(
      "scene,layers,boxes,simdNsPerBox,scalarBranchyNsPerBox,scalarBranchlessNsPerBox,speedupOverBranchy,speedupOverBranchless\n"
    )
    Output.out("\(o.run.scene.name),\(builder.layers.count),\(scan.scannedBoxes),\(s),\(b),\(k),\(b / s),\(k / s)\n")
  }
}
