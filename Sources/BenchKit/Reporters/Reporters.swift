import FileIO
import JSON
import LayerModel
import Presentation
import SceneFormat
import Verification

/// The output formats of `hitbench run`.
public enum ReportFormat: String, CaseIterable, Sendable {
  case table, json, csv, markdown
}

/// A run's metadata and results, rendered in any format. JSON follows docs/results-schema.md.
public struct RunReport: Sendable {
  public var meta: RunMeta
  public var results: [Measurement]

  public init(meta: RunMeta, results: [Measurement]) {
    self.meta = meta
    self.results = results
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
        && $0.animatedFraction == m.animatedFraction && $0.semantics == m.semantics
    }
  }

  static let columns = [
    "strategy", "scene", "layers", "Q", "workload", "frame us", "p90 us", "update us", "queries us", "ns/query",
    "vs tree-walk", "allocs/frame", "tested/query", "index KiB", "q-floor x", "u-floor x", "",
  ]

  func rows() -> [[String]] {
    results.map { m in
      let speedup = baseline(m).map { b in m.frameNs.median > 0 ? b.frameNs.median / m.frameNs.median : 0 }
      return [
        m.strategy, m.scene, "\(m.layers)", "\(m.queriesPerFrame)", m.workload, _fixed(m.frameNs.median / 1000, 1),
        _fixed(m.frameNs.p90 / 1000, 1), _fixed(m.updateNs.median / 1000, 1), _fixed(m.queriesNs.median / 1000, 1),
        _fixed(m.nsPerQuery, 1), speedup.map { _fixed($0, 1) + "x" } ?? "-", _fixed(m.allocationsPerFrame, 1),
        _fixed(m.testedPerQuery, 1), _fixed(Double(m.indexBytes) / 1024, 0), _fixed(m.queryFloorRatio, 1),
        _fixed(m.updateFloorRatio, 1),
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
        line += (i < 2 || i == 4 || i == r.count - 1 ? c + pad : pad + c) + "  "
      }
      out += String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
      if k == 0 { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * widths.count - 2) + "\n" }
    }
    out += "frame = update + queries (median of \(results.first?.frames ?? 0) frames); "
    out += "vs tree-walk = tree-walk's frame / this frame; floors: docs/results-schema.md\n"
    return out
  }

  func markdown() -> String {
    var out = "| " + Self.columns.dropLast().joined(separator: " | ") + " | note |\n"
    out += "|" + String(repeating: "---|", count: Self.columns.count) + "\n"
    for r in rows() { out += "| " + r.joined(separator: " | ") + " |\n" }
    return out
  }

  static let csvColumns = [
    "strategy", "scene", "layers", "animatedFraction", "queriesPerFrame", "workload", "semantics", "frames",
    "presentationNsMedian", "updateNsMedian", "updateNsP90", "queriesNsMedian", "queriesNsP90", "frameNsMin",
    "frameNsMedian", "frameNsP90", "frameNsP99", "frameNsMad", "nsPerQuery", "allocationsPerFrame",
    "bytesAllocatedPerFrame", "peakResidentBytes", "indexBytes", "testedPerQuery", "queryFloorNs", "updateFloorNs",
    "queryFloorRatio", "updateFloorRatio", "noisy", "verifiedAnswers", "toleratedAnswers", "disagreements",
  ]

  func csv() -> String {
    var out = Self.csvColumns.joined(separator: ",") + "\n"
    for m in results {
      let v: [String] = [
        m.strategy, m.scene.contains(",") ? "\"\(m.scene)\"" : m.scene, "\(m.layers)", "\(m.animatedFraction)",
        "\(m.queriesPerFrame)", m.workload, m.semantics, "\(m.frames)", "\(m.presentationNs.median)",
        "\(m.updateNs.median)", "\(m.updateNs.p90)", "\(m.queriesNs.median)", "\(m.queriesNs.p90)",
        "\(m.frameNs.min)", "\(m.frameNs.median)", "\(m.frameNs.p90)", "\(m.frameNs.p99)", "\(m.frameNs.mad)",
        "\(m.nsPerQuery)", "\(m.allocationsPerFrame)", "\(m.bytesAllocatedPerFrame)", "\(m.peakResidentBytes)",
        "\(m.indexBytes)", "\(m.testedPerQuery)", "\(m.queryFloorNs)", "\(m.updateFloorNs)", "\(m.queryFloorRatio)",
        "\(m.updateFloorRatio)", "\(m.noisy)", "\(m.verifiedAnswers)", "\(m.toleratedAnswers)", "\(m.disagreements)",
      ]
      out += v.joined(separator: ",") + "\n"
    }
    return out
  }

  public func json() -> JSONValue {
    func summary(_ s: Summary) -> JSONValue {
      .object([
        ("min", .number(s.min)), ("median", .number(s.median)), ("p90", .number(s.p90)), ("p99", .number(s.p99)),
        ("mad", .number(s.mad)),
      ])
    }
    let meta = JSONValue.object([
      ("schema", .string("hitbench-results/1")), ("toolchain", .string(meta.toolchain)),
      ("buildFlags", .string(meta.buildFlags)), ("cpuModel", .string(meta.cpuModel)),
      ("cores", .number(Double(meta.cores))), ("memoryBytes", .number(Double(meta.memoryBytes))),
      ("gitCommit", .string(meta.gitCommit)), ("seed", .number(Double(meta.seed))), ("command", .string(meta.command)),
      ("date", .string(meta.date)),
    ])
    let results: [JSONValue] = results.map { m in
      .object([
        ("strategy", .string(m.strategy)), ("scene", .string(m.scene)), ("layers", .number(Double(m.layers))),
        ("animatedFraction", .number(m.animatedFraction)), ("queriesPerFrame", .number(Double(m.queriesPerFrame))),
        ("workload", .string(m.workload)), ("semantics", .string(m.semantics)), ("frames", .number(Double(m.frames))),
        ("presentationNs", summary(m.presentationNs)), ("updateNs", summary(m.updateNs)),
        ("queriesNs", summary(m.queriesNs)), ("frameNs", summary(m.frameNs)), ("nsPerQuery", .number(m.nsPerQuery)),
        ("allocationsPerFrame", .number(m.allocationsPerFrame)),
        ("bytesAllocatedPerFrame", .number(m.bytesAllocatedPerFrame)),
        ("peakResidentBytes", .number(Double(m.peakResidentBytes))), ("indexBytes", .number(Double(m.indexBytes))),
        ("testedPerQuery", .number(m.testedPerQuery)), ("queryFloorNs", .number(m.queryFloorNs)),
        ("updateFloorNs", .number(m.updateFloorNs)), ("queryFloorRatio", .number(m.queryFloorRatio)),
        ("updateFloorRatio", .number(m.updateFloorRatio)), ("noisy", .bool(m.noisy)),
        ("verifiedAnswers", .number(Double(m.verifiedAnswers))),
        ("toleratedAnswers", .number(Double(m.toleratedAnswers))), ("disagreements", .number(Double(m.disagreements))),
      ])
    }
    return .object([("meta", meta), ("results", .array(results))])
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
