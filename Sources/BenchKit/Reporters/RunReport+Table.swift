extension RunReport {
  /// The results in groups of one configuration (the parts the chosen columns do not show),
  /// in run order, each with its heading line. The build's threads are the frame strategies'
  /// (a scene strategy builds no frame and reports 1), so they do not split a group; a group
  /// ends where the configuration changes or a strategy, its threads and Q come again.
  func groups() -> [(heading: String, results: [Measurement])] {
    let shown = Set(columns.filter(\.isConfiguration).map(\.name))
    func heading(_ m: Measurement) -> String {
      var parts: [String] = []
      if !shown.contains("scene") { parts.append(m.scene) }
      if !shown.contains("layers") { parts.append("\(m.layers) layers") }
      if !shown.contains("animated") { parts.append("\(_fixed(m.animatedFraction * 100, 0))% animated") }
      if !shown.contains("workload") { parts.append(m.workload) }
      if !shown.contains("semantics") { parts.append(m.semantics) }
      if !shown.contains("tree") && m.tree != "presentation" { parts.append(m.tree + " tree") }
      if !shown.contains("pacing") && m.pacing != "real-time" { parts.append(m.pacing) }
      return parts.joined(separator: ", ")
    }
    var out: [(heading: String, results: [Measurement])] = []
    var seen = Set<String>()
    for m in results {
      let h = heading(m)
      let key = "\(m.strategy) \(m.threads) \(m.queriesPerFrame)"
      if let last = out.last, last.heading == h, !seen.contains(key) {
        out[out.count - 1].results.append(m)
      } else {
        out.append((h, [m]))
        seen = []
      }
      seen.insert(key)
    }
    guard !shown.contains("threads") else { return out }
    return out.map { g in
      let threads = g.results.map(\.threads).max() ?? 1
      let t = "\(threads) build thread\(threads == 1 ? "" : "s")"
      return (g.heading.isEmpty ? t : g.heading + ", " + t, g.results)
    }
  }

  /// Column widths over the header and every cell.
  func widths(_ rows: [[String]]) -> [Int] {
    var w = columns.map(\.header.count)
    for r in rows { for (i, c) in r.enumerated() { w[i] = Swift.max(w[i], c.count) } }
    return w
  }

  func table() -> String {
    let grouped = groups().map { g in (g.heading, g.results.map { m in columns.map { $0.cell(m, in: self) } }) }
    let w = widths(grouped.flatMap(\.1))
    func line(_ cells: [String]) -> String {
      var s = ""
      for (i, c) in cells.enumerated() {
        let pad = String(repeating: " ", count: w[i] - c.count)
        s += (columns[i].isText ? c + pad : pad + c) + "  "
      }
      return String(s.reversed().drop { $0 == " " }.reversed())
    }
    var out = ""
    let rule = String(repeating: "-", count: line(columns.map(\.header)).count)
    for (k, (heading, rows)) in grouped.enumerated() {
      if k > 0 { out += "\n" }
      if !heading.isEmpty { out += heading + "\n" }
      out += line(columns.map(\.header)) + "\n" + rule + "\n"
      for r in rows { out += line(r) + "\n" }
    }
    let fewest = results.map(\.frames).min() ?? 0
    let most = results.map(\.frames).max() ?? 0
    // Time-aware runs with --min-windows go on past the others' frames.
    let frames = fewest == most ? "\(fewest)" : "\(fewest) to \(most)"
    let budget = results.first.map { _fixed($0.budgetNs / 1e6, 2) } ?? "-"
    out += "\ntimes in us per frame over \(frames) frames; frame = build + update + queries (end to end); "
    out += ">budget = frames over \(budget) ms\n"
    out += "every column: --columns all; every field: --format json (docs/results-schema.md)\n"
    for t in targets { out += "target: \(t.name): \(t.verdict.status.rawValue) (\(t.verdict.measured))\n" }
    return out
  }

  func markdown() -> String {
    var out = ""
    for (k, g) in groups().enumerated() {
      if k > 0 { out += "\n" }
      if !g.heading.isEmpty { out += "**\(g.heading)**\n\n" }
      out += "| " + columns.map { $0.header.isEmpty ? $0.name : $0.header }.joined(separator: " | ") + " |\n"
      out += "|" + columns.map { $0.isText ? "---|" : "---:|" }.joined() + "\n"
      for m in g.results { out += "| " + columns.map { $0.cell(m, in: self) }.joined(separator: " | ") + " |\n" }
    }
    return out
  }
}
