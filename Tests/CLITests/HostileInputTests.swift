import Foundation
import Testing

/// The reliability audit's command-line defects (docs/reliability.md), each with its exact
/// input: every one gives exit 0, 64, 65 or 73 with a one-line message, never a signal, a hang
/// or a clobbered file.
@Suite struct HostileInputTests {
  private func tmp(_ name: String) -> String { "/tmp/hitbench-hostile-\(getpid())-\(name)" }

  private func expectOneLine(_ r: RunResult, _ code: Int32, _ needle: String, _ label: String) {
    #expect(r.status == code, "\(label): exit \(r.status), stderr \(r.stderr)")
    #expect(r.stderr.contains(needle), "\(label): \(r.stderr)")
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1 && (lines.first?.count ?? 0) < 600, "\(label): \(r.stderr.count) characters")
  }

  /// `run` and `profile` re-split raw arguments at '=' and ',' and crashed on "=" and ",".
  @Test func optionValuesThatAreOnlySeparators() throws {
    expectOneLine(
      try hitbench(["run", "--suite", "default", "--output", "=", "--layers", "100"]), 64,
      "--layers cannot be combined with --suite", "--output =")
    expectOneLine(
      try hitbench(["profile", "--strategy", "grid", "--perf-control", ","]), 64, "--perf-control", "--perf-control ,")
    expectOneLine(try hitbench(["run", "--queries", ","]), 64, "--queries", "--queries ,")
  }

  /// `--perf-control` opened any path for writing (overwriting a regular file) and hung on a
  /// FIFO without a reader.
  @Test func perfControlTakesOnlyFIFOsAndNeverHangs() throws {
    let file = tmp("not-a-fifo")
    try "keep me".write(toFile: file, atomically: false, encoding: .utf8)
    defer { unlink(file) }
    expectOneLine(
      try hitbench(["profile", "--strategy", "grid", "--layers", "100", "--seconds", "0.01", "--perf-control", file]),
      64,
      "is not a FIFO", "regular file")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
    let fifo = tmp("fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let start = Date()
    expectOneLine(
      try hitbench(["profile", "--strategy", "grid", "--layers", "100", "--seconds", "0.01", "--perf-control", fifo]),
      73,
      "no process reads it", "FIFO without a reader")
    #expect(Date().timeIntervalSince(start) < 30)
  }

  /// In-range values whose product is huge aborted in the allocator (exit 134).
  @Test func hugeProductsAreUsageErrors() throws {
    expectOneLine(
      try hitbench(["run", "--layers", "10", "--frames", "100000", "--warmup", "100000", "--queries", "1000000"]), 64,
      "the limit is", "run")
    expectOneLine(try hitbench(["verify", "--scenes", "1", "--points", "99999999999"]), 64, "--points", "verify")
    expectOneLine(
      try hitbench(["mismatch", "--frames", "100000", "--queries", "1000000"]), 64, "points", "mismatch")
  }

  /// Near 1e308 tree-walk itself answered wrongly: such numbers are bad data, naming the field.
  @Test func outOfRangeScenesAreBadData() throws {
    for (file, field) in [
      ("near-max-magnitude.json", "position[0]"), ("huge-bounds-width.json", "bounds[2]"),
      ("over-distorted-transform.json", "transform"),
    ] {
      expectOneLine(
        try hitbench(["hittest", "--scene", "data/regressions/\(file)", "--point", "1,1", "--strategy", "all"]), 65,
        field, file)
    }
  }

  @Test func malformedScenesAreBadData() throws {
    for (file, needle) in [
      ("duplicate-top-level-key.json", "duplicate key"), ("duplicate-animation-name.json", "duplicate animation name"),
      ("leading-zero-number.json", "leading zeros"),
    ] {
      expectOneLine(
        try hitbench(["hittest", "--scene", "data/regressions/\(file)", "--point", "1,1"]), 65, needle, file)
    }
  }

  /// A NUL and a newline in a layer name broke the text output into two lines.
  @Test func controlCharactersInNamesStayOnOneLine() throws {
    let r = try hitbench(["hittest", "--scene", "data/regressions/control-characters-in-name.json", "--point", "6,6"])
    #expect(r.status == 0)
    #expect(r.stdout == "6,6 -> a\\u{0}b\\u{a}c\n", "\(r.stdout.debugDescription)")
  }

  /// Borrowed options named `hitbench run` in their errors; output failures exited 65.
  @Test func errorsNameTheirCommandAndOutputFailuresExit73() throws {
    let e = try hitbench(["export", "--layers", "5", "--out", tmp("x")])
    expectOneLine(e, 64, "hitbench export: error", "export")
    #expect(!e.stderr.contains("hitbench run"))
    let p = try hitbench(["profile", "--strategy", "grid", "--scene", "forest"])
    expectOneLine(p, 64, "hitbench profile: error", "profile")
    expectOneLine(
      try hitbench(["run", "--layers", "100", "--frames", "1", "--warmup", "0", "--output", "/nonexistent-dir/out.txt"]
      ),
      73, "/nonexistent-dir/out.txt", "output in a missing directory")
    expectOneLine(
      try hitbench(["generate", "app", "--layers", "100", "-o", "/tmp"]), 73, "is a directory",
      "output onto a directory")
  }

  /// `--output` onto a symbolic link writes its target and keeps the link; onto /dev/null it
  /// writes into the device instead of replacing it.
  @Test func outputRespectsLinksAndDevices() throws {
    let target = tmp("target.csv")
    let link = tmp("link.csv")
    defer {
      unlink(link)
      unlink(target)
    }
    try "old".write(toFile: target, atomically: false, encoding: .utf8)
    #expect(symlink(target, link) == 0)
    let args = ["run", "--layers", "100", "--frames", "1", "--warmup", "0", "--strategy", "grid", "--format", "csv"]
    #expect(try hitbench(args + ["--output", link]).status == 0)
    let attributes = try FileManager.default.attributesOfItem(atPath: link)
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("strategy,"))
    #expect(try hitbench(args + ["--output", "/dev/null"]).status == 0)
    #expect(
      (try FileManager.default.attributesOfItem(atPath: "/dev/null"))[.type] as? FileAttributeType
        == .typeCharacterSpecial)
  }
}
