import FileIO
import JSON
import LayerModel
import Presentation
import SceneFormat
import Scenes
import Verification

/// `hitbench generate KIND --layers N [--animated F] [--seed S] -o FILE`.
enum GenerateCommand {
  static let summary =
    "Write a synthetic scene (\(SceneKind.allCases.map(\.rawValue).joined(separator: ", "))) to a file."

  struct Options {
    var layers = 1000
    var animated = 1.0
    var seed: UInt64 = 1
    var output: String?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "generate", summary: summary)
    p.positionalNames = ["KIND"]
    p.requiredPositionals = 1
    CommonOptions.layers(&p, \.layers, default: "1000")
    p.option(
      "--animated", \.animated, valueName: "F", help: "fraction of layers animated (default 1)",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    CommonOptions.seed(&p, \.seed)
    p.option(
      "-o", optional: \.output, valueName: "FILE",
      help: "the scene file to write (atomically; its directory must exist)", expected: "a file path",
      parse: ArgumentValues.path
    )
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let positional = try parser.parse(args, into: &o).positionals
    guard let kind = SceneKind(rawValue: positional[0]) else {
      throw .usage(
        command: "generate",
        message:
          "unknown scene kind '\(positional[0])' (valid: \(SceneKind.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    guard let path = o.output else { throw .usage(command: "generate", message: "missing -o FILE") }
    do { try FileIO.checkWritable(path) } catch { throw .file(error) }
    let generator = SceneGenerator(kind: kind, layers: o.layers, animatedFraction: o.animated, seed: o.seed)
    // Streamed: each finished top-level layer is written and dropped (kinds that seal them).
    do { try SceneFile.write(to: path, generating: { generator.make(sealing: $0) }) } catch { throw .file(error) }
  }
}
