import JSON

/// The output formats of `hitbench run`.
public enum ReportFormat: String, CaseIterable, Sendable {
  case table, json, csv, markdown
}

/// A run's metadata, results, and (for a suite) its thresholds and target verdicts, rendered in
/// any format. JSON follows docs/results-schema.md.
public struct RunReport: Sendable {
  public var meta: RunMeta
  public var results: [Measurement]
  /// The suite that was run, if any.
  public var suite: String?
  /// What `compare` checks, per metric (the suite's, or `Suite.defaultThresholds`).
  public var thresholds: [Metric: Threshold]
  /// The suite's targets, evaluated on `results`.
  public var targets: [(name: String, verdict: TargetVerdict)]

  public init(
    meta: RunMeta, results: [Measurement], suite: String? = nil,
    thresholds: [Metric: Threshold] = Suite.defaultThresholds, targets: [(name: String, verdict: TargetVerdict)] = []
  ) {
    self.meta = meta
    self.results = results
    self.suite = suite
    self.thresholds = thresholds
    self.targets = targets
  }

  public func render(_ format: ReportFormat) -> String {
    switch format {
    case .table: table()
    case .json: json().serialized(indent: 1) + "\n"
    case .csv: csv()
    case .markdown: markdown()
    }
  }

  /// The same configuration's tree-walk result, for the speed-up column.
  func baseline(_ m: Measurement) -> Measurement? {
    results.first {
      $0.strategy == "tree-walk" && $0.scene == m.scene && $0.layers == m.layers
        && $0.queriesPerFrame == m.queriesPerFrame && $0.workload == m.workload
        && $0.animatedFraction == m.animatedFraction && $0.semantics == m.semantics && $0.tree == m.tree
    }
  }

  static let columns = [
    "strategy", "family", "scene", "layers", "Q", "frame us", "p90 us", "build us", "update us", "queries us",
    "ns/query", "vs tree-walk", "rows/frame", "allocs/frame", "tested/query", "index KiB", "q-floor x", "u-floor x", "",
  ]

  func rows() -> [[String]] {
    results.map { m in
      let speedup = baseline(m).map { b in m.frameNs.median > 0 ? b.frameNs.median / m.frameNs.median : 0 }
      return [
        m.strategy, m.family, m.scene, "\(m.layers)", "\(m.queriesPerFrame)", _fixed(m.frameNs.median / 1000, 1),
        _fixed(m.frameNs.p90 / 1000, 1), _fixed(m.presentationNs.median / 1000, 1), _fixed(m.updateNs.median / 1000, 1),
        _fixed(m.queriesNs.median / 1000, 1), _fixed(m.nsPerQuery, 1), speedup.map { _fixed($0, 1) + "x" } ?? "-",
        _fixed(m.rowsRecomputedPerFrame, 0), _fixed(m.allocationsPerFrame, 1), _fixed(m.testedPerQuery, 1),
        _fixed(Double(m.indexBytes) / 1024, 0), _fixed(m.queryFloorRatio, 1), _fixed(m.updateFloorRatio, 1),
        (m.noisy ? "noisy" : "") + (m.disagreements > 0 ? " DISAGREES(\(m.disagreements))" : ""),
      ]
    }
  }

  func table() -> String {
    let all = [Self.columns] + rows()
    var widths = [Int](repeating: 0, count: Self.columns.count)
    for r in all { for (i, c) in r.enumerated() { widths[i] = Swift.max(widths[i], c.count) } }
    var out = ""
    for (k, r) in all.enumerated() {
      var line = ""
      for (i, c) in r.enumerated() {
        let pad = String(repeating: " ", count: widths[i] - c.count)
        line += (i < 3 || i == r.count - 1 ? c + pad : pad + c) + "  "
      }
      out += String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
      if k == 0 { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * widths.count - 2) + "\n" }
    }
    out += "frame = build (the columns the strategy reads) + update + queries, median of \(results.first?.frames ?? 0) "
    out += "frames; vs tree-walk = tree-walk's frame / this frame; floors: docs/results-schema.md\n"
    for t in targets { out += "target: \(t.name): \(t.verdict.status.rawValue) (\(t.verdict.measured))\n" }
    return out
  }

  func markdown() -> String {
    var out = "| " + Self.columns.dropLast().joined(separator: " | ") + " | note |\n"
    out += "|" + String(repeating: "---|", count: Self.columns.count) + "\n"
    for r in rows() { out += "| " + r.joined(separator: " | ") + " |\n" }
    return out
  }

  /// Every result field with its value, in schema order (JSON and CSV share it).
  static func fields(_ m: Measurement) -> [(String, JSONValue)] {
    func summary(_ s: Summary) -> JSONValue {
      .object([
        ("min", .number(s.min)), ("median", .number(s.median)), ("p90", .number(s.p90)), ("p99", .number(s.p99)),
        ("mad", .number(s.mad)), ("mean", .number(s.mean)),
      ])
    }
    return [
      ("strategy", .string(m.strategy)), ("family", .string(m.family)), ("scene", .string(m.scene)),
      ("layers", .number(Double(m.layers))), ("animatedFraction", .number(m.animatedFraction)),
      ("queriesPerFrame", .number(Double(m.queriesPerFrame))), ("workload", .string(m.workload)),
      ("semantics", .string(m.semantics)), ("tree", .string(m.tree)), ("frames", .number(Double(m.frames))),
      ("threads", .number(Double(m.threads))),
      ("frameNs", summary(m.frameNs)), ("hitTestNs", summary(m.hitTestNs)),
      ("presentationNs", summary(m.presentationNs)), ("buildTimingNs", summary(m.buildTimingNs)),
      ("buildOrderNs", summary(m.buildOrderNs)), ("buildComposeNs", summary(m.buildComposeNs)),
      ("updateNs", summary(m.updateNs)), ("queriesNs", summary(m.queriesNs)), ("nsPerQuery", .number(m.nsPerQuery)),
      ("rowsRecomputedPerFrame", .number(m.rowsRecomputedPerFrame)),
      ("presentationsPerQuery", .number(m.presentationsPerQuery)),
      ("candidatesPerQuery", .number(m.candidatesPerQuery)), ("reindexedPerFrame", .number(m.reindexedPerFrame)),
      ("unboundedLayers", .number(m.unboundedLayers)), ("windowMs", .number(m.windowMs)),
      ("windowPinned", .bool(m.windowPinned)),
      ("allocationsPerFrame", .number(m.allocationsPerFrame)),
      ("bytesAllocatedPerFrame", .number(m.bytesAllocatedPerFrame)),
      ("peakResidentBytes", .number(Double(m.peakResidentBytes))), ("indexBytes", .number(Double(m.indexBytes))),
      ("testedPerQuery", .number(m.testedPerQuery)), ("queryFloorNs", .number(m.queryFloorNs)),
      ("updateFloorNs", .number(m.updateFloorNs)), ("queryFloorRatio", .number(m.queryFloorRatio)),
      ("updateFloorRatio", .number(m.updateFloorRatio)), ("noisy", .bool(m.noisy)),
      ("verifiedAnswers", .number(Double(m.verifiedAnswers))),
      ("toleratedAnswers", .number(Double(m.toleratedAnswers))), ("disagreements", .number(Double(m.disagreements))),
    ]
  }

  /// One flat row per result: scalars as they are, summaries as their median (and the frame's
  /// p90, p99, min, MAD and mean).
  func csv() -> String {
    guard let first = results.first else { return "" }
    var header: [String] = []
    for (k, v) in Self.fields(first) {
      if case .object = v {
        header.append(k + "Median")
        if k == "frameNs" { header += ["frameNsP90", "frameNsP99", "frameNsMin", "frameNsMad", "frameNsMean"] }
      } else {
        header.append(k)
      }
    }
    var out = header.joined(separator: ",") + "\n"
    for m in results {
      var row: [String] = []
      for (k, v) in Self.fields(m) {
        switch v {
        case .string(let s): row.append(s.contains(",") || s.contains("\"") ? "\"\(s.replacingQuotes)\"" : s)
        case .number(let d): row.append("\(d)")
        case .bool(let b): row.append("\(b)")
        case .object:
          row.append("\(v["median"].flatMap { if case .number(let d) = $0 { d } else { nil } } ?? 0)")
          if k == "frameNs" {
            for key in ["p90", "p99", "min", "mad", "mean"] {
              row.append("\(v[key].flatMap { if case .number(let d) = $0 { d } else { nil } } ?? 0)")
            }
          }
        default: row.append("")
        }
      }
      out += row.joined(separator: ",") + "\n"
    }
    return out
  }

  public func json() -> JSONValue {
    var metaFields: [(String, JSONValue)] = [
      ("schema", .string("hitbench-results/2")), ("toolchain", .string(meta.toolchain)),
      ("buildFlags", .string(meta.buildFlags)), ("cpuModel", .string(meta.cpuModel)),
      ("cores", .number(Double(meta.cores))), ("memoryBytes", .number(Double(meta.memoryBytes))),
      ("gitCommit", .string(meta.gitCommit)), ("seed", .number(Double(meta.seed))), ("command", .string(meta.command)),
      ("date", .string(meta.date)),
    ]
    if let suite { metaFields.append(("suite", .string(suite))) }
    let thresholdValues: [(String, JSONValue)] = Metric.allCases.compactMap { metric in
      thresholds[metric].map {
        (metric.rawValue, .object([("relative", .number($0.relative)), ("absolute", .number($0.absolute))]))
      }
    }
    let targetValues: [JSONValue] = targets.map {
      .object([
        ("name", .string($0.name)), ("status", .string($0.verdict.status.rawValue)),
        ("measured", .string($0.verdict.measured)),
      ])
    }
    return .object([
      ("meta", .object(metaFields)), ("thresholds", .object(thresholdValues)), ("targets", .array(targetValues)),
      ("results", .array(results.map { .object(Self.fields($0)) })),
    ])
  }
}

extension String {
  fileprivate var replacingQuotes: String {
    split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
  }
}

/// A number with `digits` decimals.
func _fixed(_ v: Double, _ digits: Int) -> String {
  guard v.isFinite else { return "\(v)" }
  var p = 1.0
  for _ in 0..<digits { p *= 10 }
  let r = (v * p).rounded() / p
  if digits == 0 { return String(Int64(r)) }
  var s = "\(r)"
  if s.contains("e") { return s }
  let dot = s.firstIndex(of: ".").map { s.distance(from: s.startIndex, to: $0) } ?? s.count
  if !s.contains(".") { s += "." }
  while s.count - dot - 1 < digits { s += "0" }
  return s
}
