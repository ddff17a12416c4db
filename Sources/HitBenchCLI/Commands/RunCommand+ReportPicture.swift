import BenchKit
import HitTesting
import LayerModel
import Reports

extension RunCommand {
  /// The picture `run --report` shows: the run's first configuration at the slowest measured
  /// frame of its fastest strategy by mean (the one a reader would pick, where it does worst),
  /// drawn as `hitbench render --strategy S --time T --queries Q` draws it: that frame's
  /// points, the layer each hits, their candidates and the strategy's index. Of a repeated
  /// run, the first repetition's frames. nil when no result can be drawn (a peer's index has
  /// no inspection: the fastest own strategy is drawn instead, and none is nil). The scene is
  /// made again (the run freed it); above `FramePicture.aggregateAbove` layers the picture
  /// keeps the largest and a density layer, so it stays a few megabytes at a million.
  static func reportPicture(
    _ results: [Measurement], configs: [RunConfiguration], configIndex: [Int]
  ) throws(CommandError) -> ReportPage.Picture? {
    guard let first = results.first else { return nil }
    let c = configs[configIndex[0]]
    let candidates = results.indices.filter {
      configIndex[$0] == configIndex[0] && results[$0].queriesPerFrame == first.queriesPerFrame
        && results[$0].tree == first.tree && StrategyKind(rawValue: results[$0].strategy) != nil
        && !results[$0].frameTimings.isEmpty
    }
    guard let best = candidates.min(by: { results[$0].frameNs.mean < results[$1].frameNs.mean }),
      let kind = StrategyKind(rawValue: results[best].strategy)
    else { return nil }
    let m = results[best]
    let perRepetition = m.frameTimings.count / Swift.max(m.repeats, 1)
    let slowest = (0..<Swift.max(perRepetition, 1)).max { m.frameTimings[$0].frameNs < m.frameTimings[$1].frameNs } ?? 0
    let frameIndex = c.warmup + slowest
    let time = Double(frameIndex) / c.fps
    let model = try loadScene(c, command: "run")
    let q = m.queriesPerFrame
    let tree: HitTestTree = c.modelTree ? .model : .presentation
    let t = formatNumber((time * 1e4).rounded() / 1e4)
    let us = formatNumber((Double(m.frameTimings[slowest].frameNs) / 100).rounded() / 10)
    let caption =
      "The scene as \(kind.rawValue) saw it, the fastest strategy by mean at Q = \(q), at its slowest measured "
      + "frame (frame \(slowest) after the warm-up, t = \(t) s, \(us) µs): the frame's \(q) points, the layer each "
      + "hits, the candidates each tested and the index's boxes"
    let legend = RenderCommand.FrameDrawing.legend(c, tree: tree.rawValue, answers: kind)
    let drawing = RenderCommand.FrameDrawing(
      model: model, semantics: c.semantics, trees: [tree], strategy: kind, caption: legend)
    let all = Runner.points(
      c, model: model, builder: drawing.presentation, queries: q, times: Runner.times(c, measured: slowest + 1))
    let points = Array(all[(all.count - q)...])
    return ReportPage.Picture(caption: caption, svg: drawing.picture(at: time, points: points).svg())
  }
}
