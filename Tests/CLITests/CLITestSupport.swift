import Foundation

/// The outcome of one run of the built `hitbench`.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// The repository root, from this file's location.
let repoRoot: String = {
  let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  return parts.dropLast(3).joined(separator: "/")
}()

/// Runs the `hitbench` built beside the test bundle, in the repository root.
func hitbench(_ args: [String]) throws -> RunResult {
  let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  var exe = bundleDir.appendingPathComponent("hitbench")
  if !FileManager.default.fileExists(atPath: exe.path) {
    exe = URL(fileURLWithPath: repoRoot + "/.build/debug/hitbench")
  }
  return try run(exe, args)
}

/// The release `hitbench` that `scripts/test.sh` builds and names in `HITBENCH_RELEASE_BINARY`
/// (measurements are claims about the release build), or nil when it is not there.
let releaseHitbench: URL? = {
  guard let path = ProcessInfo.processInfo.environment["HITBENCH_RELEASE_BINARY"],
    FileManager.default.isExecutableFile(atPath: path)
  else { return nil }
  return URL(fileURLWithPath: path)
}()

/// Runs the release `hitbench` (see `releaseHitbench`), with `environment` added to this
/// process's.
func hitbenchRelease(_ args: [String], environment: [String: String] = [:]) throws -> RunResult {
  try run(releaseHitbench!, args, environment: environment)
}

private func run(_ exe: URL, _ args: [String], environment: [String: String] = [:]) throws -> RunResult {
  let p = Process()
  p.executableURL = exe
  p.arguments = args
  if !environment.isEmpty {
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  p.currentDirectoryURL = URL(fileURLWithPath: repoRoot)
  let out = Pipe()
  let err = Pipe()
  p.standardOutput = out
  p.standardError = err
  try p.run()
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return RunResult(
    status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
}

/// A fresh empty directory under the system's temporary directory.
func temporaryDirectory() throws -> String {
  let dir = NSTemporaryDirectory() + "hitbench-test-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  return dir
}
