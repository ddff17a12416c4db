import BenchKit
import HitTesting
import LayerModel
import Presentation
import Rendering

extension RenderCommand {
  /// Draws frames of one scene as `render` draws them: its layers at a time, the layer each
  /// point hits by one strategy, and (when a strategy is named) that strategy's index and each
  /// point's candidates; with two trees, the model tree's answers beside. `run --report` draws
  /// its picture with it. Frames are built in place: draw each before asking for the next.
  struct FrameDrawing {
    let names: [String]
    let kind: StrategyKind
    let drawsIndex: Bool
    let animated: Bool
    let caption: String
    let presentation: PresentationFrameBuilder
    let modelBuilder: PresentationFrameBuilder?

    /// The legend line naming what a picture of `c` shows (`tree`: presentation, model or both).
    static func legend(_ c: RunConfiguration, tree: String, answers: StrategyKind) -> String {
      let scene: String
      if case .file = c.scene { scene = c.scene.name } else { scene = "\(c.scene.name) \(c.layers) (seed \(c.seed))" }
      return "scene: \(scene); tree: \(tree); answers: \(answers.rawValue); semantics: \(c.semantics.name)"
    }

    /// `strategy` nil: tree-walk answers, no index drawn. `trees`: what `--tree` gives.
    init(
      model: Layer, semantics: HitTestSemantics, trees: [HitTestTree], strategy: StrategyKind?, caption: String
    ) {
      names = model.subtreeInPreorder.enumerated().map { i, l in l.name ?? "#\(i)" }
      kind = strategy ?? .treeWalk
      drawsIndex = strategy != nil
      // The tree drawn: the presentation tree unless only the model tree is asked for.
      animated = trees.contains(.presentation)
      self.caption = caption
      presentation = PresentationFrameBuilder(root: model, semantics: semantics)
      modelBuilder = trees.count > 1 ? PresentationFrameBuilder(root: model, semantics: semantics) : nil
    }

    /// The frame at `time` with its points, nothing answered (what a picture's extent needs).
    func frame(at time: Double, points: [Point]) -> FramePicture {
      presentation.build(at: time, animated: animated)
      var picture = FramePicture(frame: presentation.frame, names: names)
      picture.points = points
      picture.caption = [caption]
      return picture
    }

    /// The whole picture at `time`: answers, candidates, the index, the model tree's answers.
    func picture(at time: Double, points: [Point]) -> FramePicture {
      var picture = frame(at: time, points: points)
      let inspection = kind.inspect(presentation, points, animated: animated)
      picture.answers = inspection.answers
      picture.candidates = drawsIndex ? inspection.candidates : []
      if let modelBuilder {
        modelBuilder.build(at: time, animated: false)
        picture.modelFrame = modelBuilder.frame
        picture.modelAnswers = kind.answers(modelBuilder, points, animated: false)
      }
      if drawsIndex {
        picture.strategy = kind.rawValue
        picture.index = inspection.index
      }
      return picture
    }
  }
}
