import FileIO
import JSON
import LayerModel
import Presentation
import SceneFormat
import Verification

/// `hitbench compare BASE.json NEW.json [--threshold 5%]`: per-result changes; exit 1 on a
/// regression beyond the threshold.
enum CompareCommand {
  static let summary = "Compare two JSON result files; exit 1 when a frame median regressed beyond the threshold."

  struct Options {
    var threshold = 0.05
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "compare", summary: summary)
    p.positionalNames = ["BASE.json", "NEW.json"]
    p.requiredPositionals = 2
    p.option(
      "--threshold", \.threshold, valueName: "P%", help: "allowed slowdown of the frame median (default 5%)",
      expected: "a percentage like 5% or a fraction like 0.05"
    ) { s in
      let v = s.hasSuffix("%") ? ArgumentValues.finite(String(s.dropLast())).map { $0 / 100 } : ArgumentValues.finite(s)
      return v.flatMap { $0 >= 0 ? $0 : nil }
    }
    return p
  }

  /// One matched result: the key and the two frame medians.
  struct Row {
    var key: String
    var base: Double
    var new: Double
    var change: Double { base > 0 ? (new - base) / base : 0 }
  }

  /// The comparison rows and the regressions beyond `threshold`.
  static func compare(_ base: JSONValue, _ new: JSONValue, threshold: Double) -> (rows: [Row], regressions: Int) {
    func index(_ doc: JSONValue) -> [(String, Double)] {
      guard case .array(let results)? = doc["results"] else { return [] }
      return results.compactMap { r in
        let parts = ["strategy", "scene", "layers", "animatedFraction", "queriesPerFrame", "workload", "semantics"].map
        {
          k -> String in
          switch r[k] {
          case .string(let s)?: s
          case .number(let n)?: formatNumber(n)
          default: "-"
          }
        }
        guard case .number(let median)? = r["frameNs"]?["median"] else { return nil }
        return (parts.joined(separator: " "), median)
      }
    }
    let b = Dictionary(index(base), uniquingKeysWith: { a, _ in a })
    var rows: [Row] = []
    for (key, value) in index(new) {
      if let old = b[key] { rows.append(Row(key: key, base: old, new: value)) }
    }
    return (rows, rows.filter { $0.change > threshold }.count)
  }

  static func load(_ path: String) throws(CommandError) -> JSONValue {
    let bytes: [UInt8]
    do { bytes = try FileIO.readAll(path) } catch { throw .file(error) }
    let doc: JSONValue
    do { doc = try JSONParser.parse(bytes: bytes) } catch { throw .data("\(path): invalid JSON at \(error)") }
    guard case .array? = doc["results"] else {
      throw .data("\(path): not a hitbench results file (no 'results' array)")
    }
    return doc
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let files = try parser.parse(args, into: &o).positionals
    let base = try load(files[0])
    let new = try load(files[1])
    let (rows, regressions) = compare(base, new, threshold: o.threshold)
    guard !rows.isEmpty else { throw .data("no result in \(files[1]) matches one in \(files[0])") }
    Output.out(
      "result".padding(to: 60) + "base us".leftPadded(12) + "new us".leftPadded(12) + "change".leftPadded(10) + "\n")
    for r in rows {
      let pct = (r.change * 1000).rounded() / 10
      let verdict = r.change > o.threshold ? "  REGRESSION" : (r.change < -o.threshold ? "  faster" : "")
      Output.out(
        r.key.padding(to: 60) + formatNumber((r.base / 100).rounded() / 10).leftPadded(12)
          + formatNumber((r.new / 100).rounded() / 10).leftPadded(12)
          + "\(pct > 0 ? "+" : "")\(formatNumber(pct))%".leftPadded(10)
          + verdict + "\n")
    }
    Output.out(
      "\(rows.count) results compared, \(regressions) regressions beyond \(formatNumber(o.threshold * 100))%\n")
    if regressions > 0 { throw .failed("\(regressions) regressions") }
  }
}
