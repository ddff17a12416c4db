import BenchKit
import FileIO
import JSON

/// `hitbench compare BASE.json NEW.json [--threshold P%]`: every metric the base run's suite
/// declares (`thresholds` in its JSON), for every result of the base (`ResultComparison`);
/// exit 1 on a regression or a missing result, 65 on a file that is not a results file.
enum CompareCommand {
  static let summary = "Compare two JSON result files on every metric their suite declares; exit 1 on a regression."

  struct Options {
    var threshold: Double?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "compare", summary: summary)
    p.positionalNames = ["BASE.json[,BASE2.json...]", "NEW.json[,NEW2.json...]"]
    p.requiredPositionals = 2
    p.option(
      "--threshold", optional: \.threshold, valueName: "P%",
      help: "override every time metric's allowed growth (default: the suite's thresholds)",
      expected: "a percentage like 5% or a fraction like 0.05, at most 1000%"
    ) { s in
      let v = s.hasSuffix("%") ? ArgumentValues.finite(String(s.dropLast())).map { $0 / 100 } : ArgumentValues.finite(s)
      return v.flatMap { $0 >= 0 && $0 <= Threshold.largestRelative ? $0 : nil }
    }
    return p
  }

  static func load(_ path: String) throws(CommandError) -> ResultsFile {
    let bytes: [UInt8]
    do { bytes = try FileIO.readAll(path) } catch { throw .file(error) }
    let doc: JSONValue
    do { doc = try JSONParser.parse(bytes: bytes) } catch {
      throw .data("\(FileIO.displayName(path)): invalid JSON at \(error)")
    }
    do { return try ResultsFile(doc) } catch { throw .data("\(FileIO.displayName(path)): \(error)") }
  }

  /// A side of the comparison: one file, or several runs of one command separated by commas,
  /// pooled (`ResultsFile.pooled`).
  static func loadPooled(_ list: String) throws(CommandError) -> ResultsFile {
    let paths = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard paths.count > 1 else { return try load(list) }
    var runs: [ResultsFile] = []
    for path in paths {
      guard !path.isEmpty else { throw .usage(command: "compare", message: "an empty file name in '\(list)'") }
      runs.append(try load(path))
    }
    do { return try ResultsFile.pooled(runs) } catch { throw .data("\(FileIO.displayName(list)): \(error)") }
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    let files = try parser.parse(args, into: &o).positionals
    let base = try loadPooled(files[0])
    let new = try loadPooled(files[1])
    let comparison: ResultComparison
    do { comparison = try ResultComparison(base: base, new: new, relativeOverride: o.threshold) } catch {
      throw .data("\(FileIO.displayName(files[0])) against \(FileIO.displayName(files[1])): \(error)")
    }
    guard !comparison.rows.isEmpty || !comparison.missing.isEmpty else {
      throw .data("no result in \(files[1]) matches one in \(files[0])")
    }
    let keyWidth = Swift.min(70, (comparison.rows.map(\.key.description.count).max() ?? 10) + 2)
    Output.out(
      "result".padding(to: keyWidth) + "metric".padding(to: 32) + "base".leftPadded(13) + "new".leftPadded(13)
        + "change".leftPadded(10) + "  " + "interval".padding(to: 32) + "\n")
    for r in comparison.rows {
      let pct =
        r.change.isFinite ? "\(r.change > 0 ? "+" : "")\(formatNumber((r.change * 1000).rounded() / 10))%" : "new"
      let verdict = r.verdict == .same ? "" : "  " + r.verdict.rawValue
      let interval: String = r.ratioInterval.map { r.intervalLabel + " " + $0.formatted() } ?? "-"
      let numbers: String =
        r.metric.format(r.base).leftPadded(13) + r.metric.format(r.new).leftPadded(13) + pct.leftPadded(10)
      let line: String =
        r.key.description.padding(to: keyWidth) + r.metric.rawValue.padding(to: 32) + numbers + "  "
        + interval.padding(to: 32) + verdict
      Output.out(line + "\n")
    }
    for k in comparison.missing { Output.out("\(k): MISSING from \(FileIO.displayName(files[1]))\n") }
    if !comparison.added.isEmpty {
      Output.out("\(comparison.added.count) results only in \(FileIO.displayName(files[1])) (not compared)\n")
    }
    // Each configuration's run as a whole, where its strategies' means were judged against it.
    var seen = Set<String>()
    for r in comparison.rows where r.metric == .frameNsMean {
      guard let run = r.runRatio else { continue }
      let configuration = r.key.configurationFields.joined(separator: " ")
      guard seen.insert(configuration).inserted else { continue }
      Output.out(
        "\(configuration): the run as a whole new/base \(formatNumber((run * 1000).rounded() / 1000))x "
          + "(the median strategy's frameNsMean; the host or shared code: judge it by instructions)\n")
    }
    Output.out(
      "means and p99s with blocks judged at \(ResultComparison.percent(comparison.judgedLevel)) each: no false regression "
        + "among them in \(ResultComparison.percent(1 - ResultComparison.familyLevel)) of comparisons\n")
    let regressions = comparison.regressions
    let noisy = comparison.rows.filter { $0.verdict == .withinNoise }.count
    let results = Set(comparison.rows.map(\.key)).count
    Output.out(
      "\(results) results, \(comparison.rows.count) metrics compared, \(regressions) regressions"
        + (comparison.missing.isEmpty ? "" : " (\(comparison.missing.count) missing results)")
        + ", \(noisy) slower within noise (not counted)\n")
    if regressions > 0 { throw .failed("\(regressions) regressions") }
  }
}
