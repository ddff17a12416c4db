import HitTesting
import LayerModel
import Presentation

/// A picture of one frame: every layer's world quad in drawing order (clipped as the hit test
/// clips it), the query points with the layer each hits and the candidates the strategy tested
/// for it, the model tree's answers beside the presentation tree's and every point where they
/// differ, and a strategy's index. Written as SVG (alone, or as one frame of a
/// `PictureSequence`); each element carries data attributes (`data-row`, `data-hit`,
/// `data-count`, `data-candidates`) so tests and scripts can read the picture back.
/// O(rows + points + candidates + index boxes) elements up to `aggregateAbove` rows; above it
/// at most `aggregateAbove` layers and half as many index boxes are drawn, the largest on
/// screen (a layer or box below a pixel never): the other layers go to a density layer of
/// 8-pixel cells and the other boxes are counted in the legend, so a million-layer frame stays
/// a few megabytes.
public struct FramePicture {
  /// The presentation frame drawn (the model frame instead when only the model tree is asked).
  public var frame: PresentationFrame
  /// Layer names by `LayerID` (the model's preorder).
  public var names: [String]
  public var points: [Point] = []
  /// `answers[i]`: the drawn tree's answer for `points[i]`.
  public var answers: [LayerID?] = []
  /// `candidates[i]`: the layers the strategy gave the exact test for `points[i]`.
  public var candidates: [[LayerID]] = []
  /// With `--tree both`: the model tree's frame and answers, drawn beside the presentation's.
  public var modelFrame: PresentationFrame?
  public var modelAnswers: [LayerID?] = []
  /// The strategy whose index is drawn, and its boxes (nil: it has no inspection).
  public var strategy: String?
  public var index: [InspectedBox]? = []
  /// Lines of the legend beyond the ones the picture writes itself.
  public var caption: [String] = []
  /// The longer side of the picture, in pixels.
  public var size = 1000.0
  /// Scenes with more rows than this draw this many layers at most, and half as many index
  /// boxes.
  public var aggregateAbove = 20_000

  /// The lines of legend a picture writes before its caption.
  public static let legendLines = 5

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
    q.reserveCapacity(4)
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
  public func extent() -> Box {
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
    return e
  }

  /// An extent a view can show (a point or nothing becomes a 100 pt square).
  public static func viewable(_ e: Box) -> Box {
    if e.isEmpty || e.maxX - e.minX <= 0 || e.maxY - e.minY <= 0 {
      let x = e.isEmpty ? 0 : e.minX
      let y = e.isEmpty ? 0 : e.minY
      return Box(minX: x, minY: y, maxX: x + 100, maxY: y + 100)
    }
    return e
  }

  /// The picture alone, as SVG text.
  public func svg() -> String {
    let view = PictureView(
      extent: Self.viewable(extent()), size: size, legendLines: Self.legendLines + caption.count)
    let d = drawing(in: view, id: "")
    var doc = SVGDocument(width: view.width, height: view.height)
    doc.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
    d.defs.forEach { doc.define($0) }
    d.body.forEach { doc.append($0) }
    doc.append(Self.legend(d.legend, in: view))
    return doc.text
  }

  /// The legend's lines as one SVG group under the view's drawing area.
  public static func legend(_ lines: [String], in view: PictureView) -> String {
    let top = view.height - view.legendHeight + 4
    var s = "<g class=\"legend\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222222\">"
    for (k, line) in lines.enumerated() {
      s +=
        "<text x=\"\(view.margin)\" y=\"\(SVGDocument.number(top + 14 + 18 * Double(k)))\">"
        + "\(SVGDocument.escaped(line))</text>"
    }
    return s + "</g>"
  }

  /// One frame's elements, definitions (clip paths, their ids prefixed by `id`) and legend
  /// lines, in `view`.
  public func drawing(in view: PictureView, id: String) -> (body: [String], defs: [String], legend: [String]) {
    var body: [String] = []
    var defs: [String] = []
    func name(_ l: LayerID?) -> String {
      guard let l else { return "nil" }
      return Int(l.rawValue) < names.count ? names[Int(l.rawValue)] : "#\(l.rawValue)"
    }
    let rowOf = Self.rows(of: frame)
    let modelRowOf = modelFrame.map { Self.rows(of: $0) }
    let aggregate = frame.count > aggregateAbove
    // The on-screen area a layer needs to be drawn by itself (its world box, in pixels).
    let layerArea =
      aggregate
      ? Self.threshold(keeping: aggregateAbove, of: (0..<frame.count).map { view.pixelArea(frame.worldBox[$0]) }) : 0

    // Layers, back to front, each clipping ancestor's quad applied to its subtree.
    var density: [Int: Int] = [:]
    let densityCell = 8.0
    var densityCount = 0
    var drawn = 0
    var notDrawn = 0
    var open: [Int] = []  // subtree ends of the clip groups open
    body.append("<g class=\"layers\">")
    for r in 0..<frame.count {
      while let end = open.last, r >= end {
        body.append("</g>")
        open.removeLast()
      }
      let flags = frame.flags[r]
      guard let q = Self.quad(frame, r) else {
        notDrawn += 1
        continue
      }
      let box = q.reduce(Box.nothing) { $0.union(Box(minX: $1.x, minY: $1.y, maxX: $1.x, maxY: $1.y)) }
      if aggregate && (view.isBelowAPixel(box) || view.pixelArea(frame.worldBox[r]) < layerArea) {
        let (x, y) = view.px(Point(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2))
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
        body.append(
          "<polygon data-row=\"\(r)\" points=\"\(view.polygon(q))\" \(style)><title>"
            + "\(SVGDocument.escaped(name(frame.layer[r])))</title></polygon>")
        drawn += 1
      }
      if flags.contains(.clips) && Int(frame.subtreeEnd[r]) > r + 1 {
        defs.append("<clipPath id=\"\(id)clip\(r)\"><polygon points=\"\(view.polygon(q))\"/></clipPath>")
        body.append("<g clip-path=\"url(#\(id)clip\(r))\">")
        open.append(Int(frame.subtreeEnd[r]))
      }
    }
    for _ in open { body.append("</g>") }
    body.append("</g>")
    if !density.isEmpty {
      let most = Double(density.values.max() ?? 1)
      body.append("<g class=\"density\" data-count=\"\(densityCount)\">")
      for (key, n) in density.sorted(by: { $0.key < $1.key }) {
        let x = Double(key % 1_000_000) * densityCell
        let y = Double(key / 1_000_000) * densityCell
        let alpha = 0.15 + 0.85 * Double(n) / most
        body.append(
          "<rect x=\"\(SVGDocument.number(x))\" y=\"\(SVGDocument.number(y))\" width=\"\(densityCell)\" "
            + "height=\"\(densityCell)\" fill=\"#4a5a6a\" fill-opacity=\"\(SVGDocument.number(alpha))\"/>")
      }
      body.append("</g>")
    }

    // The index and the answers are clipped to the drawing area: unbounded groups' infinite
    // edges and scrolled content's quads stop at the picture's edge, above the legend.
    defs.append(
      "<clipPath id=\"\(id)area\"><rect width=\"\(SVGDocument.number(view.width))\" "
        + "height=\"\(SVGDocument.number(view.height - view.legendHeight))\"/></clipPath>")

    // The index, over the layers.
    let boxes = index ?? []
    var boxesLeftOut = 0
    if !boxes.isEmpty {
      body.append(
        "<g class=\"index\" data-strategy=\"\(SVGDocument.escaped(strategy ?? ""))\" clip-path=\"url(#\(id)area)\">")
      var most = [InspectedBox.Kind: Int]()
      for b in boxes { most[b.kind] = Swift.max(most[b.kind] ?? 1, b.value) }
      let boxArea =
        aggregate ? Self.threshold(keeping: aggregateAbove / 2, of: boxes.map { view.pixelArea($0.box) }) : 0
      for b in boxes {
        if aggregate && (view.isBelowAPixel(b.box) || view.pixelArea(b.box) < boxArea) {
          boxesLeftOut += 1
          continue
        }
        let share = Double(b.value) / Double(Swift.max(most[b.kind] ?? 1, 1))
        switch b.kind {
        case .cell:
          body.append(
            "<rect class=\"cell\" data-count=\"\(b.value)\" \(view.rect(b.box)) fill=\"#ff9900\" "
              + "fill-opacity=\"\(SVGDocument.number(0.08 + 0.6 * share))\" stroke=\"#cc7700\" stroke-width=\"0.3\">"
              + "<title>\(b.value) rows</title></rect>")
        case .node, .subtree:
          let hue = Int(240 * (1 - share))
          body.append(
            "<rect class=\"\(b.kind.rawValue)\" data-depth=\"\(b.value)\" \(view.rect(b.box)) fill=\"none\" "
              + "stroke=\"hsl(\(hue), 80%, 45%)\" stroke-width=\"0.8\"><title>depth \(b.value)</title></rect>")
        case .motionBound:
          body.append(
            "<rect class=\"motion-bound\" data-count=\"\(b.value)\" \(view.rect(b.box)) fill=\"#8a2be2\" "
              + "fill-opacity=\"0.05\" stroke=\"#8a2be2\" stroke-width=\"0.7\">"
              + "<title>a moving group of \(b.value) layers: its bound over the window</title></rect>")
        }
      }
      body.append("</g>")
    }

    // Answers: each point's candidates thin, its hit bold in the point's colour; the model
    // tree's dashed.
    var mismatches = 0
    var candidateCount = 0
    body.append("<g class=\"answers\" clip-path=\"url(#\(id)area)\">")
    for (i, p) in points.enumerated() where p.x.isFinite && p.y.isFinite {
      let colour = Self.palette[i % Self.palette.count]
      let hit = i < answers.count ? answers[i] : nil
      let tested = i < candidates.count ? candidates[i] : []
      candidateCount += tested.count
      for c in tested {
        if let r = rowOf(c), let q = Self.quad(frame, r) {
          body.append(
            "<polygon class=\"candidate\" data-point=\"\(i)\" points=\"\(view.polygon(q))\" fill=\"none\" "
              + "stroke=\"\(colour)\" stroke-width=\"0.8\" stroke-dasharray=\"2 2\"/>")
        }
      }
      if let hit, let r = rowOf(hit), let q = Self.quad(frame, r) {
        body.append(
          "<polygon class=\"answer\" points=\"\(view.polygon(q))\" fill=\"none\" stroke=\"\(colour)\" "
            + "stroke-width=\"2.5\"/>")
      }
      var title = "(\(SVGDocument.label(p.x)), \(SVGDocument.label(p.y))) -> \(name(hit))"
      if !tested.isEmpty { title += "; \(tested.count) candidates tested" }
      var differs = false
      if let model = modelFrame {
        let modelHit = i < modelAnswers.count ? modelAnswers[i] : nil
        differs = modelHit != hit
        if let modelHit, let r = modelRowOf?(modelHit), let q = Self.quad(model, r) {
          body.append(
            "<polygon class=\"model-answer\" points=\"\(view.polygon(q))\" fill=\"none\" stroke=\"\(colour)\" "
              + "stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>")
        }
        title += "; model tree -> \(name(modelHit))"
      }
      let (x, y) = view.px(p)
      if differs {
        mismatches += 1
        body.append(
          "<circle class=\"mismatch\" cx=\"\(SVGDocument.number(x))\" cy=\"\(SVGDocument.number(y))\" r=\"9\" "
            + "fill=\"none\" stroke=\"#ff0000\" stroke-width=\"2\"/>")
      }
      body.append(
        "<circle class=\"point\" data-hit=\"\(SVGDocument.escaped(name(hit)))\" data-colour=\"\(colour)\" "
          + "data-candidates=\"\(tested.count)\" cx=\"\(SVGDocument.number(x))\" cy=\"\(SVGDocument.number(y))\" "
          + "r=\"4\" fill=\"\(colour)\" stroke=\"#ffffff\" stroke-width=\"1.2\">"
          + "<title>\(SVGDocument.escaped(title))</title></circle>")
    }
    body.append("</g>")

    var indexLine = "index: none (--strategy NAME)"
    if let strategy {
      if let index {
        let kinds = Set(index.map(\.kind.rawValue)).sorted().joined(separator: ", ")
        indexLine =
          "index: \(strategy), \(index.count) boxes" + (kinds.isEmpty ? "" : " (\(kinds))")
          + (boxesLeftOut > 0
            ? ", \(boxesLeftOut) not drawn (below a pixel, or smaller than the \(aggregateAbove / 2) drawn)" : "")
      } else {
        indexLine = "index: \(strategy) shows no index (its candidates per point are drawn)"
      }
    }
    var legend = [
      "t = \(frame.time) s, \(frame.count) rows, \(drawn) drawn"
        + (densityCount > 0 ? ", \(densityCount) below a pixel in the density layer" : "")
        + (notDrawn > 0 ? ", \(notDrawn) not drawable (empty or behind the viewer)" : ""),
      "filled: hittable; dashed grey: hidden; dotted orange: not interactive; thin grey: other",
      points.isEmpty
        ? "no query points"
        : "\(points.count) points, each hit outlined in its colour"
          + (modelFrame != nil ? "; dashed: the model tree's answer; red ring: \(mismatches) differ" : ""),
      points.isEmpty || strategy == nil
        ? "" : "thin dashed in a point's colour: the \(candidateCount) candidates the strategy tested exactly",
      indexLine,
    ]
    legend += caption
    return (body, defs, legend.filter { !$0.isEmpty })
  }

  /// The smallest area among the `keep` largest (0 when there are no more than `keep`).
  static func threshold(keeping keep: Int, of areas: [Double]) -> Double {
    guard areas.count > keep, keep > 0 else { return 0 }
    let sorted = areas.sorted(by: >)
    // Ties at the threshold would pass it together: just above it when they would overflow.
    let t = sorted[keep - 1]
    return sorted[keep] == t ? t.nextUp : t
  }

  /// A lookup from layer to row (a frame's rows are not in layer order once layers are
  /// reordered or hidden subtrees left out).
  static func rows(of f: PresentationFrame) -> (LayerID) -> Int? {
    var most = -1
    for r in 0..<f.count { most = Swift.max(most, Int(f.layer[r].rawValue)) }
    var table = [Int32](repeating: -1, count: most + 1)
    for r in 0..<f.count { table[Int(f.layer[r].rawValue)] = Int32(r) }
    return { l in
      let i = Int(l.rawValue)
      return i >= 0 && i < table.count && table[i] >= 0 ? Int(table[i]) : nil
    }
  }
}
