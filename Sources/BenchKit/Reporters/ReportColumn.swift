/// A column of the terminal table and the Markdown table (`hitbench run --columns`): its name
/// on the command line, its header, and its cell for a result. JSON and CSV carry every field
/// whatever the columns. Times are per frame, in microseconds (`ReportColumn.microseconds`).
public struct ReportColumn: Sendable, Hashable {
  /// The name `--columns` takes.
  public let name: String
  public let header: String
  /// One line for `--help` and docs/results-schema.md.
  public let meaning: String
  /// Whether the cell is text (left-aligned) rather than a number.
  public let isText: Bool
  /// Whether the column describes the configuration rather than the strategy's result (the
  /// table groups results by the configuration columns it does not show).
  public let isConfiguration: Bool
  let _cell: @Sendable (Measurement, RunReport) -> String

  init(
    _ name: String, _ header: String, _ meaning: String, text: Bool = false, configuration: Bool = false,
    _ cell: @escaping @Sendable (Measurement, RunReport) -> String
  ) {
    self.name = name
    self.header = header
    self.meaning = meaning
    isText = text
    isConfiguration = configuration
    _cell = cell
  }

  public func cell(_ m: Measurement, in report: RunReport) -> String { _cell(m, report) }

  public static func == (a: ReportColumn, b: ReportColumn) -> Bool { a.name == b.name }
  public func hash(into h: inout Hasher) { h.combine(name) }

  /// A time in ns as microseconds, at most 7 characters up to 10 s: two decimals below 10 us,
  /// one below 1000 us, none above.
  public static func microseconds(_ ns: Double) -> String {
    let us = ns / 1000
    return _fixed(us, us < 10 ? 2 : (us < 1000 ? 1 : 0))
  }

  /// What the default table shows: 120 columns wide with the longest names.
  public static let defaults: [ReportColumn] = [
    .strategy, .family, .queries, .mean, .meanInterval, .p99, .build, .update, .queriesTime, .cpu, .cpuPerWall,
    .overBudget,
    .allocations, .note,
  ]

  /// The column named `name`.
  public static func named(_ name: String) -> ReportColumn? { all.first { $0.name == name } }

  /// Every column, in the order `--columns all` shows them.
  public static let all: [ReportColumn] = [
    .strategy, .family, .scene, .layers, .animated, .workload, .semantics, .tree, .pacing, .threads, .frames, .queries,
    .mean, .meanInterval,
    .p99, .max, .median, .p90, .min, .stddev, .build, .update, .queriesTime, .hitTest, .cpu, .cpuThread, .cpuHelpers,
    .cpuPerWall, .overBudget, .allocations, .bytes, .nsPerQuery, .nsPerCandidate, .candidates, .tested, .rows,
    .reindexed, .windowMs, .windows, .late,
    .indexKiB, .memory, .peak, .queryFloor, .updateFloor, .speedup, .instructions, .instructionsBuild,
    .instructionsUpdate, .instructionsQueries, .instructionsBackground, .instructionsPerQuery,
    .instructionsPerCandidate, .note,
  ]

  /// The instruction columns a table adds to its columns when its results counted them
  /// (`run --instructions`).
  public static let instructionColumns: [ReportColumn] = [
    .instructions, .instructionsBackground, .instructionsPerQuery, .instructionsPerCandidate,
  ]

  static let instructions = _counted(
    "instructions", "instr/frame", "instructions per frame, build + update + queries", \.framePerFrame)
  static let instructionsBuild = _counted(
    "instructions-build", "instr build", "instructions per frame of the presentation build", \.buildPerFrame)
  static let instructionsUpdate = _counted(
    "instructions-update", "instr update", "instructions per frame of the strategy's update", \.updatePerFrame)
  static let instructionsQueries = _counted(
    "instructions-queries", "instr queries", "instructions per frame of the queries", \.queriesPerFrame)
  static let instructionsBackground = _counted(
    "instructions-background", "instr bg", "instructions per frame of background window builds",
    \.backgroundPerFrame)
  static let instructionsPerQuery = _counted(
    "instructions-query", "instr/q", "instructions per query", \.perQuery)
  static let instructionsPerCandidate = ReportColumn(
    "instructions-candidate", "instr/cand",
    "instructions per candidate of a time-aware strategy's own work, its lazy evaluation and exact test, less "
      + "its index's (--instructions; '-' for other strategies)"
  ) { m, _ in
    m.instructions.flatMap { $0.perCandidate > 0 ? formatCount($0.perCandidate) : nil } ?? "-"
  }

  /// A column of one instruction count (`--instructions`), "-" for a result without counts.
  static func _counted(
    _ name: String, _ header: String, _ meaning: String, _ count: KeyPath<InstructionCounts, Double> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, header, meaning + " (--instructions)") { m, _ in
      m.instructions.map { formatCount($0[keyPath: count]) } ?? "-"
    }
  }

  static let strategy = ReportColumn("strategy", "strategy", "the strategy's CLI name", text: true) { m, _ in
    m.strategy
  }
  static let family = ReportColumn("family", "family", "rebuild, lazy, time-aware or peer", text: true) { m, _ in
    m.family
  }
  static let scene = ReportColumn("scene", "scene", "scene kind or file", text: true, configuration: true) { m, _ in
    m.scene
  }
  static let layers = ReportColumn("layers", "layers", "layers in the scene", configuration: true) { m, _ in
    "\(m.layers)"
  }
  static let animated = ReportColumn("animated", "anim", "share of layers animated", configuration: true) { m, _ in
    _fixed(m.animatedFraction, 2)
  }
  static let workload = ReportColumn("workload", "workload", "where the points fall", text: true, configuration: true) {
    m, _ in m.workload
  }
  static let semantics = ReportColumn(
    "semantics", "semantics", "calayer, calayer-seed or uiview", text: true, configuration: true
  ) { m, _ in m.semantics }
  static let tree = ReportColumn("tree", "tree", "presentation or model tree", text: true, configuration: true) {
    m, _ in m.tree
  }
  static let pacing = ReportColumn(
    "pacing", "pacing", "real-time or back-to-back frames", text: true, configuration: true
  ) { m, _ in m.pacing }
  public static let threads = ReportColumn("threads", "thr", "threads of the presentation build", configuration: true) {
    m, _ in "\(m.threads)"
  }
  static let frames = ReportColumn("frames", "frames", "measured frames") { m, _ in "\(m.frames)" }
  static let queries = ReportColumn("queries", "Q", "queries per frame") { m, _ in "\(m.queriesPerFrame)" }
  /// A column of a time in ns read off a result, shown in microseconds.
  static func _time(
    _ name: String, _ header: String, _ meaning: String, _ ns: @escaping @Sendable (Measurement) -> Double
  ) -> ReportColumn {
    ReportColumn(name, header, meaning) { m, _ in microseconds(ns(m)) }
  }

  // The end-to-end frame's statistics.
  static let mean = _time("mean", "mean", "end-to-end frame, mean (throughput)") { $0.frameNs.mean }
  static let meanInterval = ReportColumn(
    "mean-ci", "+-mean",
    "half the 95% interval of the mean, in % of it (over blocks of 10 frames; - with fewer than two)"
  ) { m, _ in
    guard let i = m.intervals[.frameNsMean], m.frameNs.mean > 0 else { return "-" }
    return _fixed((i.high - i.low) / 2 / m.frameNs.mean * 100, 1) + "%"
  }
  static let p99 = _time("p99", "p99", "end-to-end frame, 99th percentile (smoothness)") { $0.frameNs.p99 }
  static let max = _time("max", "max", "the slowest frame") { $0.frameNs.max }
  static let median = _time("median", "median", "end-to-end frame, median (information)") { $0.frameNs.median }
  static let p90 = _time("p90", "p90", "end-to-end frame, 90th percentile") { $0.frameNs.p90 }
  static let min = _time("min", "min", "the fastest frame") { $0.frameNs.min }
  static let stddev = _time("stddev", "stddev", "standard deviation of the frame") { $0.frameNs.stddev }

  // Its parts, and what it cost the process.
  static let build = _time("build", "build", "presentation build (mean; 0 for scene strategies)") {
    $0.presentationNs.mean
  }
  static let update = _time("update", "update", "the strategy's update (mean)") { $0.updateNs.mean }
  static let queriesTime = _time("queries-time", "queries", "the Q queries (mean)") { $0.queriesNs.mean }
  static let hitTest = _time("hittest", "hittest", "update + queries (mean)") { $0.hitTestNs.mean }
  static let cpu = _time("cpu", "cpu", "process CPU time per frame, every thread (mean)") { $0.cpuNs.mean }
  static let cpuThread = _time("cpu-thread", "cpu thr", "CPU of the frame's own thread (mean)") { $0.cpuThreadNs.mean }
  static let cpuHelpers = _time(
    "cpu-helpers", "cpu help", "CPU of helper threads: build workers + background builders (mean)"
  ) { $0.cpuBuildWorkersNs.mean + $0.cpuBackgroundNs.mean }
  static let cpuPerWall = ReportColumn("cpu-wall", "cpu/wall", "CPU per frame over the wall frame (means)") { m, _ in
    _fixed(m.cpuPerWall, 2)
  }
  static let overBudget = ReportColumn("over-budget", ">budget", "frames longer than the budget (--budget)") { m, _ in
    "\(m.framesOverBudget)"
  }
  static let allocations = ReportColumn("allocs", "allocs", "heap allocations per frame (jemalloc)") { m, _ in
    m.allocationsPerFrame == 0 ? "0" : _fixed(m.allocationsPerFrame, 2)
  }
  static let bytes = ReportColumn("bytes", "bytes", "bytes allocated per frame") { m, _ in
    _fixed(m.bytesAllocatedPerFrame, 0)
  }
  static let nsPerQuery = ReportColumn("ns-query", "ns/query", "queries' mean / Q") { m, _ in _fixed(m.nsPerQuery, 1) }
  static let nsPerCandidate = ReportColumn(
    "ns-candidate", "ns/cand", "cost of one time-aware candidate (lazy evaluation + exact test)"
  ) { m, _ in m.nsPerCandidate > 0 ? _fixed(m.nsPerCandidate, 1) : "-" }
  static let candidates = ReportColumn("candidates", "cand/q", "exact-tested candidates per query") { m, _ in
    _fixed(m.candidatesPerQuery, 1)
  }
  static let tested = ReportColumn("tested", "tested/q", "boxes or nodes tested per query") { m, _ in
    _fixed(m.testedPerQuery, 1)
  }
  static let rows = ReportColumn("rows", "rows", "rows the build recomputed per frame") { m, _ in
    _fixed(m.rowsRecomputedPerFrame, 0)
  }
  static let reindexed = ReportColumn("reindexed", "reindex", "index entries rebuilt per frame") { m, _ in
    _fixed(m.reindexedPerFrame, 0)
  }
  static let windowMs = ReportColumn("window-ms", "win ms", "a time-aware strategy's window") { m, _ in
    m.windowMs > 0 ? _fixed(m.windowMs, 1) + (m.windowPinned ? "*" : "") : "-"
  }
  static let windows = ReportColumn("windows", "windows", "windows the measured frames span") { m, _ in
    m.windowsHeld > 0 ? _fixed(m.windowsHeld, 1) : "-"
  }
  static let late = ReportColumn(
    "late", "late/waited",
    "measured frames answered from a window past its hand-over (the next not yet built) / frames that waited for it"
  ) { m, _ in
    m.windowMs > 0 ? "\(m.lateFrames)/\(m.waitedFrames)" : "-"
  }
  static let indexKiB = ReportColumn("index-kib", "KiB", "the strategy's memory footprint") { m, _ in
    _fixed(Double(m.indexBytes) / 1024, 0)
  }
  static let memory = ReportColumn(
    "memory", "B/layer m+s+f+x", "live heap per layer: model + compiled scene + frame + strategy (jemalloc)"
  ) { m, _ in
    let n = Double(Swift.max(m.layers, 1))
    let b = m.memory
    return [b.modelBytes, b.compiledSceneBytes, b.frameBytes, b.strategyBytes].map { _fixed(Double($0) / n, 0) }
      .joined(separator: "+")
  }
  static let peak = ReportColumn("peak", "peak B/layer", "the process's peak resident memory per layer") { m, _ in
    _fixed(Double(m.peakResidentBytes) / Double(Swift.max(m.layers, 1)), 0)
  }
  static let queryFloor = ReportColumn("query-floor", "q-floor x", "ns per query / the query floor") { m, _ in
    _fixed(m.queryFloorRatio, 1)
  }
  static let updateFloor = ReportColumn("update-floor", "u-floor x", "update mean / the update floor") { m, _ in
    _fixed(m.updateFloorRatio, 1)
  }
  static let speedup = ReportColumn("speedup", "vs walk", "tree-walk's mean frame / this one") { m, report in
    guard let b = report.baseline(m), m.frameNs.mean > 0 else { return "-" }
    return formatRatio(b.frameNs.mean / m.frameNs.mean) + "x"
  }
  static let note = ReportColumn(
    "note", "",
    "noisy (p99 or MAD spread), DISAGREES(n) with --verify, 'N of M windows: not comparable' (a windowed strategy held fewer whole windows than asked), 'host busy (N cores)' (other programs ran that many cores on average during its turns: its times are the busy host's)",
    text: true
  ) { m, _ in
    [
      m.noisy ? "noisy" : "", m.disagreements > 0 ? "DISAGREES(\(m.disagreements))" : "",
      m.holdsTooFewWindows
        ? "\(_fixed(m.windowsHeld, 1)) of \(_fixed(Swift.max(m.windowsWanted, 1), 0)) windows: not comparable" : "",
      m.hostWasBusy ? "host busy (\(_fixed(m.hostOtherCores ?? 0, 1)) cores)" : "",
    ].filter { !$0.isEmpty }.joined(separator: " ")
  }
}
