import BenchmarkSuites
import Foundation
import Testing

/// Benchmarks/target-log.md names every target the suites declare, under its suite, as it is
/// declared (a target's name carries its value): a target added or changed without a line in
/// the log fails here, and so does a line for a target no suite declares any more.
@Suite struct TargetLogTests {
  /// The "In force" table's rows as (suite, target).
  static func inForce() throws -> [(suite: String, target: String)] {
    let log = try String(contentsOfFile: repoRoot + "/Benchmarks/target-log.md", encoding: .utf8)
    let section = try #require(log.components(separatedBy: "## In force").dropFirst().first)
      .components(separatedBy: "\n## ")[0]
    return section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| suite ") }.map { line in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      return (cells[1], cells[2])
    }
  }

  @Test func everyDeclaredTargetIsLoggedAndNothingElse() throws {
    let logged = try Self.inForce()
    let declared = allSuites.flatMap { suite in suite.targets.map { (suite: suite.name, target: $0.name) } }
    #expect(!declared.isEmpty)
    for d in declared {
      #expect(logged.contains { $0 == d }, "not in Benchmarks/target-log.md: \(d.suite) | \(d.target)")
    }
    for l in logged {
      #expect(declared.contains { $0 == l }, "logged but no suite declares it: \(l.suite) | \(l.target)")
    }
  }
}
