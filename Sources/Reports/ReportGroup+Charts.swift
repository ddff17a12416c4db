import Rendering

#if canImport(Glibc)
  import Glibc
#endif

/// A logarithmic axis of times: whole decades from below the smallest to above the largest.
struct LogAxis {
  var low: Double
  var high: Double

  init(_ values: [Double]) {
    let positive = values.filter { $0 > 0 && $0.isFinite }
    let lo = positive.min() ?? 1000
    let hi = positive.max() ?? 1e6
    var l = 1.0
    while l * 10 <= lo { l *= 10 }
    var h = l * 10
    while h < hi { h *= 10 }
    low = l
    high = h
  }

  /// Where `v` falls, from 0 (low) to 1 (high); values at or below 0 at 0.
  func fraction(_ v: Double) -> Double {
    guard v > low else { return 0 }
    return Swift.min(1, log10(v / low) / log10(high / low))
  }

  var decades: [Double] {
    var out: [Double] = []
    var v = low
    while v <= high * 1.0001 {
      out.append(v)
      v *= 10
    }
    return out
  }
}

extension ReportGroup {
  static let width = 960.0
  static let margin = (left: 64.0, right: 40.0, top: 14.0, bottom: 34.0)

  /// Frame time over the run, one line per strategy.
  func frameChart() -> String {
    let height = 280.0
    let m = Self.margin
    let plotW = Self.width - m.left - m.right
    let plotH = height - m.top - m.bottom
    let all = entries.flatMap { $0.series["frameNs"] ?? [] } + [budgetNs]
    let y = LogAxis(all)
    let frames = Double(Swift.max(1, entries.map(\.frames).max() ?? 1))
    var svg = SVGDocument(width: Self.width, height: height + 20)
    _axes(&svg, y, plotW: plotW, plotH: plotH)
    let budgetY = m.top + plotH * (1 - y.fraction(budgetNs))
    svg.append(
      "<line x1=\"\(n(m.left))\" y1=\"\(n(budgetY))\" x2=\"\(n(m.left + plotW))\" y2=\"\(n(budgetY))\" "
        + "stroke=\"#b3261e\" stroke-dasharray=\"6 4\"/>")
    svg.append(
      "<text x=\"\(n(m.left + plotW - 4))\" y=\"\(n(budgetY - 4))\" text-anchor=\"end\">budget \(_ms(budgetNs))</text>")
    for (i, e) in entries.enumerated() {
      let values = e.series["frameNs"] ?? []
      var points: [String] = []
      var over: [String] = []
      for (k, v) in values.enumerated() {
        let first = k < e.firstFrame.count ? e.firstFrame[k] : Double(k * e.stride)
        let x = m.left + plotW * (first + Double(e.stride) / 2) / frames
        let py = m.top + plotH * (1 - y.fraction(v))
        points.append("\(n(x)),\(n(py))")
        if v > budgetNs {
          over.append("<circle cx=\"\(n(x))\" cy=\"\(n(py))\" r=\"4\" fill=\"none\" stroke=\"#b3261e\"/>")
        }
      }
      svg.append(
        "<polyline class=\"series\" data-strategy=\"\(_html(e.strategy))\" fill=\"none\" stroke=\"\(color(i))\" "
          + "stroke-width=\"1.3\" points=\"\(points.joined(separator: " "))\"/>")
      for o in over { svg.append(o) }
    }
    svg.append(
      "<text x=\"\(n(m.left + plotW / 2))\" y=\"\(n(height - 4))\" text-anchor=\"middle\">measured frame</text>")
    _legend(&svg, y: height + 14)
    return _inline(svg)
  }

  /// The share of frames at most x (an empirical distribution), one step line per strategy.
  func distributionChart() -> String {
    let height = 240.0
    let m = Self.margin
    let plotW = Self.width - m.left - m.right
    let plotH = height - m.top - m.bottom
    let x = LogAxis(entries.flatMap { $0.series["frameNs"] ?? [] } + entries.compactMap { $0.number("frameNs", "max") })
    var svg = SVGDocument(width: Self.width, height: height)
    // Horizontal grid: shares 0, 0.5, 0.99, 1; vertical: decades.
    for share in [0.0, 0.5, 0.9, 1.0] {
      let py = m.top + plotH * (1 - share)
      svg.append(
        "<line x1=\"\(n(m.left))\" y1=\"\(n(py))\" x2=\"\(n(m.left + plotW))\" y2=\"\(n(py))\" stroke=\"#dde\"/>")
      svg.append(
        "<text x=\"\(n(m.left - 6))\" y=\"\(n(py + 4))\" text-anchor=\"end\">\(SVGDocument.label(share))</text>")
    }
    for d in x.decades {
      let px = m.left + plotW * x.fraction(d)
      svg.append(
        "<line x1=\"\(n(px))\" y1=\"\(n(m.top))\" x2=\"\(n(px))\" y2=\"\(n(m.top + plotH))\" stroke=\"#dde\"/>")
      svg.append("<text x=\"\(n(px))\" y=\"\(n(m.top + plotH + 14))\" text-anchor=\"middle\">\(_ms(d))</text>")
    }
    for (i, e) in entries.enumerated() {
      let sorted = (e.series["frameNs"] ?? []).sorted()
      guard !sorted.isEmpty else { continue }
      var points: [String] = ["\(n(m.left + plotW * x.fraction(sorted[0]))),\(n(m.top + plotH))"]
      for (k, v) in sorted.enumerated() {
        let px = m.left + plotW * x.fraction(v)
        let below = m.top + plotH * (1 - Double(k) / Double(sorted.count))
        let above = m.top + plotH * (1 - Double(k + 1) / Double(sorted.count))
        points.append("\(n(px)),\(n(below)) \(n(px)),\(n(above))")
      }
      svg.append(
        "<polyline fill=\"none\" stroke=\"\(color(i))\" stroke-width=\"1.3\" points=\"\(points.joined(separator: " "))\"/>"
      )
      // Marks below the axis: mean, p99, max.
      let base = m.top + plotH + 2
      if let mean = e.number("frameNs", "mean") {
        let px = m.left + plotW * x.fraction(mean)
        svg.append(
          "<line x1=\"\(n(px))\" y1=\"\(n(base - 8))\" x2=\"\(n(px))\" y2=\"\(n(base))\" stroke=\"\(color(i))\" "
            + "stroke-width=\"2\"/>")
      }
      if let p99 = e.number("frameNs", "p99") {
        let px = m.left + plotW * x.fraction(p99)
        let py = m.top + plotH * 0.01
        svg.append(
          "<path d=\"M\(n(px)) \(n(py - 4)) L\(n(px + 4)) \(n(py)) L\(n(px)) \(n(py + 4)) L\(n(px - 4)) \(n(py)) Z\" "
            + "fill=\"\(color(i))\"/>")
      }
      if let mx = e.number("frameNs", "max") {
        let px = m.left + plotW * x.fraction(mx)
        svg.append(
          "<rect x=\"\(n(px - 3))\" y=\"\(n(m.top - 3))\" width=\"6\" height=\"6\" fill=\"\(color(i))\"/>")
      }
    }
    svg.append(
      "<text x=\"\(n(m.left + plotW / 2))\" y=\"\(n(height - 4))\" text-anchor=\"middle\">frame time (log)</text>")
    return _inline(svg)
  }

  /// Mean phases and CPU per frame, a pair of stacked bars per strategy.
  func phaseChart() -> String {
    let rowH = 34.0
    let label = 150.0
    let plotW = Self.width - label - 90
    let height = Double(entries.count) * rowH + 40
    var peak = 1.0
    for e in entries {
      peak = Swift.max(peak, e.number("frameNs", "mean") ?? 0, e.number("cpuNs", "mean") ?? 0)
    }
    var svg = SVGDocument(width: Self.width, height: height)
    let phaseColors = ["#4e79a7", "#f28e2b", "#59a14f"]
    let cpuColors = ["#76b7b2", "#edc948", "#b07aa1"]
    for (i, e) in entries.enumerated() {
      let top = 8 + Double(i) * rowH
      svg.append("<text x=\"\(n(label - 8))\" y=\"\(n(top + 13))\" text-anchor=\"end\">\(_html(e.strategy))</text>")
      _stackedBar(
        &svg, e, ["presentationNs", "updateNs", "queriesNs"], phaseColors, at: (label, top), height: 12,
        scale: plotW / peak, total: "frameNs", suffix: "wall", labelY: top + 10)
      _stackedBar(
        &svg, e, ["cpuThreadNs", "cpuBuildWorkersNs", "cpuBackgroundNs"], cpuColors,
        at: (label, top + 14), height: 8, scale: plotW / peak, total: "cpuNs", suffix: "CPU", labelY: top + 22)
    }
    let keyY = height - 12
    var x = label
    for (name, c) in zip(
      ["build", "update", "queries", "CPU frame thread", "CPU build workers", "CPU background"],
      phaseColors + cpuColors)
    {
      svg.append("<rect x=\"\(n(x))\" y=\"\(n(keyY - 9))\" width=\"10\" height=\"10\" fill=\"\(c)\"/>")
      svg.append("<text x=\"\(n(x + 14))\" y=\"\(n(keyY))\">\(name)</text>")
      x += 14 + Double(name.count) * 6.5 + 14
    }
    return _inline(svg)
  }

  /// One bar of `keys`' means laid end to end, labelled with the mean of `total`.
  func _stackedBar(
    _ svg: inout SVGDocument, _ e: Entry, _ keys: [String], _ colors: [String], at origin: (x: Double, y: Double),
    height: Double, scale: Double, total: String, suffix: String, labelY: Double
  ) {
    var x = origin.x
    for (key, color) in zip(keys, colors) {
      let w = scale * (e.number(key, "mean") ?? 0)
      svg.append(
        "<rect x=\"\(n(x))\" y=\"\(n(origin.y))\" width=\"\(n(w))\" height=\"\(n(height))\" fill=\"\(color)\"/>")
      x += w
    }
    svg.append(
      "<text x=\"\(n(x + 4))\" y=\"\(n(labelY))\">\(_ms(e.number(total, "mean") ?? 0)) \(suffix)</text>")
  }

  func _axes(_ svg: inout SVGDocument, _ y: LogAxis, plotW: Double, plotH: Double) {
    let m = Self.margin
    for d in y.decades {
      let py = m.top + plotH * (1 - y.fraction(d))
      svg.append(
        "<line x1=\"\(n(m.left))\" y1=\"\(n(py))\" x2=\"\(n(m.left + plotW))\" y2=\"\(n(py))\" stroke=\"#dde\"/>")
      svg.append("<text x=\"\(n(m.left - 6))\" y=\"\(n(py + 4))\" text-anchor=\"end\">\(_ms(d))</text>")
    }
    svg.append(
      "<rect x=\"\(n(m.left))\" y=\"\(n(m.top))\" width=\"\(n(plotW))\" height=\"\(n(plotH))\" fill=\"none\" "
        + "stroke=\"#889\"/>")
  }

  func _legend(_ svg: inout SVGDocument, y: Double) {
    var x = Self.margin.left
    for (i, e) in entries.enumerated() {
      svg.append("<rect x=\"\(n(x))\" y=\"\(n(y - 9))\" width=\"10\" height=\"10\" fill=\"\(color(i))\"/>")
      svg.append("<text x=\"\(n(x + 14))\" y=\"\(n(y))\">\(_html(e.strategy))</text>")
      x += 14 + Double(e.strategy.count) * 6.5 + 16
    }
  }

  func _inline(_ svg: SVGDocument) -> String { svg.inlineElement }
}

/// A coordinate as SVG reads it.
func n(_ v: Double) -> String { SVGDocument.number(v) }
