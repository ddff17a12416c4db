import Foundation
import Testing

/// Instruction counts under Callgrind (scripts/instructions.sh): a counted run collects only the
/// asked phase of its measured frames, and a loop of known length (two instructions an
/// iteration, a million iterations) is counted within 1%. Skipped, visibly, without Valgrind or
/// the release binary.
@Suite struct InstructionCountTests {
  static let valgrind: String? = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
    .map { "\($0)/valgrind" }.first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    .enabled(if: valgrind != nil, "valgrind is not installed (apt install valgrind)"),
    .enabled(
      if: releaseHitbench != nil, "HITBENCH_RELEASE_BINARY names no release hitbench (scripts/test.sh builds it)"))
  func aKnownLoopAndEachStrategyAreCounted() throws {
    let dir = NSTemporaryDirectory() + "hitbench-callgrind-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.valgrind!)
    p.arguments = [
      "-q", "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=\(dir)/cg.%p", releaseHitbench!.path,
      "run", "--scene", "app", "--layers", "100", "--strategy", "grid,window-grid", "--queries", "5", "--frames", "2",
      "--warmup", "1", "--format", "csv",
    ]
    p.environment = ProcessInfo.processInfo.environment.merging(["HITBENCH_COUNTED_PHASE": "queries"]) { $1 }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    // Each dump: its label and its total.
    var dumps: [String: Int] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
      let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
      var label: String?
      var total: Int?
      for line in text.split(separator: "\n") {
        if line.hasPrefix("desc: Trigger: Client Request: ") { label = String(line.dropFirst(31)) }
        if line.hasPrefix("totals: ") { total = Int(line.dropFirst(8).split(separator: " ")[0]) }
      }
      if let label, let total { dumps[label] = total }
    }
    let loop = try #require(dumps["hitbench calibration iterations=1000000"], "\(dumps)")
    #expect(abs(Double(loop) / 2_000_000 - 1) < 0.01, "a 2,000,000-instruction loop counted \(loop)")
    for strategy in ["grid", "window-grid"] {
      let counted = dumps["hitbench strategy=\(strategy) queries=5 frames=2 phase=queries"]
      #expect((counted ?? 0) > 0, "\(strategy): \(dumps)")
    }
  }
}
