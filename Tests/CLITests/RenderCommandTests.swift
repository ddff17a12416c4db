import Foundation
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
    var all: [(name: String, attributes: [String: String])] = []
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) { all.append((name, attributes)) }
  }

  func parse(_ path: String) throws -> Elements {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let parser = XMLParser(data: data)
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "\(path) is not well-formed XML: \(String(describing: parser.parserError))")
    return elements
  }

  @Test func theSeedMoveMistakeIsDrawn() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = "data/scenes/seed-move.json"
    let points = ["150,50", "30,50", "250,50", "50,300"]
    let svg = dir + "/seed.svg"
    let r = try hitbench(
      ["render", "--scene", scene, "--time", "1", "--tree", "both", "--output", svg]
        + points.flatMap { ["--point", $0] })
    #expect(r.status == 0, "\(r.stderr)")
    let e = try parse(svg)
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
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let svg = dir + "/grid.svg"
    let r = try hitbench([
      "render", "--scene", "particles", "--layers", "500", "--time", "0.25", "--strategy", "grid", "--queries", "5",
      "--output", svg,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let e = try parse(svg)
    let cells = e.all.filter { $0.attributes["class"] == "cell" }.compactMap { Int($0.attributes["data-count"] ?? "") }
    #expect(!cells.isEmpty)
    // Each hittable layer is listed in every cell its box touches, so the cells hold at least
    // one entry per hittable layer drawn, and no cell is drawn empty.
    let hittable = e.all.filter { $0.attributes["class"] == "hittable" }.count
    #expect(cells.allSatisfy { $0 > 0 })
    #expect(cells.reduce(0, +) >= hittable - 1, "\(cells.reduce(0, +)) entries for \(hittable) hittable layers")
  }

  @Test func badOutputIsRefused() throws {
    #expect(try hitbench(["render", "--scene", "app", "--layers", "10", "--output", "x.png"]).status == 64)
    let r = try hitbench(["render", "--scene", "app", "--layers", "10", "--output", "/nonexistent/dir/x.svg"])
    #expect(r.status == 73, "\(r.status) \(r.stderr)")
  }
}
