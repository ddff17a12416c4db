import BenchKit
import FileIO
import JSON

/// `hitbench compare BASE.json NEW.json [--threshold P%]`: every metric the base run's suite
/// declares (`thresholds` in its JSON), for every matching result; exit 1 on a regression.
enum CompareCommand {
  static let summary = "Compare two JSON result files on every metric their suite declares; exit 1 on a regression."

  struct Options {
    var threshold: Double?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "compare", summary: summary)
    p.positionalNames = ["BASE.json", "NEW.json"]
    p.requiredPositionals = 2
    p.option(
      "--threshold", optional: \.threshold, valueName: "P%",
      help: "override every time metric's allowed growth (default: the suite's thresholds)",
      expected: "a percentage like 5% or a fraction like 0.05"
    ) { s in
      let v = s.hasSuffix("%") ? ArgumentValues.finite(String(s.dropLast())).map { $0 / 100 } : ArgumentValues.finite(s)
      return v.flatMap { $0 >= 0 ? $0 : nil }
    }
    return p
  }

  /// One metric of one matched result.
  struct Row {
    var key: String
    var metric: Metric
    var base: Double
    var new: Double
    var regressed: Bool
    /// A time on a side whose frame times were too spread to trust.
    var noisy: Bool
    var change: Double { base != 0 ? (new - base) / abs(base) : (new == 0 ? 0 : .infinity) }
  }

  static let keyFields = [
    "strategy", "scene", "layers", "animatedFraction", "queriesPerFrame", "workload", "semantics", "threads",
  ]

  static func number(_ v: JSONValue?, _ path: [String]) -> Double? {
    var cur = v
    for k in path { cur = cur?[k] }
    if case .number(let d)? = cur { return d }
    return nil
  }

  /// The thresholds a results file declares (its suite's), or the defaults.
  static func thresholds(_ doc: JSONValue) -> [Metric: Threshold] {
    guard case .object(let members)? = doc["thresholds"], !members.isEmpty else { return Suite.defaultThresholds }
    var out: [Metric: Threshold] = [:]
    for (name, t) in members {
      guard let m = Metric(rawValue: name), let r = number(t, ["relative"]), let a = number(t, ["absolute"]) else {
        continue
      }
      out[m] = Threshold(relative: r, absolute: a)
    }
    return out
  }

  static func compare(_ base: JSONValue, _ new: JSONValue, override: Double?) -> [Row] {
    var limits = thresholds(base)
    if let override {
      for (m, t) in limits where m.isTime { limits[m] = Threshold(relative: override, absolute: t.absolute) }
    }
    func index(_ doc: JSONValue) -> [(String, JSONValue)] {
      guard case .array(let results)? = doc["results"] else { return [] }
      return results.map { r in
        let parts = keyFields.map { k -> String in
          switch r[k] {
          case .string(let s)?: s
          case .number(let n)?: formatNumber(n)
          default: "-"
          }
        }
        return (parts.joined(separator: " "), r)
      }
    }
    let b = Dictionary(index(base), uniquingKeysWith: { a, _ in a })
    var rows: [Row] = []
    for (key, r) in index(new) {
      guard let old = b[key] else { continue }
      let noisy = old["noisy"] == .bool(true) || r["noisy"] == .bool(true)
      for metric in Metric.allCases {
        guard let t = limits[metric], let x = number(old, metric.jsonPath), let y = number(r, metric.jsonPath) else {
          continue
        }
        rows.append(
          Row(
            key: key, metric: metric, base: x, new: y, regressed: t.isRegression(base: x, new: y),
            noisy: noisy && metric.isTime))
      }
    }
    return rows
  }

  static func load(_ path: String) throws(CommandError) -> JSONValue {
    let bytes: [UInt8]
    do { bytes = try FileIO.readAll(path) } catch { throw .file(error) }
    let doc: JSONValue
    do { doc = try JSONParser.parse(bytes: bytes) } catch {
      throw .data("\(FileIO.displayName(path)): invalid JSON at \(error)")
    }
    guard case .array? = doc["results"] else {
      throw .data("\(FileIO.displayName(path)): not a hitbench results file (no 'results' array)")
    }
    return doc
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let files = try parser.parse(args, into: &o).positionals
    let base = try load(files[0])
    let new = try load(files[1])
    let rows = compare(base, new, override: o.threshold)
    guard !rows.isEmpty else { throw .data("no result in \(files[1]) matches one in \(files[0])") }
    Output.out(
      "result".padding(to: 58) + "metric".padding(to: 22) + "base".leftPadded(12) + "new".leftPadded(12)
        + "change".leftPadded(10) + "\n")
    for r in rows {
      let pct =
        r.change.isFinite ? "\(r.change > 0 ? "+" : "")\(formatNumber((r.change * 1000).rounded() / 10))%" : "new"
      let verdict =
        r.regressed
        ? (r.noisy ? "  regression? (noisy)" : "  REGRESSION") : (r.change < -0.05 && r.metric.isTime ? "  faster" : "")
      Output.out(
        r.key.padding(to: 58) + r.metric.rawValue.padding(to: 22) + r.metric.format(r.base).leftPadded(12)
          + r.metric.format(r.new).leftPadded(12) + pct.leftPadded(10) + verdict + "\n")
    }
    let regressions = rows.filter { $0.regressed && !$0.noisy }.count
    let uncertain = rows.filter { $0.regressed && $0.noisy }.count
    let results = Set(rows.map(\.key)).count
    Output.out(
      "\(results) results, \(rows.count) metrics compared, \(regressions) regressions, \(uncertain) on a noisy side (not counted)\n"
    )
    if regressions > 0 { throw .failed("\(regressions) regressions") }
  }
}
