import HitTesting
import LayerModel
import Presentation

/// A picture of one frame: every layer's world quad in drawing order (clipped as the hit test
/// clips it), the query points with the layer each hits, the model tree's answers beside the
/// presentation tree's and every point where they differ, and a strategy's index. Written as
/// SVG; each element carries data attributes (`data-row`, `data-hit`, `data-count`) so tests
/// and scripts can read the picture back. O(rows + points + index boxes) elements, except that
/// above `aggregateAbove` rows the layers smaller than a pixel are drawn as one density layer.
public struct FramePicture {
  /// The presentation frame drawn (the model frame instead when only the model tree is asked).
  public var frame: PresentationFrame
  /// Layer names by `LayerID` (the model's preorder).
  public var names: [String]
  public var points: [Point] = []
  /// `answers[i]`: the drawn tree's answer for `points[i]`.
  public var answers: [LayerID?] = []
  /// With `--tree both`: the model tree's frame and answers, drawn beside the presentation's.
  public var modelFrame: PresentationFrame?
  public var modelAnswers: [LayerID?] = []
  /// The strategy whose index is drawn, and its boxes.
  public var strategy: String?
  public var index: [InspectedBox] = []
  /// Lines of the legend beyond the ones the picture writes itself.
  public var caption: [String] = []
  /// The longer side of the picture, in pixels.
  public var size = 1000.0
  /// Scenes with more rows than this draw sub-pixel layers as a density layer.
  public var aggregateAbove = 20_000

  public init(frame: PresentationFrame, names: [String]) {
    self.frame = frame
    self.names = names
  }

  static let palette = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324", "#800000", "#000075",
  ]

  /// Row r's quad in world space: its bounds' corners through its map to the world; nil when a
  /// corner is behind the viewer or not finite.
  static func quad(_ f: PresentationFrame, _ r: Int) -> [Point]? {
    let b = f.bounds[r]
    guard !b.isEmpty else { return nil }
    let h = f.toWorldMap(r)
    var q: [Point] = []
    for c in [
      Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY), Point(x: b.maxX, y: b.maxY),
      Point(x: b.minX, y: b.maxY),
    ] {
      guard let p = h.apply(c), p.x.isFinite, p.y.isFinite else { return nil }
      q.append(p)
    }
    return q
  }

  /// The world extent drawn: the root's quad, every row's world box (already clipped by its
  /// clipping ancestors, so scrolled-away content does not stretch the picture) and every point.
  func extent() -> Box {
    var e = Box.nothing
    func add(_ p: Point) {
      if p.x.isFinite && p.y.isFinite && abs(p.x) < 1e7 && abs(p.y) < 1e7 {
        e = e.union(Box(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y))
      }
    }
    if frame.count > 0, let q = Self.quad(frame, 0) { q.forEach(add) }
    for r in 0..<frame.count where frame.worldBox[r].isFiniteAndNonEmpty {
      let b = frame.worldBox[r]
      add(Point(x: b.minX, y: b.minY))
      add(Point(x: b.maxX, y: b.maxY))
    }
    points.forEach(add)
    if e.isEmpty || e.maxX - e.minX <= 0 || e.maxY - e.minY <= 0 {
      let x = e.isEmpty ? 0 : e.minX
      let y = e.isEmpty ? 0 : e.minY
      e = Box(minX: x, minY: y, maxX: x + 100, maxY: y + 100)
    }
    return e
  }

  /// The picture as SVG text.
  public func svg() -> String {
    let e = extent()
    let legendHeight = 18.0 * Double(4 + caption.count) + 10
    let scale = size / Swift.max(e.maxX - e.minX, e.maxY - e.minY)
    let margin = 10.0
    let width = Swift.max((e.maxX - e.minX) * scale + 2 * margin, 720)
    let height = (e.maxY - e.minY) * scale + 2 * margin + legendHeight
    func px(_ p: Point) -> (Double, Double) { ((p.x - e.minX) * scale + margin, (p.y - e.minY) * scale + margin) }
    func polygon(_ q: [Point]) -> String {
      q.map {
        let (x, y) = px($0); return SVGDocument.number(x) + "," + SVGDocument.number(y)
      }.joined(separator: " ")
    }
    func rect(_ b: Box) -> String {
      let (x0, y0) = px(Point(x: b.minX, y: b.minY))
      let (x1, y1) = px(Point(x: b.maxX, y: b.maxY))
      return "x=\"\(SVGDocument.number(x0))\" y=\"\(SVGDocument.number(y0))\" "
        + "width=\"\(SVGDocument.number(Swift.max(x1 - x0, 0)))\" height=\"\(SVGDocument.number(Swift.max(y1 - y0, 0)))\""
    }
    func name(_ id: LayerID?) -> String {
      guard let id, Int(id.rawValue) < names.count else { return id == nil ? "nil" : "#\(id!.rawValue)" }
      return names[Int(id.rawValue)]
    }

    var doc = SVGDocument(width: width, height: height)
    doc.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
    // Layers, back to front, each clipping ancestor's quad applied to its subtree.
    let aggregate = frame.count > aggregateAbove
    var density: [Int: Int] = [:]
    let densityCell = 4.0
    var densityCount = 0
    var drawn = 0
    var notDrawn = 0
    var open: [Int] = []  // subtree ends of the clip groups open
    doc.append("<g id=\"layers\">")
    for r in 0..<frame.count {
      while let end = open.last, r >= end {
        doc.append("</g>")
        open.removeLast()
      }
      let flags = frame.flags[r]
      guard let q = Self.quad(frame, r) else {
        notDrawn += 1
        continue
      }
      let box = q.reduce(Box.nothing) { $0.union(Box(minX: $1.x, minY: $1.y, maxX: $1.x, maxY: $1.y)) }
      if aggregate && (box.maxX - box.minX) * scale < 1 && (box.maxY - box.minY) * scale < 1 {
        let (x, y) = px(Point(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2))
        let key = Int((y / densityCell).rounded(.down)) * 1_000_000 + Int((x / densityCell).rounded(.down))
        density[key, default: 0] += 1
        densityCount += 1
      } else {
        let style: String
        if flags.contains(.hidden) {
          style = "fill=\"none\" stroke=\"#999999\" stroke-dasharray=\"4 2\" class=\"hidden\""
        } else if flags.contains(.notInteractive) {
          style = "fill=\"#eeeeee\" fill-opacity=\"0.4\" stroke=\"#cc8800\" stroke-dasharray=\"1 2\" class=\"inert\""
        } else if flags.contains(.hittable) {
          style = "fill=\"#cfd8e3\" fill-opacity=\"0.35\" stroke=\"#4a5a6a\" stroke-width=\"0.6\" class=\"hittable\""
        } else {
          style = "fill=\"none\" stroke=\"#bbbbbb\" stroke-width=\"0.5\" class=\"other\""
        }
        doc.append(
          "<polygon data-row=\"\(r)\" points=\"\(polygon(q))\" \(style)><title>\(SVGDocument.escaped(name(frame.layer[r])))"
            + "</title></polygon>")
        drawn += 1
      }
      if flags.contains(.clips) && Int(frame.subtreeEnd[r]) > r + 1 {
        doc.define("<clipPath id=\"clip\(r)\"><polygon points=\"\(polygon(q))\"/></clipPath>")
        doc.append("<g clip-path=\"url(#clip\(r))\">")
        open.append(Int(frame.subtreeEnd[r]))
      }
    }
    for _ in open { doc.append("</g>") }
    doc.append("</g>")
    if !density.isEmpty {
      let most = Double(density.values.max() ?? 1)
      doc.append("<g id=\"density\" data-count=\"\(densityCount)\">")
      for (key, n) in density.sorted(by: { $0.key < $1.key }) {
        let x = Double(key % 1_000_000) * densityCell
        let y = Double(key / 1_000_000) * densityCell
        let alpha = 0.15 + 0.85 * Double(n) / most
        doc.append(
          "<rect x=\"\(SVGDocument.number(x))\" y=\"\(SVGDocument.number(y))\" width=\"\(densityCell)\" "
            + "height=\"\(densityCell)\" fill=\"#4a5a6a\" fill-opacity=\"\(SVGDocument.number(alpha))\"/>")
      }
      doc.append("</g>")
    }
    // The index, over the layers.
    if !index.isEmpty {
      doc.append("<g id=\"index\" data-strategy=\"\(SVGDocument.escaped(strategy ?? ""))\">")
      let most = Double(index.filter { $0.kind == .cell }.map(\.value).max() ?? 1)
      let deepest = Double(index.filter { $0.kind == .node }.map(\.value).max() ?? 1)
      for b in index {
        switch b.kind {
        case .cell:
          let alpha = 0.08 + 0.6 * Double(b.value) / Swift.max(most, 1)
          doc.append(
            "<rect class=\"cell\" data-count=\"\(b.value)\" \(rect(b.box)) fill=\"#ff9900\" "
              + "fill-opacity=\"\(SVGDocument.number(alpha))\" stroke=\"#cc7700\" stroke-width=\"0.3\">"
              + "<title>\(b.value) rows</title></rect>")
        case .node:
          let hue = Int(240 * (1 - Double(b.value) / Swift.max(deepest, 1)))
          doc.append(
            "<rect class=\"node\" data-depth=\"\(b.value)\" \(rect(b.box)) fill=\"none\" "
              + "stroke=\"hsl(\(hue), 80%, 45%)\" stroke-width=\"0.8\"><title>depth \(b.value)</title></rect>")
        }
      }
      doc.append("</g>")
    }
    // Answers: each point's hit outlined in the point's colour; the model tree's dashed.
    var mismatches = 0
    doc.append("<g id=\"answers\">")
    for (i, p) in points.enumerated() where p.x.isFinite && p.y.isFinite {
      let colour = Self.palette[i % Self.palette.count]
      let hit = i < answers.count ? answers[i] : nil
      if let hit, let r = frame.row(of: hit), let q = Self.quad(frame, r) {
        doc.append(
          "<polygon class=\"answer\" points=\"\(polygon(q))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>"
        )
      }
      var title = "(\(SVGDocument.number(p.x)), \(SVGDocument.number(p.y))) -> \(name(hit))"
      var differs = false
      if let model = modelFrame {
        let modelHit = i < modelAnswers.count ? modelAnswers[i] : nil
        differs = modelHit != hit
        if let modelHit, let r = model.row(of: modelHit), let q = Self.quad(model, r) {
          doc.append(
            "<polygon class=\"model-answer\" points=\"\(polygon(q))\" fill=\"none\" stroke=\"\(colour)\" "
              + "stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>")
        }
        title += "; model tree -> \(name(modelHit))"
      }
      let (x, y) = px(p)
      if differs {
        mismatches += 1
        doc.append(
          "<circle class=\"mismatch\" cx=\"\(SVGDocument.number(x))\" cy=\"\(SVGDocument.number(y))\" r=\"9\" "
            + "fill=\"none\" stroke=\"#ff0000\" stroke-width=\"2\"/>")
      }
      doc.append(
        "<circle class=\"point\" data-hit=\"\(SVGDocument.escaped(name(hit)))\" data-colour=\"\(colour)\" "
          + "cx=\"\(SVGDocument.number(x))\" cy=\"\(SVGDocument.number(y))\" r=\"4\" fill=\"\(colour)\" "
          + "stroke=\"#ffffff\" stroke-width=\"1.2\"><title>\(SVGDocument.escaped(title))</title></circle>")
    }
    doc.append("</g>")
    // Legend.
    var lines = [
      "t = \(frame.time) s, \(frame.count) rows, \(drawn) drawn"
        + (densityCount > 0 ? ", \(densityCount) below a pixel in the density layer" : "")
        + (notDrawn > 0 ? ", \(notDrawn) not drawable (empty or behind the viewer)" : ""),
      "filled: hittable; dashed grey: hidden; dotted orange: not interactive; thin grey: other",
      points.isEmpty
        ? "no query points"
        : "\(points.count) points, each hit outlined in its colour"
          + (modelFrame != nil ? "; dashed: the model tree's answer; red ring: \(mismatches) differ" : ""),
      strategy.map { "index: \($0), \(index.count) boxes" + (index.isEmpty ? " (no inspection)" : "") }
        ?? "index: none (--strategy NAME)",
    ]
    lines += caption
    let top = height - legendHeight + 4
    doc.append("<g id=\"legend\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222222\">")
    for (k, line) in lines.enumerated() {
      doc.append(
        "<text x=\"\(margin)\" y=\"\(SVGDocument.number(top + 14 + 18 * Double(k)))\">\(SVGDocument.escaped(line))</text>"
      )
    }
    doc.append("</g>")
    return doc.text
  }
}
