import JSON
import Presentation
import SceneFormat
import Testing

@testable import FileIO
@testable import LayerModel

#if canImport(Glibc)
  import Glibc
#endif

/// Regressions for the reliability audit's model and scene-file defects (docs/reliability.md),
/// each shown to fail before its fix; file inputs live in data/regressions/.
@Suite struct InputReliabilityTests {
  private func readError(_ file: String) -> String? {
    do {
      _ = try SceneFile.read(path: repoPath("data/regressions/\(file)"))
      return nil
    } catch { return error.description }
  }

  /// `Layer.add` took a keyframe animation with 2 values and 3 keyTimes and read past the
  /// values. Key times that do not fit are ignored (the scene reader refuses them).
  @Test func keyTimesThatDoNotFitAreIgnored() {
    let l = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(0, 0))
    let k = KeyframeAnimation(keyPath: .position)
    k.values = [.point(Point(0, 0)), .point(Point(100, 0))]
    k.keyTimes = [0, 0.2, 1]
    k.duration = 1
    l.add(k, forKey: "k")
    #expect(l.presentationState(atLocalTime: 0.5).position == Point(50, 0), "evenly spread, as without keyTimes")
    let s = KeyframeAnimation(keyPath: .positionX)
    s.values = [.scalar(0), .scalar(10), .scalar(20)]
    s.keyTimes = [0, 0.9, 0.5]
    s.duration = 1
    l.add(s, forKey: "s")
    #expect(abs(l.presentationState(atLocalTime: 0.75).position.x - 15) < 1e-12, "decreasing keyTimes ignored")
    let builder = PresentationFrameBuilder(root: l)
    #expect(builder.build(at: 0.5).count == 1)
  }

  /// A lone high surrogate followed by another escape underflowed a UInt32 (a trap here, a
  /// wrong character and a dropped one in a release build).
  @Test func unpairedSurrogatesDecodeAsReplacementCharacters() throws {
    #expect(try JSONParser.parse("\"\\uD800\\u0041\"") == .string("\u{FFFD}A"))
    #expect(try JSONParser.parse("\"\\uDC00x\"") == .string("\u{FFFD}x"))
    #expect(try JSONParser.parse("\"\\uD83D\\uDE00\"") == .string("😀"))
    #expect(try JSONParser.parse("\"\\uD800\"") == .string("\u{FFFD}"))
    let root = try SceneFile.read(path: repoPath("data/regressions/lone-surrogate.json"))
    #expect(root.sublayers[0].name == "\u{FFFD}A")
  }

  @Test func leadingZerosAreNotJSON() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("01") }
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("-00.5") }
    #expect((try? JSONParser.parse("0.5")) == .number(0.5))
    #expect(readError("leading-zero-number.json")?.contains("leading zeros") == true)
  }

  @Test func duplicateKeysAndAnimationNamesAreRefused() {
    #expect(readError("duplicate-top-level-key.json")?.contains("duplicate key 'hitbench'") == true)
    #expect(readError("duplicate-animation-name.json")?.contains("duplicate animation name 'a'") == true)
  }

  /// Finite magnitudes beyond 1e12, and affine transforms distorting beyond 1e12:1, are
  /// refused naming the field and the limit: Double cannot give the reference answer there.
  @Test func outOfRangeNumbersAreRefusedNamingTheFieldAndTheLimit() throws {
    let position = try #require(readError("near-max-magnitude.json"))
    #expect(position.contains("root.sublayers[0].position[0]") && position.contains("1e12"), "\(position)")
    let width = try #require(readError("huge-bounds-width.json"))
    #expect(width.contains("root.sublayers[0].bounds[2]") && width.contains("1e12"), "\(width)")
    let transform = try #require(readError("over-distorted-transform.json"))
    #expect(transform.contains("root.sublayers[0].transform") && transform.contains("1e12"), "\(transform)")
    #expect(throws: SceneFileError.self) {
      try SceneFile.decode(#"{"hitbench": 1, "root": {"bounds": [0, 0, 10, 10], "position": [1e13, 0]}}"#)
    }
    let atLimit = try SceneFile.decode(
      #"{"hitbench": 1, "root": {"bounds": [0, 0, 10, 10], "position": [1e12, -1e12]}}"#)
    #expect(atLimit.position == Point(1e12, -1e12))
    let hostile = try SceneFile.decode(
      #"{"hitbench": 1, "root": {"bounds": [0, 0, "infinity", "nan"], "position": [0, 0]}}"#)
    #expect(hostile.bounds.size.width == .infinity, "non-finite values keep their defined behaviour")
  }

  /// A megabyte-long key was echoed twice and a bad value a million levels deep gave a 13 MB
  /// message: messages are one line of bounded length.
  @Test func errorMessagesAreOneBoundedLine() throws {
    let key = String(repeating: "k", count: 1 << 20) + "\n"
    let long = #"{"hitbench": 1, "root": {"bounds": [0, 0, 1, 1], "position": [0, 0], ""# + key + #"": 1}}"#
    var e1 = ""
    do { _ = try SceneFile.decode(long) } catch { e1 = error.description }
    #expect(e1.count < 1000 && !e1.contains("\n"), "\(e1.count) characters")
    let depth = 200_000
    var deep = #"{"hitbench": 1, "root": "#
    for _ in 0..<depth { deep += #"{"bounds": [0, 0, 1, 1], "position": [0, 0], "sublayers": ["# }
    deep += #"{"bounds": [0, 0, 1, 1], "position": "here"}"#
    for _ in 0..<depth { deep += "]}" }
    deep += "}"
    var message = ""
    do { _ = try SceneFile.decode(deep) } catch { message = error.description }
    #expect(message.contains("position") && message.contains("more levels"), "\(message.prefix(300))")
    #expect(message.count < 1000, "\(message.count) characters")
  }

  /// The atomic writer: a symbolic link is kept and its target replaced; a name of 250
  /// characters works (the temporary file's name no longer grows with it); a directory is
  /// refused; nothing is left behind.
  @Test func atomicWritesKeepLinksAndLeaveNothingBehind() throws {
    let dir = "/tmp/hitbench-fileio-\(getpid())"
    try FileIO.makeDirectories(dir)
    defer { _ = try? FileIO.readAll("/dev/null") }
    let target = dir + "/target.txt"
    try FileIO.writeAtomically("old", to: target)
    #expect(symlink(target, dir + "/link.txt") == 0)
    try FileIO.writeAtomically("new", to: dir + "/link.txt")
    var st = stat()
    #expect(lstat(dir + "/link.txt", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "the link is kept")
    #expect(try FileIO.readAll(target) == Array("new".utf8))
    let longName = dir + "/" + String(repeating: "n", count: 250)
    try FileIO.writeAtomically("long", to: longName)
    #expect(try FileIO.readAll(longName) == Array("long".utf8))
    #expect(throws: FileIOError.self) { try FileIO.writeAtomically("x", to: dir) }
    try FileIO.writeAtomically("sink", to: "/dev/null")
    #expect(stat("/dev/null", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR, "/dev/null is still a device")
    let left = try listDirectory(dir).filter { $0.hasPrefix(".hitbench-") }
    #expect(left.isEmpty, "temporary files left: \(left)")
    for name in try listDirectory(dir) { unlink(dir + "/" + name) }
    rmdir(dir)
  }

  /// A SIGTERM while the temporary file is being written removes it (the handler runs, then
  /// the signal's default action ends the process).
  @Test func aTerminatedWriteLeavesNoTemporaryFile() async throws {
    let path = "/tmp/hitbench-sigterm-\(getpid()).tmp"
    let fd = open(path, O_CREAT | O_WRONLY, 0o600)
    #expect(fd >= 0)
    close(fd)
    await #expect(processExitsWith: .signal(SIGTERM)) { [path = path as String] in
      var set = sigset_t()
      sigemptyset(&set)
      sigaddset(&set, SIGTERM)
      sigprocmask(SIG_UNBLOCK, &set, nil)
      signal(SIGTERM, SIG_DFL)
      _pendingTemporary.installed = false
      _pendingTemporary.set(path)
      raise(SIGTERM)
    }
    var st = stat()
    #expect(stat(path, &st) != 0, "the temporary file survived the signal")
  }
}

func listDirectory(_ path: String) throws -> [String] {
  guard let d = opendir(path) else { return [] }
  defer { closedir(d) }
  var out: [String] = []
  while let e = readdir(d) {
    let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if name != "." && name != ".." { out.append(name) }
  }
  return out
}
