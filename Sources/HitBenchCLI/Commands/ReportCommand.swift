import BenchKit
import FileIO
import JSON
import Reports

/// `hitbench report RESULT.json [NEW.json] --output report.html`: one self-contained HTML page
/// of a run's results (`ReportPage`); with two files, the second compared with the first;
/// `--picture FILE.svg` (from `hitbench render`) shows a frame of the scene and an index beside.
enum ReportCommand {
  static let summary = "Write one self-contained HTML page of a run's results (two: compared)."

  struct Options {
    var output = "report.html"
    var pictures: [String] = []
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "report", summary: summary)
    p.positionalNames = ["RESULT.json", "NEW.json"]
    p.requiredPositionals = 1
    p.option(
      "--output", \.output, valueName: "FILE.html",
      help: "where the page goes (default report.html; written atomically, its directory must exist)",
      expected: "a file path", parse: ArgumentValues.path
    )
    p.repeatedOption(
      "--picture", \.pictures, valueName: "FILE.svg",
      help:
        "an SVG picture to show after the first run's targets, as hitbench render draws a frame and an index (repeatable)",
      expected: "a file path", parse: ArgumentValues.path
    )
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let files = try parser.parse(args, into: &o).positionals
    guard files.count <= 2 else {
      throw .usage(command: "report", message: "give one results file, or two to compare (got \(files.count))")
    }
    do { try FileIO.checkWritable(o.output) } catch { throw .file(error) }
    var runs: [(name: String, document: JSONValue)] = []
    for path in files {
      let bytes: [UInt8]
      do { bytes = try FileIO.readAll(path) } catch { throw .file(error) }
      do { runs.append((FileIO.displayName(path), try JSONParser.parse(bytes: bytes))) } catch {
        throw .data("\(FileIO.displayName(path)): invalid JSON at \(error)")
      }
    }
    var pictures: [ReportPage.Picture] = []
    for path in o.pictures {
      let bytes: [UInt8]
      do { bytes = try FileIO.readAll(path) } catch { throw .file(error) }
      let name = FileIO.displayName(path)
      guard let text = String(validating: bytes, as: UTF8.self), ReportPage.Picture.isSVG(text) else {
        throw .data("\(name): not an SVG document (--picture takes a picture hitbench render wrote)")
      }
      // Its file's name, not where it was on the machine that made the page.
      pictures.append(ReportPage.Picture(caption: String(name.split(separator: "/").last ?? ""), svg: text))
    }
    let page: String
    do { page = try ReportPage.html(runs, pictures: pictures) } catch { throw .data(error.description) }
    do { try FileIO.writeAtomically(page, to: o.output) } catch { throw .file(error) }
  }
}
