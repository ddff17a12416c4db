import BenchKit
import JSON
import Rendering

/// The strategies of one configuration in a report: a table of their numbers and three
/// pictures (frames one by one, their distribution, the frame's phases and CPU).
struct ReportGroup {
  /// One strategy's result, as the pictures read it.
  struct Entry {
    var strategy: String
    var result: JSONValue
    var series: [String: [Double]]
    var firstFrame: [Double]
    var stride: Int
    var frames: Int

    init(_ r: JSONValue) {
      if case .string(let s)? = r["strategy"] { strategy = s } else { strategy = "?" }
      result = r
      series = [:]
      firstFrame = []
      stride = 1
      if case .object(let columns)? = r["series"] {
        for (name, v) in columns {
          if case .array(let list) = v {
            let values = list.compactMap { x -> Double? in if case .number(let d) = x { return d } else { return nil } }
            if name == "firstFrame" { firstFrame = values } else { series[name] = values }
          } else if name == "stride", case .number(let d) = v {
            stride = Swift.max(1, Int(d))
          }
        }
      }
      frames = Int(ReportGroup.number(r, "frames") ?? 0)
    }

    func number(_ path: String...) -> Double? { ReportGroup.number(result, path) }
  }

  var title: String
  var entries: [Entry]
  var budgetNs: Double

  /// The results grouped by configuration (every key field but the strategy), in file order.
  static func groups(_ results: [JSONValue]) -> [ReportGroup] {
    var order: [String] = []
    var byKey: [String: [JSONValue]] = [:]
    for r in results {
      let key = _title(r)
      if byKey[key] == nil { order.append(key) }
      byKey[key, default: []].append(r)
    }
    return order.map { key in
      let entries = byKey[key]!.map(Entry.init)
      let budget = entries.first.flatMap { $0.number("budgetNs") } ?? 1e9 / 120
      return ReportGroup(title: key, entries: entries, budgetNs: budget)
    }
  }

  static func _title(_ r: JSONValue) -> String {
    func s(_ k: String) -> String { _text(r[k]) }
    // Not the build's threads: a scene strategy builds no frame and says 1; the table shows them.
    var t =
      "\(s("scene")) \(s("layers")) layers, Q = \(s("queriesPerFrame")), \(s("workload")), \(s("semantics")), "
      + "\(s("tree")) tree, \(s("pacing"))"
    if case .bool(true)? = r["windowPinned"] { t += ", window \(s("windowMs")) ms" }
    return t
  }

  static func number(_ r: JSONValue, _ path: String...) -> Double? { number(r, path) }
  static func number(_ r: JSONValue, _ path: [String]) -> Double? {
    var cur: JSONValue? = r
    for k in path { cur = cur?[k] }
    if case .number(let d)? = cur { return d }
    return nil
  }

  /// A strategy's colour: ten that stay apart on white, by its place in the group.
  static let palette = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
  ]
  func color(_ i: Int) -> String { Self.palette[i % Self.palette.count] }

  func html() -> String {
    var out = "<h2>\(_html(title))</h2>\n" + table()
    out +=
      "<figure>\(frameChart())<figcaption>Every measured frame's wall time, end to end (log scale), "
      + "with the frame budget (\(_ms(budgetNs))) dashed and frames over it ringed in red"
      + (entries.contains { $0.stride > 1 } ? "; long runs show each bin's slowest frame" : "")
      + ".</figcaption></figure>\n"
    out +=
      "<figure>\(distributionChart())<figcaption>The frames' distribution (share of frames at most x), "
      + "with each strategy's mean (|), p99 (◆) and max (■).</figcaption></figure>\n"
    out +=
      "<figure>\(phaseChart())<figcaption>Mean frame split into build, update and queries (upper bar), "
      + "and CPU per frame by thread: the frame's own, the build workers, background work (lower bar)."
      + "</figcaption></figure>\n"
    return out
  }

  func table() -> String {
    let counted = entries.contains { $0.result["instructions"] != nil }
    var out =
      "<table><tr><th>strategy</th><th>family</th><th>threads</th><th>mean</th><th>mean 95%</th><th>p99</th><th>p99 95%</th>"
      + "<th>max</th><th>build</th><th>update</th><th>queries</th><th>CPU</th><th>CPU thread</th>"
      + "<th>CPU helpers</th><th>&gt;budget</th>" + (counted ? "<th>instr/frame</th><th>instr bg</th>" : "")
      + "</tr>\n"
    for (i, e) in entries.enumerated() {
      func us(_ path: String...) -> String { (ReportGroup.number(e.result, path)).map(_us) ?? "-" }
      func interval(_ key: String) -> String {
        guard let lo = e.number(key + "Low"), let hi = e.number(key + "High") else { return "-" }
        return _us(lo) + "–" + _us(hi)
      }
      let family: String
      if case .string(let f)? = e.result["family"] { family = f } else { family = "" }
      let helpers = (e.number("cpuBuildWorkersNs", "mean") ?? 0) + (e.number("cpuBackgroundNs", "mean") ?? 0)
      out +=
        "<tr><td><span style=\"color:\(color(i))\">■</span> \(_html(e.strategy))</td><td>\(_html(family))</td>"
        + "<td>\(_fixed(e.number("threads") ?? 0))</td><td>\(us("frameNs", "mean"))</td><td>\(interval("frameNsMean"))</td><td>\(us("frameNs", "p99"))</td>"
        + "<td>\(interval("frameNsP99"))</td><td>\(us("frameNs", "max"))</td><td>\(us("presentationNs", "mean"))</td>"
        + "<td>\(us("updateNs", "mean"))</td><td>\(us("queriesNs", "mean"))</td><td>\(us("cpuNs", "mean"))</td>"
        + "<td>\(us("cpuThreadNs", "mean"))</td><td>\(_us(helpers))</td>"
        + "<td>\(_fixed(e.number("framesOverBudget") ?? 0))</td>"
      if counted {
        out +=
          "<td>\(e.number("instructions", "framePerFrame").map(formatCount) ?? "-")</td>"
          + "<td>\(e.number("instructions", "backgroundPerFrame").map(formatCount) ?? "-")</td>"
      }
      out += "</tr>\n"
    }
    return out + "</table>\n<p class=\"meta\">times in µs per frame (the mean and p99's 95% intervals bootstrapped "
      + "over blocks of frames)</p>\n"
  }
}

/// Nanoseconds as microseconds for a table (one decimal below 1,000 µs).
func _us(_ ns: Double) -> String {
  let us = ns / 1000
  return us >= 1000 ? formatCount(us) : SVGDocument.label((us * 10).rounded() / 10)
}

/// Nanoseconds as a short label (µs or ms).
func _ms(_ ns: Double) -> String {
  ns >= 1e6
    ? SVGDocument.label((ns / 1e4).rounded() / 100) + " ms" : SVGDocument.label((ns / 100).rounded() / 10) + " µs"
}
