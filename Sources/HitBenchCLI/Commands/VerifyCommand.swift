import FileIO
import HitTesting
import LayerModel
import Presentation
import SceneFormat
import Scenes
import Verification

/// `hitbench verify`: every strategy against `tree-walk`, and `tree-walk` against the reference
/// oracle, on random hostile scenes, large generated scenes and the real layouts, under every
/// preset and on both trees.
enum VerifyCommand {
  static let summary =
    "Compare every strategy with tree-walk, and tree-walk with an independent oracle, on random hostile scenes; exit 1 on a disagreement."

  struct Options {
    var scenes = 200
    var points = 1000
    var seed: UInt64 = 1
    var strategies: [StrategyKind] = []
    var semantics: [HitTestSemantics] = []
    var trees: [HitTestTree] = HitTestTree.allCases
    var layers: ClosedRange<Int> = 1...60
    var largeEvery = 10
    var layouts: String?
    var output = "verify-failures"
    var animated = 0.3
    var shrink = 0.0
    var motionShrink = 0.0
    var shift = 0.0
    var flag = false
    var order = false
    var staleWindows = false
    var keep = 5
    var histories = 50
    var frames = 48
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "verify", summary: summary)
    CommonOptions.integer(&p, "--scenes", \.scenes, valueName: "N", help: "scenes (default 200)", in: 1...10_000_000)
    CommonOptions.integer(
      &p, "--points", \.points, valueName: "M", help: "points per scene, preset and tree (default 1000)",
      in: 1...1_000_000)
    CommonOptions.integer(
      &p, "--histories", \.histories, valueName: "H",
      help:
        "histories: every strategy driven through a random sequence of frames on a scene biased toward boundaries, each frame checked (default 50; 0: none)",
      in: 0...1_000_000)
    CommonOptions.integer(
      &p, "--frames", \.frames, valueName: "F", help: "frames per history (default 48)", in: 1...100_000)
    CommonOptions.integer(
      &p, "--keep", \.keep, valueName: "K", help: "disagreements written with minimal scenes (default 5)", in: 1...1000)
    CommonOptions.seed(&p, \.seed)
    p.option(
      "--strategy", \.strategies, valueName: "A,B|all",
      help: "strategies to check (default all but tree-walk, which is checked against the oracle)",
      expected: "a comma-separated list of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")) or all",
      parse: StrategyKind.parseList)
    p.option(
      "--semantics", \.semantics, valueName: "P", help: "one preset (default all three)",
      expected: "calayer, calayer-seed or uiview"
    ) { HitTestSemantics(named: $0).map { [$0] } }
    p.option(
      "--tree", \.trees, valueName: "TREE", help: "presentation, model or both (default both)",
      expected: "presentation, model or both", parse: CommonOptions.trees)
    p.option(
      "--layers", \.layers, valueName: "MIN-MAX", help: "layers per random scene (default 1-60)",
      expected: "a range like 1-60 with 1 <= MIN <= MAX <= 100000", parse: ArgumentValues.range)
    p.option(
      "--large-every", \.largeEvery, valueName: "K",
      help: "every K-th scene is a generated kind of 500-3000 layers or a real layout (default 10; 0: none)",
      expected: "an integer from 0 to 1000000", parse: ArgumentValues.integer(in: 0...1_000_000))
    p.option(
      "--layouts", optional: \.layouts, valueName: "DIR",
      help: "the real layouts among the large scenes (default the repository's data/scenes)", expected: "a directory",
      parse: ArgumentValues.path
    )
    p.option(
      "--output", \.output, valueName: "DIR",
      help: "where disagreeing scenes are written (default verify-failures; created when missing, checked first)",
      expected: "a directory", parse: ArgumentValues.path
    )
    p.option(
      "--animated", \.animated, valueName: "F", help: "fraction of each random scene's layers animated (default 0.3)",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.option(
      "--inject-shrink", \.shrink, valueName: "D",
      help: "self-test: strategies answer with every hit region shrunk by D points; verify must fail",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.option(
      "--inject-shift", \.shift, valueName: "D",
      help: "self-test: one layer's map (so its world map and subtree) translated by D points; verify must fail",
      expected: "a number from 0 to 1000", parse: ArgumentValues.number(in: 0...1000))
    p.flag(
      "--inject-flag", \.flag, help: "self-test: one layer's hidden or masksToBounds flipped; verify must fail")
    p.flag("--inject-order", \.order, help: "self-test: two siblings' drawing order swapped; verify must fail")
    p.flag(
      "--inject-stale-windows", \.staleWindows,
      help:
        "self-test: time-aware windows built ahead bound the window before theirs (only histories show it); verify must fail"
    )
    p.option(
      "--inject-motion-shrink", \.motionShrink, valueName: "D",
      help: "self-test: time-aware strategies use motion bounds shrunk by D points; verify must fail",
      expected: "a number from 0 to 1000", parse: ArgumentValues.number(in: 0...1000))
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    _ = try parser.parse(args, into: &o)
    // Checked before the first scene: a disagreement found after minutes is not lost.
    do { try FileIO.checkDirectoryCreatable(o.output) } catch { throw .file(error) }
    var v = Verifier()
    v.scenes = o.scenes
    v.points = o.points
    v.seed = o.seed
    if !o.strategies.isEmpty { v.strategies = o.strategies.filter { $0 != .treeWalk } }
    if !o.semantics.isEmpty { v.semantics = o.semantics }
    v.trees = o.trees
    v.keep = o.keep
    v.histories = o.histories
    v.framesPerHistory = o.frames
    v.generator = RandomScene(layerCount: o.layers, hostile: true, animatedFraction: o.animated)
    v.largeSceneEvery = o.largeEvery
    v.fault = try fault(o)
    if o.largeEvery > 0 { v.layouts = try layouts(o.layouts) }
    let progress = Progress(total: o.scenes + o.histories, label: "verify")
    let report = v.run { progress.update($0) }
    progress.finish()
    print(report)
    if report.disagreementCount == 0 && !report.passed {
      // The first tally over the limit, single-time ones first, then the histories'.
      let over =
        report.tallies.first { $0.value.exceedsToleratedLimit }.map { ($0.key, $0.value, "") }
        ?? report.historyTallies.first { $0.value.exceedsToleratedLimit }.map { ($0.key, $0.value, " across frames") }
      if let (key, t, scope) = over {
        throw .failed(
          "\(key)\(scope) tolerated \(t.tolerated) of \(t.comparisons) answers (\(formatNumber((t.toleratedShare * 1e5).rounded() / 1e3))%), beyond the limit"
        )
      }
    }
    guard report.disagreementCount > 0 else { return }
    if let fault = v.fault {
      // A self-test: the disagreements are what it must produce; the scenes are not written.
      throw .failed("\(report.disagreementCount) disagreements (\(fault) was injected, as it must be caught)")
    }
    do { try FileIO.makeDirectories(o.output) } catch { throw .file(error) }
    for (i, d) in report.disagreements.enumerated() {
      let minimal = Verifier.minimize(d)
      let path = "\(o.output)/disagreement-\(i + 1).json"
      do { try SceneFile.write(minimal, to: path) } catch { throw .file(error) }
      Output.out(DisagreementReport.line(d, minimal: path, layers: minimal.subtreeInPreorder.count) + "\n")
    }
    throw .failed("\(report.disagreementCount) disagreements")
  }

  /// The fault the options inject (at most one).
  static func fault(_ o: Options) throws(CommandError) -> Verifier.Fault? {
    var faults: [Verifier.Fault] = []
    if o.shrink > 0 { faults.append(.shrink(o.shrink)) }
    if o.motionShrink > 0 { faults.append(.motionShrink(o.motionShrink)) }
    if o.shift > 0 { faults.append(.shift(o.shift)) }
    if o.flag { faults.append(.flag) }
    if o.order { faults.append(.order) }
    if o.staleWindows { faults.append(.staleWindows) }
    guard faults.count <= 1 else {
      throw .usage(command: "verify", message: "at most one --inject-* option at a time")
    }
    return faults.first
  }

  static func printTallies(_ tallies: [Verifier.TallyKey: Verifier.Tally]) {
    Output.out("strategy       preset        tree           comparisons  tolerated  disagreements\n")
    for key in tallies.keys.sorted() {
      let t = tallies[key]!
      Output.out(
        key.strategy.padding(to: 15) + key.semantics.padding(to: 14) + key.tree.rawValue.padding(to: 14)
          + String(t.comparisons).leftPadded(12) + String(t.tolerated).leftPadded(11)
          + String(t.disagreements).leftPadded(15) + "\n")
    }
  }

  /// The real layouts: every scene file in `dir` (default the repository's data/scenes) but the
  /// seed demos.
  static func layouts(_ dir: String?) throws(CommandError) -> [(name: String, model: Layer)] {
    guard let dir = dir ?? RepositoryData.scenesDirectory else {
      Output.err("verify: the real layouts were not found (data/scenes); --layouts DIR names them\n")
      return []
    }
    guard let names = FileIO.directoryEntries(dir) else {
      throw .usage(command: "verify", message: "--layouts: cannot read the directory '\(CommandError.shown(dir))'")
    }
    var out: [(name: String, model: Layer)] = []
    for name in names where name.hasSuffix(".json") && !name.hasPrefix("seed-") {
      do { out.append((String(name.dropLast(5)), try SceneFile.read(path: dir + "/" + name))) } catch {
        throw .scene(error)
      }
    }
    return out
  }

  static func print(_ report: Verifier.Report) {
    printTallies(report.tallies)
    if report.historiesRun > 0 {
      Output.out("\nacross frames: \(report.historiesRun) histories, every strategy one instance through each\n")
      printTallies(report.historyTallies)
      Output.out("\n")
    }
    let share = formatNumber((report.toleratedShare * 1e5).rounded() / 1e3)
    let worst = report.worstToleratedShare.map {
      " (worst \($0.key)\($0.acrossFrames ? " across frames" : ""): \(formatNumber(($0.share * 1e5).rounded() / 1e3))%)"
    }
    Output.out(
      "\(report.comparisons) comparisons, \(report.tolerated) tolerated (\(share)%\(worst ?? ""): within rounding of an edge; limit \(formatNumber(AnswerComparison.toleratedShareLimit * 100))% for each strategy, preset and tree, beyond chance at p < 0.001), \(report.disagreementCount) disagreements; largest scene \(report.largestScene) layers\n"
    )
    if report.scenesWithoutFault > 0 {
      Output.out("\(report.scenesWithoutFault) scene checks had no layer for the injected fault\n")
    }
  }
}

/// How a disagreement is reported (by `verify` and `run --verify`): one line with the strategy,
/// preset, tree, scene, time and point, both answers, the minimal scene and the command that
/// reproduces it.
enum DisagreementReport {
  static func line(_ d: Verifier.Disagreement, minimal path: String, layers: Int) -> String {
    let all = d.model.subtreeInPreorder
    let name = { (id: LayerID?) in id.map { all[Int($0.rawValue)].name ?? "#\($0.rawValue)" } ?? "nil" }
    let who = d.strategy == .treeWalk ? "the oracle" : "tree-walk"
    return
      "\(d.strategy.rawValue) under \(d.semantics.name), \(d.tree.rawValue) tree, scene \(d.sceneName) (seed \(d.sceneSeed)), t=\(d.time), point \(formatNumber(d.point.x)),\(formatNumber(d.point.y)): got \(name(d.answer)), \(who) \(name(d.expected)); minimal scene: \(path) (\(layers) layers)\n"
      + "  reproduce: hitbench hittest --scene \(path) \(when(d)) --tree \(d.tree.rawValue) --semantics \(d.semantics.name) --strategy \(d.history == nil ? "all" : "tree-walk,\(d.strategy.rawValue)") --point \(d.point.x),\(d.point.y)\(injected(d.faults)) --verify"
  }

  /// The faults a disagreement was found under, as `hittest` takes them (those it can inject).
  static func injected(_ f: InjectedFaults) -> String {
    var out = ""
    if f.shrinkHitRegions > 0 { out += " --inject-shrink \(f.shrinkHitRegions)" }
    if f.staleWindows { out += " --inject-stale-windows" }
    return out
  }

  /// The time of a disagreement as `hittest` takes it: `--time T`, or for one found across
  /// frames the strategy's frames up to it (`--replay`, and its pinned window).
  static func when(_ d: Verifier.Disagreement) -> String {
    guard let h = d.history else { return "--time \(d.time)" }
    return "--replay \(h.replaySpecification)" + (h.windowMilliseconds.map { " --window \($0)" } ?? "")
  }
}

extension String {
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
