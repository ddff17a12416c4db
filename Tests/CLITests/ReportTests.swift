import Foundation
import Testing

/// `hitbench report` and `run --report`: one self-contained page whose numbers and pictures
/// come from the results it was made from; two files add the comparison.
@Suite struct ReportTests {
  /// A microsecond figure as the page's table prints it.
  static func us(_ ns: Double) -> String {
    let us = ns / 1000
    if us >= 1000 {
      let f = NumberFormatter()
      f.numberStyle = .decimal
      f.maximumFractionDigits = 0
      f.usesGroupingSeparator = true
      f.groupingSeparator = ","
      return f.string(from: NSNumber(value: us.rounded())) ?? ""
    }
    let r = (us * 10).rounded() / 10
    return r == r.rounded() ? String(Int(r)) : String(r)
  }

  /// `hitbench run ARGS --report` with its JSON beside: the page and the results.
  static func reportedRun(_ args: [String], in dir: String) throws -> (page: String, results: [[String: Any]]) {
    let r = try hitbench(
      ["run"] + args + ["--report", dir + "/r.html", "--format", "json", "--output", dir + "/r.json"])
    try #require(r.status == 0, "\(r.stderr)")
    let doc = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any])
    return (
      try String(contentsOfFile: dir + "/r.html", encoding: .utf8), try #require(doc["results"] as? [[String: Any]])
    )
  }

  @Test func aRunsPageShowsItsNumbersAndLoadsNothing() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (page, results) = try Self.reportedRun(
      [
        "--scene", "app", "--layers", "300", "--strategy", "grid,window-grid,tree-walk", "--queries", "5", "--frames",
        "25", "--warmup", "2",
      ], in: dir)
    for result in results {
      let strategy = try #require(result["strategy"] as? String)
      let mean = try #require((result["frameNs"] as? [String: Any])?["mean"] as? Double)
      let p99 = try #require((result["frameNs"] as? [String: Any])?["p99"] as? Double)
      // Its table row holds its mean and p99 as the run measured them.
      let row = try #require(
        page.split(separator: "\n").first { $0.contains("</span> \(strategy)</td>") }, "\(strategy)")
      #expect(row.contains("<td>\(Self.us(mean))</td>") && row.contains("<td>\(Self.us(p99))</td>"), "\(row)")
      // Its line has a point for every point of its series.
      let series = try #require(result["series"] as? [String: Any])
      let frames = try #require(series["frameNs"] as? [Double])
      #expect(frames.count == result["frames"] as? Int, "every frame kept below the cap")
      let line = try #require(page.split(separator: "\n").first { $0.contains("data-strategy=\"\(strategy)\"") })
      let points = line.split(separator: "points=\"")[1].split(separator: "\"")[0].split(separator: " ")
      #expect(points.count == frames.count, "\(strategy): \(points.count) points for \(frames.count) frames")
    }
    // Self-contained: no script, stylesheet, font, image or address to fetch; the one image is
    // the scene's picture, held in the page.
    for outside in ["<script", "<link", "url(", "@import", "http:", "https:", "<iframe"] {
      #expect(!page.contains(outside), "the page holds \(outside)")
    }
    #expect(page.components(separatedBy: "src=").count - 1 == 1)
    #expect(page.components(separatedBy: "src=\"data:image/svg+xml;base64,").count - 1 == 1)
  }

  /// The picture of the scene in a page (`ReportPage.Picture`): its caption and its document.
  static func pictures(_ page: String) throws -> [(caption: String, svg: String)] {
    try page.components(separatedBy: "src=\"data:image/svg+xml;base64,").dropFirst().map { rest in
      let encoded = String(rest.prefix { $0 != "\"" })
      let svg = try #require(Data(base64Encoded: encoded).flatMap { String(data: $0, encoding: .utf8) })
      let caption = String(rest.components(separatedBy: "<figcaption>")[1].prefix { $0 != "<" })
      return (caption, svg)
    }
  }

  @Test func aRunsPageShowsItsFastestStrategyAtItsSlowestFrame() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (page, results) = try Self.reportedRun(
      [
        "--scene", "particles", "--layers", "400", "--strategy", "tree-walk,grid,window-grid", "--queries", "7",
        "--frames", "30", "--warmup", "2",
      ], in: dir)
    func mean(_ r: [String: Any]) -> Double { ((r["frameNs"] as? [String: Any])?["mean"] as? Double) ?? .infinity }
    let fastest = try #require(results.min { mean($0) < mean($1) })
    let strategy = try #require(fastest["strategy"] as? String)
    let frames = try #require((fastest["series"] as? [String: Any])?["frameNs"] as? [Double])
    let slowest = try #require(frames.indices.max { frames[$0] < frames[$1] })
    let pictures = try Self.pictures(page)
    try #require(pictures.count == 1)
    let (caption, svg) = pictures[0]
    #expect(
      caption.contains("as \(strategy) saw it") && caption.contains("(frame \(slowest) after the warm-up"), "\(caption)"
    )
    #expect(svg.contains("index: \(strategy)"), "the picture draws the strategy's index")
    // The frame's 7 points, each with the layer it hits and how many candidates it tested.
    let points = svg.components(separatedBy: "<circle class=\"point\" data-hit=\"").count - 1
    #expect(points == 7)
    #expect(svg.contains("t = \(Double(2 + slowest) / 120)"), "drawn at the slowest frame's time")
  }

  @Test func aPictureFileIsShownAndNothingElseIsTaken() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let run = try hitbench([
      "run", "--scene", "app", "--layers", "200", "--strategy", "grid", "--queries", "3", "--frames", "12",
      "--warmup", "1", "--format", "json", "--output", dir + "/a.json",
    ])
    try #require(run.status == 0, "\(run.stderr)")
    let render = try hitbench([
      "render", "--scene", "app", "--layers", "200", "--strategy", "grid", "--time", "0.25", "--queries", "3",
      "--output", dir + "/p.svg",
    ])
    try #require(render.status == 0, "\(render.stderr)")
    let r = try hitbench(["report", dir + "/a.json", "--picture", dir + "/p.svg", "--output", dir + "/a.html"])
    #expect(r.status == 0, "\(r.stderr)")
    let pictures = try Self.pictures(try String(contentsOfFile: dir + "/a.html", encoding: .utf8))
    #expect(pictures.map(\.svg) == [try String(contentsOfFile: dir + "/p.svg", encoding: .utf8)])
    #expect(pictures.map(\.caption) == ["p.svg"])
    // Not a picture: one line, exit 65, no page.
    let bad = try hitbench(["report", dir + "/a.json", "--picture", dir + "/a.json", "--output", dir + "/b.html"])
    #expect(bad.status == 65 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/b.html"))
    let missing = try hitbench(["report", dir + "/a.json", "--picture", dir + "/none.svg", "--output", dir + "/b.html"])
    #expect(missing.status == 65 && !FileManager.default.fileExists(atPath: dir + "/b.html"), "\(missing.stderr)")
  }

  @Test func twoFilesAreCompared() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let args = [
      "run", "--scene", "app", "--layers", "200", "--strategy", "grid,tree-walk", "--queries", "5", "--frames", "30",
      "--warmup", "2", "--format", "json",
    ]
    #expect(try hitbench(args + ["--output", dir + "/a.json"]).status == 0)
    // grid's queries 3 ms slower a frame: a regression however noisy the host.
    #expect(try hitbench(args + ["--inject-query-delay-ns", "grid:3000000", "--output", dir + "/b.json"]).status == 0)
    let r = try hitbench(["report", dir + "/a.json", dir + "/b.json", "--output", dir + "/c.html"])
    #expect(r.status == 0, "\(r.stderr)")
    let page = try String(contentsOfFile: dir + "/c.html", encoding: .utf8)
    #expect(page.contains(" against "))
    let rows = page.split(separator: "\n").filter { $0.contains("<td>frameNsMean</td>") }
    #expect(rows.contains { $0.hasPrefix("<tr><td>grid ") && $0.contains("REGRESSION") }, "\(rows)")
  }

  @Test func badInputStopsWithOneLine() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try "{\"not\": \"results\"}".write(toFile: dir + "/x.json", atomically: true, encoding: .utf8)
    let none = try hitbench(["report"])
    #expect(none.status == 64, "\(none.stderr)")
    let bad = try hitbench(["report", dir + "/x.json", "--output", dir + "/x.html"])
    #expect(bad.status == 65 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/x.html"))
    let unwritable = try hitbench(["report", dir + "/x.json", "--output", "/nonexistent-dir/x.html"])
    #expect(unwritable.status == 73, "\(unwritable.stderr)")
    let three = try hitbench(["report", dir + "/x.json", dir + "/x.json", dir + "/x.json"])
    #expect(three.status == 64, "\(three.stderr)")
  }
}
