import BenchKit
import JSON
import Rendering

/// One self-contained HTML page of one or two runs (`hitbench report`, `run --report`): for
/// each configuration, its strategies' frames one by one, their distribution, the frame split
/// into phases and CPU, and a table of the numbers; the suite's targets; with two runs, the
/// comparison of the second against the first. The page loads nothing (no script, font or
/// request: inline SVG and CSS), and is made from the results documents alone, so a report of
/// a saved file shows what the run showed.
public enum ReportPage {
  /// Why a document cannot be reported: one line.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// The page of `runs` (named documents of `hitbench run --format json`); two runs add the
  /// comparison of the second against the first. `pictures` follow the first run's targets.
  public static func html(
    _ runs: [(name: String, document: JSONValue)], pictures: [Picture] = []
  ) throws(Problem) -> String {
    guard !runs.isEmpty else { throw Problem(description: "no results to report") }
    var files: [ResultsFile] = []
    for run in runs {
      do { files.append(try ResultsFile(run.document)) } catch {
        throw Problem(description: "\(run.name): \(error.description)")
      }
    }
    var page = _head(title: "HitBench: " + runs.map(\.name).joined(separator: " against "))
    for (k, (run, file)) in zip(runs, files).enumerated() {
      page += "<section>\n<h1>\(_html(run.name))</h1>\n" + _meta(file.meta)
      page += _targets(run.document["targets"])
      if k == 0 { page += _pictures(pictures) }
      for group in ReportGroup.groups(file.results.map(\.value)) { page += group.html() }
      page += "</section>\n"
    }
    if files.count == 2 {
      page += try _comparison(base: files[0], new: files[1], names: (runs[0].name, runs[1].name))
    }
    return page + "</body></html>\n"
  }

  static func _head(title: String) -> String {
    """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>\(_html(title))</title>
    <style>
    body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1b1f24; max-width: 1180px; }
    h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 32px; border-top: 1px solid #ccd; padding-top: 12px; }
    table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
    td, th { padding: 2px 6px; text-align: right; white-space: nowrap; }
    table.text td, table.text th { text-align: left; white-space: normal; }
    th { border-bottom: 1px solid #889; } td:first-child, th:first-child { text-align: left; }
    .meta { color: #555; } .met { color: #17692b; } .missed, .regression { color: #b3261e; font-weight: 600; }
    .undecided { color: #8a5a00; } figure { margin: 8px 0 20px; } figcaption { color: #555; font-size: 12px; }
    svg text { font: 11px system-ui, sans-serif; fill: #333; }
    </style></head><body>

    """
  }

  static func _meta(_ meta: JSONValue) -> String {
    func s(_ key: String) -> String { _text(meta[key]) }
    return "<p class=\"meta\">\(_html(s("command")))<br>commit \(_html(s("gitCommit"))), \(_html(s("cpuModel"))), "
      + "\(s("cores")) cores, \(_html(s("toolchain"))), \(_html(s("date")))</p>\n"
  }

  static func _targets(_ targets: JSONValue?) -> String {
    guard case .array(let list)? = targets, !list.isEmpty else { return "" }
    var out = "<h2>Targets</h2>\n<table class=\"text\"><tr><th>target</th><th>verdict</th><th>measured</th></tr>\n"
    for t in list {
      guard case .string(let name)? = t["name"], case .string(let status)? = t["status"],
        case .string(let measured)? = t["measured"]
      else { continue }
      out +=
        "<tr><td>\(_html(name))</td><td class=\"\(_html(status))\">\(_html(status))</td>"
        + "<td>\(_html(measured))</td></tr>\n"
    }
    return out + "</table>\n"
  }

  static func _comparison(base: ResultsFile, new: ResultsFile, names: (String, String)) throws(Problem) -> String {
    let c: ResultComparison
    do { c = try ResultComparison(base: base, new: new) } catch {
      throw Problem(description: "\(names.0) against \(names.1): \(error.description)")
    }
    var out = "<section>\n<h1>\(_html(names.1)) against \(_html(names.0))</h1>\n"
    out +=
      "<p>\(c.regressions) regressions; \(c.rows.filter { $0.verdict == .withinNoise }.count) slower within "
      + "noise (not counted)\(c.missing.isEmpty ? "" : "; \(c.missing.count) results missing")</p>\n"
    out +=
      "<table><tr><th>result</th><th>metric</th><th>base</th><th>new</th><th>change</th>"
      + "<th>interval</th><th>verdict</th></tr>\n"
    for r in c.rows {
      let change = r.change.isFinite ? (r.change > 0 ? "+" : "") + _fixed(r.change * 100) + "%" : "new"
      let interval = r.ratioInterval.map { r.intervalLabel + " " + $0.formatted() } ?? "-"
      let verdict = r.verdict == .same ? "" : r.verdict.rawValue
      out +=
        "<tr><td>\(_html(r.key.description))</td><td>\(r.metric.rawValue)</td>"
        + "<td>\(_html(r.metric.format(r.base)))</td><td>\(_html(r.metric.format(r.new)))</td><td>\(change)</td>"
        + "<td>\(interval)</td><td class=\"\(r.verdict == .regression ? "regression" : "")\">\(_html(verdict))</td></tr>\n"
    }
    for k in c.missing { out += "<tr><td>\(_html(k.description))</td><td colspan=\"6\">MISSING</td></tr>\n" }
    return out + "</table>\n</section>\n"
  }
}

/// Text as HTML shows it: `&`, `<`, `>`, quotes escaped.
func _html(_ s: String) -> String { SVGDocument.escaped(s) }

/// A string or number of a document as text ("?" for anything else).
func _text(_ v: JSONValue?) -> String {
  switch v {
  case .string(let s)?: s
  case .number(let d)?: _fixed(d)
  default: "?"
  }
}

/// A number with one decimal, or none when whole.
func _fixed(_ v: Double) -> String {
  guard v.isFinite else { return "-" }
  let r = (v * 10).rounded() / 10
  return r == r.rounded() && Swift.abs(r) < 1e15 ? String(Int64(r)) : SVGDocument.label(r)
}
