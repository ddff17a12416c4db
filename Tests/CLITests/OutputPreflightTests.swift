import Foundation
import Testing

/// Outputs are checked before the work (FileIO+Preflight.swift): a command whose output cannot be
/// written exits 73 at once with one line, and changes no file.
@Suite struct OutputPreflightTests {
  /// `export` writes two files: when the second cannot be written, the first is not either
  /// (before, boxes.csv was replaced and then the export failed on points.csv).
  @Test func aFailedExportChangesNoFile() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/points.csv", withIntermediateDirectories: true)
    try "old\n".write(toFile: dir + "/boxes.csv", atomically: true, encoding: .utf8)
    let r = try hitbench(["export", "--scene", "app", "--layers", "100", "--out", dir])
    #expect(r.status == 73, "\(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("points.csv"), "\(r.stderr)")
    #expect(try String(contentsOfFile: dir + "/boxes.csv", encoding: .utf8) == "old\n")
    // A missing directory is created (the rule for directory options), with both files.
    let fresh = try hitbench(["export", "--scene", "app", "--layers", "100", "--out", dir + "/a/b"])
    #expect(fresh.status == 0, "\(fresh.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/a/b/points.csv"))
  }

  /// `run --verify --failures PATH` checks PATH before the first frame: a run that would find
  /// disagreements (an injected shrink) with a failures path under a file stops at once, before
  /// any frame, with nothing on stdout (before, the disagreements were found and then lost).
  @Test func unwritableOutputsStopARunBeforeItsFirstFrame() throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
    let common = ["run", "--scene", "app", "--layers", "200", "--frames", "3", "--warmup", "0", "--strategy", "grid"]
    for extra in [
      // A run that finds nothing wrong used to pass (exit 0, a report): the path is checked
      // whether or not a disagreement comes.
      ["--verify", "--failures", dir + "/file/failures"],
      ["--verify", "--inject-shrink", "0.5", "--failures", dir + "/file/failures"],
      ["--output", dir + "/missing/out.json"], ["--output", dir],
    ] {
      let r = try hitbench(common + extra)
      #expect(r.status == 73, "\(extra): \(r.stderr)")
      #expect(r.stdout.isEmpty, "\(extra): no frame ran: \(r.stdout)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(extra): \(r.stderr)")
    }
    let v = try hitbench(["verify", "--scenes", "1", "--histories", "0", "--output", dir + "/file"])
    #expect(v.status == 73 && v.stdout.isEmpty, "\(v.stderr)")
    for args in [
      ["render", "--scene", "app", "--layers", "100", "--output", dir + "/missing/x.svg"],
      ["generate", "app", "--layers", "100", "-o", dir + "/missing/x.json"],
    ] {
      let r = try hitbench(args)
      #expect(r.status == 73, "\(args[0]): \(r.stderr)")
    }
  }
}
