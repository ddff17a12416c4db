import BenchKit
import BenchmarkSuites
import FileIO
import HitTesting
import JSON
import LayerModel
import Presentation
import Reports
import SceneFormat
import Scenes
import Tracing
import Verification

/// `hitbench run`: strategies compared frame by frame on a scene, or a named suite.
enum RunCommand {
  static let summary = "Benchmark strategies frame by frame on a scene (or a suite) and report statistics."

  struct Options {
    var config = RunConfiguration()
    var suite: String?
    var format = ReportFormat.table
    var output: String?
    var failures = "run-failures"
    var verifyAll = false
    var instructions = false
    var trace: String?
    var report: String?
    var columns = ReportColumn.defaults
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "run", summary: summary)
    let kinds = SceneKind.allCases.map(\.rawValue).joined(separator: ", ")
    p.option(
      "--scene", \.config.scene, valueName: "KIND|FILE", help: "a scene kind (\(kinds)) or a scene file (default app)",
      expected: "one of \(kinds), or a path to a .json scene file"
    ) { s in
      if let k = SceneKind(rawValue: s) { return .generated(k) }
      return s.hasSuffix(".json") ? .file(s) : nil
    }
    CommonOptions.layers(&p, \.config.layers, default: "10,000")
    p.option(
      "--animated", \.config.animatedFraction, valueName: "F", help: "fraction of layers animated, 0 to 1 (default 1)",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.option(
      "--strategy", \.config.strategies, valueName: "A,B|all", help: "strategies (default all)",
      expected: "a comma-separated list of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")) or all",
      parse: StrategyKind.parseList)
    p.option(
      "--queries", \.config.queries, valueName: "Q[,Q...]", help: "queries per frame (default 100)",
      expected: "comma-separated integers from 1 to 1000000"
    ) { s in
      let qs = (ArgumentValues.list(s) ?? []).map { Int($0) }
      guard !qs.isEmpty, qs.allSatisfy({ $0 != nil && $0! >= 1 && $0! <= 1_000_000 }) else { return nil }
      return qs.map { $0! }
    }
    p.option(
      "--workload", \.config.workload, valueName: "W",
      help: "uniform (default), touch, hover, hotspot or miss",
      expected: "one of \(Workload.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { Workload(rawValue: $0) }
    CommonOptions.integer(
      &p, "--frames", \.config.frames, valueName: "F", help: "measured frames (default 60)", in: 1...100_000)
    CommonOptions.integer(
      &p, "--warmup", \.config.warmup, valueName: "W", help: "warm-up frames, not counted (default 10)", in: 0...100_000
    )
    p.option(
      "--fps", \.config.fps, valueName: "FPS", help: "frame rate: the clock advances 1/FPS a frame (default 120)",
      expected: "a number from 1 to 1000", parse: ArgumentValues.number(in: 1...1000))
    CommonOptions.seed(&p, \.config.seed)
    CommonOptions.semantics(&p, \.config.semantics)
    p.option(
      "--tree", \.config.modelTree, valueName: "TREE",
      help: "presentation (default) or model: which tree the strategies hit-test",
      expected: "presentation or model"
    ) { HitTestTree(rawValue: $0).map { $0 == .model } }
    p.option(
      "--threads", \.config.threads, valueName: "N[,N...]",
      help: "threads for the presentation build (default: the machine's cores, \(RunConfiguration.machineCores)); "
        + "several: every frame strategy runs on each, their turns interleaved",
      expected: "comma-separated integers from 1 to 64, each once"
    ) { s in
      let ns = (ArgumentValues.list(s) ?? []).map { ArgumentValues.integer(in: 1...64)($0) }
      guard !ns.isEmpty, ns.allSatisfy({ $0 != nil }), Set(ns.map { $0! }).count == ns.count else { return nil }
      return ns.map { $0! }
    }
    p.option(
      "--window", optional: \.config.windowSeconds, valueName: "MS",
      help: "a fixed window for the time-aware strategies, in ms (default: chosen by cost)",
      expected: "a number of milliseconds from 1 to 4000"
    ) { ArgumentValues.number(in: 1...4000)($0).map { $0 / 1000 } }
    p.option(
      "--window-cost", \.config.windowCost, valueName: "C",
      help:
        "what a window length chosen by cost minimises: wall (default: the frame's wall time, a background build at a tenth) or cpu (every thread's CPU, a background build in full)",
      expected: "wall or cpu"
    ) { WindowCost(rawValue: $0) }
    p.option(
      "--window-overlap", \.config.windowOverlap, valueName: "F",
      help: "how far past its hand-over a time-aware window's bounds reach, as a share of its length "
        + "(default 0): frames there answer from it while the next is still being built, rather than wait",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.option(
      "--min-windows", \.config.windowsAtLeast, valueName: "N",
      help: "time-aware strategies run past --frames until their measured frames hold N whole windows (up to "
        + "\(RunConfiguration.longestRunFactor)x --frames, or N of the longest windows, 4 s unless --window pins "
        + "them; default 0: exactly --frames; the time-aware suite sets 3)",
      expected: "a number from 0 to 100", parse: ArgumentValues.number(in: 0...100))
    p.option(
      "--pacing", \.config.pacing, valueName: "P",
      help: "real-time (default: each frame starts at its clock time, as at each vsync) or back-to-back",
      expected: "real-time or back-to-back"
    ) { RunConfiguration.Pacing(rawValue: $0) }
    p.option(
      "--interleave", \.config.interleave, valueName: "on|off",
      help: "on (default): strategies take turns in blocks of \(Runner.blockFrames) frames; off: one after another",
      expected: "on or off"
    ) { ["on": true, "off": false][$0] }
    CommonOptions.integer(
      &p, "--repeat", \.config.repeats, valueName: "N",
      help: "repeat the run N times (each strategy afresh, warm-up included); one result of all measured frames, "
        + "its intervals over blocks of every repetition (default 1)", in: 1...100)
    p.option(
      "--budget", \.config.budgetNs, valueName: "MS",
      help: "the frame budget, in ms: results count the frames over it (default 8.33, one frame at 120 Hz)",
      expected: "a number of milliseconds from 0.01 to 10000"
    ) { ArgumentValues.number(in: 0.01...10_000)($0).map { $0 * 1e6 } }
    p.flag(
      "--verify", \.config.verify,
      help: "check answers against tree-walk (untimed; all of them unless a frame's check would walk over 2^25 layers, "
        + "then an evenly spaced share); on a disagreement write no report, only the minimal scenes"
    )
    p.flag(
      "--verify-all", \.verifyAll,
      help:
        "with --verify, check every answer however long the reference walk takes (a million layers: seconds a frame)")
    p.flag(
      "--instructions", \.instructions,
      help:
        "also count instructions per frame by phase under Valgrind's Callgrind (one pass per phase, each about 50x "
        + "slower than the run; exit 69 without valgrind): each result's 'instructions', compared at 1%"
    )
    p.option(
      "--inject-shrink", \.config.faults.shrinkHitRegions, valueName: "D",
      help: "self-test of --verify: the measured strategies answer with every hit region shrunk by D points",
      expected: "a number from 0 to 1", parse: ArgumentValues.number(in: 0...1))
    p.option(
      "--inject-query-delay-ns", optional: \.config.injectedQueryDelay, valueName: "S:NS",
      help:
        "self-test of compare: strategy S's queries busy-wait NS nanoseconds more each frame (scripts/compare-power.sh)",
      expected: "a strategy name, a colon and nanoseconds from 1 to 10^9"
    ) { plantedWork($0) }
    p.option(
      "--inject-query-instructions", optional: \.config.injectedQueryInstructions, valueName: "S:N",
      help:
        "self-test of compare by instructions: strategy S's queries execute N instructions more each frame, "
        + "counted with them (scripts/compare-power.sh)",
      expected: "a strategy name, a colon and a number of instructions from 1 to 10^9"
    ) { plantedWork($0) }
    p.flag(
      "--inject-stale-windows", \.config.faults.staleWindows,
      help:
        "self-test of --verify across frames: the time-aware strategies' windows built ahead bound the window before theirs"
    )
    p.option(
      "--failures", \.failures, valueName: "DIR",
      help:
        "where --verify writes disagreeing scenes (default run-failures; created when missing, checked before the first frame)",
      expected: "a directory", parse: ArgumentValues.path
    )
    p.option(
      "--format", \.format, valueName: "FORMAT", help: "table (default), json, csv or markdown",
      expected: "table, json, csv or markdown"
    ) { ReportFormat(rawValue: $0) }
    p.option(
      "--columns", \.columns, valueName: "A,B|all",
      help: "the table's columns (default \(ReportColumn.defaults.map(\.name).joined(separator: ",")))",
      expected: "a comma-separated list of \(ReportColumn.all.map(\.name).joined(separator: ", ")), or all"
    ) { s in
      if s == "all" { return ReportColumn.all }
      guard let names = ArgumentValues.list(s) else { return nil }
      let columns = names.compactMap(ReportColumn.named)
      return !columns.isEmpty && columns.count == names.count ? columns : nil
    }
    p.option(
      "--output", optional: \.output, valueName: "FILE",
      help:
        "write the report here (atomically; its directory must exist, checked before the first frame) instead of stdout",
      expected: "a file path", parse: ArgumentValues.path
    )
    p.option(
      "--trace", optional: \.trace, valueName: "FILE.json",
      help:
        "also write the run's timeline for Perfetto or chrome://tracing: each frame's build, update and queries, "
        + "build workers' jobs, background window builds, held waits, late windows (checked before the first frame)",
      expected: "a file path", parse: ArgumentValues.path
    )
    p.option(
      "--report", optional: \.report, valueName: "FILE.html",
      help:
        "also write one self-contained HTML page of the results: every frame, their distribution, phases and CPU, "
        + "targets (as hitbench report does; checked before the first frame)",
      expected: "a file path", parse: ArgumentValues.path
    )
    p.option(
      "--suite", optional: \.suite, valueName: "NAME",
      help: "run a suite from Benchmarks/: \(allSuites.map(\.name).joined(separator: ", "))",
      expected: "one of \(allSuites.map(\.name).joined(separator: ", "))"
    ) { name in allSuites.contains { $0.name == name } ? name : nil }
    return p
  }

  /// A planted slowdown's `STRATEGY:AMOUNT`, the amount from 1 to 10^9.
  static func plantedWork(_ v: String) -> (String, UInt64)? {
    let parts = v.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2, StrategyKind(rawValue: parts[0]) != nil, let n = UInt64(parts[1]), n >= 1,
      n <= 1_000_000_000
    else { return nil }
    return (parts[0], n)
  }

  /// The options that say which scene and workload a single-scene verb reads.
  static let sceneOptions = ["--scene", "--layers", "--animated", "--workload", "--seed", "--semantics"]

  /// Adds `run`'s options `names` to another command's parser, writing into its configuration.
  static func borrowOptions<O>(
    _ names: [String], into p: inout ArgumentParser<O>, _ keyPath: WritableKeyPath<O, RunConfiguration>
  ) {
    let borrower = p.command
    for name in names {
      guard let spec = parser.specs.first(where: { $0.name == name }) else { continue }
      p.specs.append(
        .init(name: spec.name, valueName: spec.valueName, help: spec.help) {
          (o: inout O, v: String) throws(CommandError) in
          var r = Options()
          r.config = o[keyPath: keyPath]
          do throws(CommandError) { try spec.apply(&r, v) } catch {
            // The spec was made for `run`: name the command that borrowed it.
            switch error {
            case .usage(_, let message): throw .usage(command: borrower, message: message)
            default: throw error
            }
          }
          o[keyPath: keyPath] = r.config
        })
    }
  }

  /// The configuration's scene: a bad file is bad data (65), a bad size a usage error (64).
  static func loadScene(_ c: RunConfiguration, command: String) throws(CommandError) -> Layer {
    try loadMeasuredScene(c, command: command).model
  }

  /// The scene and the live heap it holds (`MemoryBreakdown.modelBytes`).
  static func loadMeasuredScene(_ c: RunConfiguration, command: String) throws(CommandError) -> (
    model: Layer, bytes: Int
  ) {
    do { return try Runner.measuredScene(c) } catch {
      if case .file = c.scene { throw .data(error.description) }
      throw .usage(command: command, message: error.description)
    }
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let explicit = try parser.parse(args, into: &o).given
    if o.verifyAll && !o.config.verify {
      throw .usage(command: "run", message: "--verify-all needs --verify")
    }
    if o.verifyAll { o.config.verifyVisitsPerFrame = .max }
    var configs = [o.config]
    if let name = o.suite {
      for flag in ["--scene", "--layers", "--animated", "--queries", "--workload"] where explicit.contains(flag) {
        throw .usage(command: "run", message: "\(flag) cannot be combined with --suite (the suite fixes it)")
      }
      let suite = allSuites.first { $0.name == name }!
      configs = suite.configurations.map { c in
        var c = c
        if explicit.contains("--strategy") { c.strategies = o.config.strategies }
        if explicit.contains("--frames") { c.frames = o.config.frames }
        if explicit.contains("--warmup") { c.warmup = o.config.warmup }
        if explicit.contains("--fps") { c.fps = o.config.fps }
        if explicit.contains("--semantics") { c.semantics = o.config.semantics }
        if explicit.contains("--threads") { c.threads = o.config.threads }
        if explicit.contains("--window") { c.windowSeconds = o.config.windowSeconds }
        if explicit.contains("--window-cost") { c.windowCost = o.config.windowCost }
        if explicit.contains("--window-overlap") { c.windowOverlap = o.config.windowOverlap }
        if explicit.contains("--min-windows") { c.windowsAtLeast = o.config.windowsAtLeast }
        if explicit.contains("--budget") { c.budgetNs = o.config.budgetNs }
        if explicit.contains("--pacing") { c.pacing = o.config.pacing }
        if explicit.contains("--interleave") { c.interleave = o.config.interleave }
        if explicit.contains("--repeat") { c.repeats = o.config.repeats }
        c.seed = o.config.seed
        c.verify = o.config.verify
        c.verifyVisitsPerFrame = o.config.verifyVisitsPerFrame
        c.faults = o.config.faults
        c.injectedQueryDelay = o.config.injectedQueryDelay
        c.injectedQueryInstructions = o.config.injectedQueryInstructions
        c.modelTree = o.config.modelTree
        return c
      }
    }
    if let phase = RunConfiguration.countedPhaseUnderValgrind {
      // A pass of `--instructions` under Callgrind: a loop of known length first, then one
      // strategy's frames after another, once, so each strategy's count is a dump of its own.
      RunConfiguration.calibrateInstructionCount()
      for i in configs.indices {
        configs[i].countedPhase = phase
        configs[i].countedConfiguration = i
        if let w = InstructionCounting.pinnedWindows {
          configs[i].countedWindows = InstructionCounting.countedWindows(w, configuration: i)
        }
        configs[i].interleave = false
        configs[i].repeats = 1
      }
    }
    for c in configs {
      if let problem = c.sizeProblem { throw .usage(command: "run", message: problem) }
    }
    // Every output is checked before the first frame: a run of minutes does not end in a
    // report or a disagreement it cannot write.
    do {
      if let path = o.output { try FileIO.checkWritable(path) }
      if let path = o.trace { try FileIO.checkWritable(path) }
      if let path = o.report { try FileIO.checkWritable(path) }
      if o.config.verify { try FileIO.checkDirectoryCreatable(o.failures) }
    } catch { throw .file(error) }
    // A missing Valgrind stops the run before its frames.
    let tools = o.instructions ? try InstructionCounting.tools() : nil
    if o.trace != nil {
      TraceThreads.name("frame")
      Trace.start(capacity: TraceFile.capacity(configs))
    }
    let progress = Progress(total: configs.count, label: "run")
    var results: [Measurement] = []
    // A configuration's model is kept past its run only when it answered wrongly (for the
    // failure report): a suite of million-layer scenes holds one at a time.
    var models: [Layer?] = []
    // Which configuration each result came from (its instruction counts' label).
    var configIndex: [Int] = []
    for (i, c) in configs.enumerated() {
      defer { configIndex += Array(repeating: i, count: results.count - configIndex.count) }
      if Runner.compilesWhileGenerating(c) {
        progress.update(i)
        let measured: [Measurement]
        do { measured = try Runner.runCompilingWhileGenerating(c) { _ in progress.update(i) } } catch {
          throw .usage(command: "run", message: error.description)
        }
        // Never a failure to report: only a verified run can fail.
        results += measured
        models += measured.map { _ in nil }
        continue
      }
      let (model, modelBytes) = try loadMeasuredScene(c, command: "run")
      progress.update(i)
      // Only a verified run can fail; any other hands its model over, to be freed once compiled.
      let kept = c.verify ? model : nil
      let measured = Runner.run(c, model: consume model, modelBytes: modelBytes) { _ in progress.update(i) }
      results += measured
      models += measured.map { $0.failures.isEmpty ? nil : kept }
    }
    progress.finish()
    if let path = o.trace { try TraceFile.write(to: path) }
    let bad = results.reduce(0) { $0 + $1.disagreements }
    if let tools, bad == 0 {
      // Counted after the timed run, with the windows its time-aware strategies chose.
      let windows = InstructionCounting.windows(results, configurations: configIndex)
      // The candidates pass only where a strategy measures a cost per candidate.
      let phases = CountedPhase.allCases.filter {
        $0 != .candidates || results.contains { $0.family == StrategyFamily.timeAware.rawValue }
      }
      let counted = try InstructionCounting.count(args, tools: tools, windows: windows, phases: phases)
      for i in results.indices {
        results[i].instructions = try InstructionCounting.instructions(
          counted, index: i, results[i], configuration: configIndex[i])
      }
    }
    if bad > 0 {
      // A result that answered wrongly is not a result: report the disagreements instead.
      try reportFailures(results, models, configs: configs, directory: o.failures)
      throw .failed("\(bad) answers disagree with tree-walk (--verify); no report was written")
    }
    if !explicit.contains("--columns") && configs.contains(where: { $0.threads.count > 1 }),
      !o.columns.contains(where: { $0.name == "threads" })
    {
      // Rows of one strategy on several thread counts: each says its count.
      let after = (o.columns.firstIndex { $0.name == "family" } ?? o.columns.firstIndex { $0.name == "strategy" })
      o.columns.insert(.threads, at: after.map { $0 + 1 } ?? 0)
    }
    if o.instructions && !explicit.contains("--columns") {
      // The counts beside the times, before the note.
      let note = o.columns.last?.name == "note" ? [o.columns.removeLast()] : []
      o.columns += ReportColumn.instructionColumns + note
    }
    let command = "hitbench run " + args.joined(separator: " ")
    let suite = o.suite.flatMap { name in allSuites.first { $0.name == name } }
    let report = RunReport(
      meta: .current(seed: o.config.seed, command: command), results: results, suite: suite?.name,
      thresholds: suite?.thresholds ?? Suite.defaultThresholds, targets: suite?.evaluateTargets(results) ?? [],
      columns: o.columns)
    let text = report.render(o.format)
    if let path = o.report {
      // The page is made from the results document, as `hitbench report` makes it from a file.
      let page: String
      let picture = try reportPicture(results, configs: configs, configIndex: configIndex)
      do {
        page = try ReportPage.html(
          [(suite.map { "suite \($0.name)" } ?? "run", report.json())], pictures: picture.map { [$0] } ?? [])
      } catch {
        throw .failed("--report: \(error.description)")
      }
      do { try FileIO.writeAtomically(page, to: path) } catch { throw .file(error) }
    }
    if let path = o.output {
      do { try FileIO.writeAtomically(text, to: path) } catch { throw .file(error) }
    } else {
      Output.out(text)
    }
    let verified = results.reduce(0) { $0 + $1.verifiedAnswers }
    let tolerated = results.reduce(0) { $0 + $1.toleratedAnswers }
    if AnswerComparison.toleratedShareExceedsLimit(tolerated: tolerated, comparisons: verified) {
      throw .failed(
        "\(tolerated) of \(verified) answers differ from tree-walk within rounding: more than the "
          + "\(formatNumber(AnswerComparison.toleratedShareLimit * 100))% a verification may tolerate (--verify)")
    }
  }

  /// The frames a strategy went through up to a disagreement (the run's frames 0 to f.frame, at
  /// i / fps), with the window that makes a replay of them disagree: the run's pinned window,
  /// else (chosen by cost) none pinned if that disagrees, else the length the strategy had at the
  /// frame. nil for a fresh strategy's first frame.
  static func replayedHistory(
    _ d: Verifier.Disagreement, _ f: Measurement.Failure, _ c: RunConfiguration, layers: Int
  ) -> FrameHistory? {
    // The first frame: a fresh instance at one time.
    guard f.frame > 0 else { return nil }
    let runs = [FrameHistory.Run(start: 0, frames: f.frame + 1, fps: c.fps)]
    if let w = c.windowSeconds { return FrameHistory(runs: runs, windowMilliseconds: w * 1000) }
    // Trying a window replays the frames over the whole scene: not on a large scene's long run.
    guard Double(f.frame + 1) * Double(layers) <= 5e7 else { return FrameHistory(runs: runs) }
    var candidates = [FrameHistory(runs: runs)]
    if f.windowSeconds > 0 { candidates.append(FrameHistory(runs: runs, windowMilliseconds: f.windowSeconds * 1000)) }
    for h in candidates
    where Verifier.stillDisagrees(
      d.model, time: d.time, semantics: d.semantics, tree: d.tree, strategy: d.strategy, point: d.point,
      faults: d.faults, history: h)
    {
      return h
    }
    return candidates[0]
  }

  /// Prints each disagreement `--verify` kept (strategy, tree, time, point, both answers) with a
  /// minimal scene written under `directory` and the command that reproduces it.
  static func reportFailures(
    _ results: [Measurement], _ models: [Layer?], configs: [RunConfiguration], directory: String
  ) throws(CommandError) {
    do { try FileIO.makeDirectories(directory) } catch { throw .file(error) }
    var n = 0
    for (m, model) in zip(results, models) where !m.failures.isEmpty {
      guard let model else { continue }
      guard let kind = StrategyKind(rawValue: m.strategy),
        let c = configs.first(where: { $0.scene.name == m.scene && $0.semantics.name == m.semantics })
      else { continue }
      for f in m.failures.prefix(2) {
        n += 1
        var d = Verifier.Disagreement(
          sceneSeed: c.seed, sceneName: "\(m.scene) \(m.layers)", time: f.time, semantics: c.semantics,
          tree: c.modelTree ? .model : .presentation, strategy: kind, point: f.point, expected: f.expected,
          answer: f.answer, model: model, faults: c.faults)
        d.history = replayedHistory(d, f, c, layers: m.layers)
        // Each check of the minimisation replays the frames: fewer checks on long runs of large scenes.
        let work = Double(d.history?.times.count ?? 1) * Double(Swift.max(m.layers, 1))
        let minimal = Verifier.minimize(d, budget: Int(Swift.max(20, Swift.min(400, 2e7 / work))))
        let path = "\(directory)/disagreement-\(n).json"
        do throws(FileIOError) { try SceneFile.write(minimal, to: path) } catch { throw .file(error) }
        Output.out(DisagreementReport.line(d, minimal: path, layers: minimal.subtreeInPreorder.count) + "\n")
        if d.history != nil
          && !Verifier.stillDisagrees(
            minimal, time: d.time, semantics: d.semantics, tree: d.tree, strategy: d.strategy, point: d.point,
            faults: d.faults, history: d.history)
        {
          Output.out(
            "  (this replay agrees: the run's windows were chosen by the time its frames took, which a replay does not repeat)\n"
          )
        }
      }
    }
  }
}
