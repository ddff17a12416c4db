import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `hitbench render` against `hitbench hittest`: the picture's answers, mismatches and layer
/// count are those the hit test gives for the same scene, time and points; the grid overlay's
/// counts are the grid's.
@Suite struct RenderCommandTests {
  /// The SVG parsed as XML, with every element's attributes.
  final class Elements: NSObject, XMLParserDelegate {
    /// Every element, with the index of the animation frame (`g.frame`) it is in (-1: none).
    var all: [(name: String, attributes: [String: String], frame: Int)] = []
    var frames = 0
    var open: [Bool] = []  // per open element: whether it is a frame group
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let isFrame = name == "g" && attributes["class"] == "frame"
      if isFrame { frames += 1 }
      open.append(isFrame)
      all.append((name, attributes, open.contains(true) ? frames - 1 : -1))
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      open.removeLast()
    }
  }

  func parse(_ path: String) throws -> Elements {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let parser = XMLParser(data: data)
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "\(path) is not well-formed XML: \(String(describing: parser.parserError))")
    return elements
  }

  /// `hitbench render ARGS --output FILE.svg` in a fresh directory: the picture parsed, and its
  /// size in bytes.
  func render(_ args: [String]) throws -> (elements: Elements, bytes: Int) {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let svg = dir + "/picture.svg"
    let r = try hitbench(["render"] + args + ["--output", svg])
    #expect(r.status == 0, "\(r.stderr)")
    let bytes = (try FileManager.default.attributesOfItem(atPath: svg)[.size] as? Int) ?? 0
    return (try parse(svg), bytes)
  }

  @Test func theSeedMoveMistakeIsDrawn() throws {
    let scene = "data/scenes/seed-move.json"
    let points = ["150,50", "30,50", "250,50", "50,300"]
    let e = try render(["--scene", scene, "--time", "1", "--tree", "both"] + points.flatMap { ["--point", $0] })
      .elements
    // The answers, as hittest gives them on each tree.
    var differ = 0
    let drawn = e.all.filter { $0.attributes["class"] == "point" }.map { $0.attributes["data-hit"] ?? "" }
    #expect(drawn.count == points.count)
    for (i, p) in points.enumerated() {
      let presentation = try hitbench(["hittest", "--scene", scene, "--time", "1", "--point", p])
      let model = try hitbench(["hittest", "--scene", scene, "--time", "1", "--tree", "model", "--point", p])
      let hit = presentation.stdout.components(separatedBy: "-> ").last?.trimmingCharacters(in: .whitespacesAndNewlines)
      let modelHit = model.stdout.components(separatedBy: "-> ").last?.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(
        i < drawn.count && drawn[i] == hit,
        "point \(p): drawn \(i < drawn.count ? drawn[i] : "-"), hittest \(hit ?? "-")")
      if hit != modelHit { differ += 1 }
    }
    #expect(differ > 0, "the seed scene's model tree must differ somewhere")
    #expect(e.all.filter { $0.attributes["class"] == "mismatch" }.count == differ)
    // Every layer of the two-layer scene drawn, each with its name.
    #expect(e.all.filter { $0.name == "polygon" && $0.attributes["data-row"] != nil }.count == 2)
  }

  @Test func theGridOverlayHoldsTheGridsCounts() throws {
    let e = try render([
      "--scene", "particles", "--layers", "500", "--time", "0.25", "--strategy", "grid", "--queries", "5",
    ]).elements
    let cells = e.all.filter { $0.attributes["class"] == "cell" }.compactMap { Int($0.attributes["data-count"] ?? "") }
    #expect(!cells.isEmpty)
    // The grid lists each hittable layer in every cell its world box touches: a cell's count
    // is the number of layers whose box (the bounding box of its quad) overlaps it, counted
    // here from the picture. Edges within the picture's rounding (0.02 px) of a cell's edge may
    // go either way.
    let boxes = e.all.filter { $0.attributes["class"] == "hittable" }.map { l -> (Double, Double, Double, Double) in
      let q = corners(l.attributes)
      return (q.map(\.0).min()!, q.map(\.1).min()!, q.map(\.0).max()!, q.map(\.1).max()!)
    }
    #expect(cells.allSatisfy { $0 > 0 })
    let rects = e.all.filter { $0.attributes["class"] == "cell" }
    // A box over more than 64 cells (the root) goes to the grid's overflow list instead: only
    // boxes that surely span fewer are surely listed.
    let side = rects.first.flatMap { Double($0.attributes["width"] ?? "") } ?? 1
    func small(_ b: (Double, Double, Double, Double)) -> Bool {
      ((b.2 - b.0) / side + 2).rounded(.down) * ((b.3 - b.1) / side + 2).rounded(.down) <= 64
    }
    for c in rects {
      let (x, y, x1, y1) = rectangle(c.attributes) ?? (.nan, .nan, .nan, .nan)
      func overlaps(_ b: (Double, Double, Double, Double), by d: Double) -> Bool {
        b.0 <= x1 + d && b.2 >= x - d && b.1 <= y1 + d && b.3 >= y - d
      }
      let surely = boxes.filter { small($0) && overlaps($0, by: -0.02) }.count
      let maybe = boxes.filter { overlaps($0, by: 0.02) }.count
      let count = Int(c.attributes["data-count"] ?? "") ?? -1
      #expect(surely <= count && count <= maybe, "cell at \(x),\(y): \(count) rows, \(surely) to \(maybe) boxes")
    }
  }

  /// A scene file of `layers` particles (hittest reads files only).
  func particles(_ layers: Int, in dir: String) throws -> String {
    let file = dir + "/particles.json"
    let g = try hitbench(["generate", "particles", "--layers", "\(layers)", "-o", file])
    #expect(g.status == 0, "\(g.stderr)")
    return file
  }

  /// hittest's answer for each point ("X,Y -> name" lines).
  func hittest(_ scene: String, _ time: Double, _ strategy: String, _ points: [String]) throws -> [String] {
    let r = try hitbench(
      ["hittest", "--scene", scene, "--time", "\(time)", "--strategy", strategy] + points.flatMap { ["--point", $0] })
    #expect(r.status == 0, "\(r.stderr)")
    return r.stdout.split(separator: "\n").compactMap { $0.components(separatedBy: "-> ").last }
  }

  /// A rect's corners (x0, y0, x1, y1) from its attributes.
  func rectangle(_ rect: [String: String]) -> (Double, Double, Double, Double)? {
    guard let x = Double(rect["x"] ?? ""), let y = Double(rect["y"] ?? ""), let w = Double(rect["width"] ?? ""),
      let h = Double(rect["height"] ?? "")
    else { return nil }
    return (x, y, x + w, y + h)
  }

  /// The numbers of a polygon's `points` attribute as (x, y) pairs.
  func corners(_ polygon: [String: String]) -> [(Double, Double)] {
    let numbers = (polygon["points"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).compactMap {
      Double(String($0))
    }
    return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
  }

  @Test(arguments: ["window-grid", "linear-bvh", "stagger-grid"])
  func aTimeAwareStrategyShowsItsBoundsAndCandidates(_ strategy: String) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = try particles(300, in: dir)
    let svg = dir + "/bounds.svg"
    let points = ["100,100", "300,200", "512,384", "700,500", "250,600", "900,100"]
    let time = 0.7
    let r = try hitbench(
      ["render", "--scene", scene, "--time", "\(time)", "--strategy", strategy, "--output", svg]
        + points.flatMap { ["--point", $0] })
    #expect(r.status == 0, "\(r.stderr)")
    let e = try parse(svg)
    // Answers as hittest gives them with the same strategy.
    let expected = try hittest(scene, time, strategy, points)
    let drawn = e.all.filter { $0.attributes["class"] == "point" }
    #expect(drawn.map { $0.attributes["data-hit"] ?? "" } == expected)
    // Each point's candidates drawn, as many as it says; a point that hits a particle tested it.
    for (i, p) in drawn.enumerated() {
      let n = Int(p.attributes["data-candidates"] ?? "") ?? -1
      let outlined = e.all.filter { $0.attributes["class"] == "candidate" && $0.attributes["data-point"] == "\(i)" }
      #expect(outlined.count == n, "point \(i): \(outlined.count) outlined, \(n) said")
      if expected[i] != "root" { #expect(n >= 1, "point \(i) hit \(expected[i]) with no candidate") }
    }
    // Every particle moves on its own: one bound per particle, and each particle's quad at t
    // inside its group's bound (0.02 px: the picture's rounding).
    let bounds = e.all.filter { $0.attributes["class"] == "motion-bound" }.compactMap { rectangle($0.attributes) }
    let layers = e.all.filter { $0.attributes["class"] == "hittable" && $0.attributes["data-row"] != "0" }
    #expect(bounds.count >= layers.count && !layers.isEmpty, "\(bounds.count) bounds for \(layers.count) particles")
    for l in layers {
      let q = corners(l.attributes)
      let inside = bounds.contains { b in
        q.allSatisfy { $0.0 >= b.0 - 0.02 && $0.0 <= b.2 + 0.02 && $0.1 >= b.1 - 0.02 && $0.1 <= b.3 + 0.02 }
      }
      #expect(inside, "row \(l.attributes["data-row"] ?? "?") is outside every motion bound")
    }
  }

  @Test func theFlatTreeShowsItsSubtreeBoxes() throws {
    let e = try render([
      "--scene", "app", "--layers", "200", "--time", "0.3", "--strategy", "flat-tree", "--queries", "4",
    ]).elements
    let boxes = e.all.filter { $0.attributes["class"] == "subtree" }
    // The root's subtree box (depth 0) is one, and deeper rows have boxes of their own.
    #expect(boxes.filter { $0.attributes["data-depth"] == "0" }.count == 1)
    #expect(boxes.contains { (Int($0.attributes["data-depth"] ?? "") ?? 0) >= 2 })
  }

  @Test func anAnimatedPictureHoldsEveryFrame() throws {
    let scene = "data/scenes/seed-move.json"
    let points = ["150,50", "30,50", "250,50"]
    let e = try render(
      ["--scene", scene, "--times", "0:2:0.5", "--tree", "both"] + points.flatMap { ["--point", $0] }
    )
    .elements
    let times = [0.0, 0.5, 1.0, 1.5, 2.0]
    let frames = e.all.filter { $0.attributes["class"] == "frame" }
    #expect(frames.compactMap { Double($0.attributes["data-time"] ?? "") } == times)
    // Each frame animated by SMIL (no script), with hittest's answers at its time.
    #expect(e.all.filter { $0.name == "animate" }.count == times.count)
    #expect(!e.all.contains { $0.name == "script" })
    for (k, t) in times.enumerated() {
      let drawn = e.all.filter { $0.frame == k && $0.attributes["class"] == "point" }.map {
        $0.attributes["data-hit"] ?? ""
      }
      #expect(drawn == (try hittest(scene, t, "tree-walk", points)), "t = \(t)")
    }
  }

  @Test func thePageIsSelfContained() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let page = dir + "/page.html"
    let r = try hitbench([
      "render", "--scene", "particles", "--layers", "100", "--times", "0:1:0.25", "--strategy", "grid", "--queries",
      "3",
      "--output", page,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.components(separatedBy: "<g class=\"frame\"").count - 1 == 5)
    #expect(html.contains("type=\"range\"") && html.contains("id=\"play\""))
    // Nothing fetched: no URL but the SVG namespace, no link, no source or reference attribute.
    let urls = html.components(separatedBy: "://").dropFirst().map { String($0.prefix(20)) }
    #expect(urls.allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") }, "\(urls)")
    for attribute in [" src=", " href=", "<link", "@import", "url(http", "fetch(", "XMLHttpRequest"] {
      #expect(!html.contains(attribute), "the page holds \(attribute)")
    }
  }

  @Test func aLargeFrameStaysBounded() throws {
    let layers = TestSize.pick(full: 200_000, fast: 40_000)
    let (e, size) = try render([
      "--scene", "particles", "--layers", "\(layers)", "--time", "0.5", "--strategy", "bvh-sah", "--queries", "5",
    ])
    let drawn = e.all.filter { $0.name == "polygon" && $0.attributes["data-row"] != nil }.count
    let density = e.all.first { $0.attributes["class"] == "density" }.flatMap { Int($0.attributes["data-count"] ?? "") }
    #expect(drawn <= 20_000 && drawn > 0, "\(drawn) layers drawn")
    #expect(drawn + (density ?? 0) == layers, "\(drawn) drawn + \(density ?? 0) in the density layer")
    #expect(e.all.filter { $0.attributes["class"] == "node" }.count <= 10_000)
    #expect(size < 8_000_000, "\(size) bytes")
  }

  @Test func badOutputIsRefused() throws {
    #expect(try hitbench(["render", "--scene", "app", "--layers", "10", "--output", "x.png"]).status == 64)
    let r = try hitbench(["render", "--scene", "app", "--layers", "10", "--output", "/nonexistent/dir/x.svg"])
    #expect(r.status == 73, "\(r.status) \(r.stderr)")
    for times in ["1:0:0.1", "0:1:0", "0:1", "0:1e9:0.001", "a:b:c"] {
      let bad = try hitbench(["render", "--scene", "app", "--layers", "10", "--times", times, "--output", "x.svg"])
      #expect(bad.status == 64 && bad.stderr.contains("--times"), "--times \(times): \(bad.status) \(bad.stderr)")
    }
  }
}
