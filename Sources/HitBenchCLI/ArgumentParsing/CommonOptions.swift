import FileIO
import LayerModel
import Scenes

/// The options several verbs share, declared once: each adds the option to a verb's parser,
/// writing through the verb's key path, with the same name, help and value checks everywhere.
enum CommonOptions {
  /// `--seed S`: the seed of scenes and points.
  static func seed<O>(_ p: inout ArgumentParser<O>, _ keyPath: WritableKeyPath<O, UInt64>, default value: UInt64 = 1) {
    p.option(
      "--seed", keyPath, valueName: "S", help: "seed for scenes and points (default \(value))",
      expected: "an unsigned integer", parse: ArgumentValues.uint64)
  }

  /// `NAME N`: an integer within `range`, its bounds stated in the error.
  static func integer<O>(
    _ p: inout ArgumentParser<O>, _ name: String, _ keyPath: WritableKeyPath<O, Int>, valueName: String,
    help: String, in range: ClosedRange<Int>
  ) {
    p.option(
      name, keyPath, valueName: valueName, help: help,
      expected: "an integer from \(range.lowerBound) to \(range.upperBound)", parse: ArgumentValues.integer(in: range))
  }

  /// `--layers N`: a generated scene's layer count.
  static func layers<O>(_ p: inout ArgumentParser<O>, _ keyPath: WritableKeyPath<O, Int>, default value: String) {
    integer(
      &p, "--layers", keyPath, valueName: "N", help: "layers in a generated scene, 10 to 1,000,000 (default \(value))",
      in: SceneGenerator.layerRange)
  }

  /// `--semantics P`: one hit-test preset.
  static func semantics<O>(_ p: inout ArgumentParser<O>, _ keyPath: WritableKeyPath<O, HitTestSemantics>) {
    p.option(
      "--semantics", keyPath, valueName: "P", help: "calayer (default), calayer-seed or uiview",
      expected: "calayer, calayer-seed or uiview"
    ) { HitTestSemantics(named: $0) }
  }

  /// `--time T`: a finite clock time in seconds.
  static func time<O>(_ p: inout ArgumentParser<O>, _ keyPath: WritableKeyPath<O, Double>) {
    p.option(
      "--time", keyPath, valueName: "T", help: "clock time in seconds (default 0)",
      expected: "a finite number of seconds", parse: ArgumentValues.finite)
  }

  /// `--tree presentation|model`: which tree to hit-test.
  static func tree<O>(_ p: inout ArgumentParser<O>, _ keyPath: WritableKeyPath<O, HitTestTree>) {
    p.option(
      "--tree", keyPath, valueName: "TREE", help: "presentation (default) or model",
      expected: "presentation or model"
    ) { HitTestTree(rawValue: $0) }
  }

  /// `presentation`, `model` or `both`.
  static func trees(_ s: String) -> [HitTestTree]? {
    s == "both" ? HitTestTree.allCases : HitTestTree(rawValue: s).map { [$0] }
  }
}

/// Where the repository's data lives when a verb needs it (the real layouts): `data/scenes`
/// under the current directory, else under the package the executable was built in
/// (`.build/<configuration>/hitbench` is three levels below it).
enum RepositoryData {
  static var scenesDirectory: String? {
    var candidates = ["data/scenes"]
    let exe = CommandLine.arguments.first ?? ""
    if let slash = exe.lastIndex(of: "/") {
      var dir = String(exe[..<slash])
      for _ in 0..<4 {
        candidates.append(dir + "/data/scenes")
        guard let up = dir.lastIndex(of: "/") else { break }
        dir = String(dir[..<up])
      }
    }
    return candidates.first { FileIO.isDirectory($0) }
  }
}
