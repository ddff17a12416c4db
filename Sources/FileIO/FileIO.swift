#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Why a file could not be read or written: the path, what failed, and whether it was reading
/// (bad input, sysexits 65/66) or creating output (sysexits 73). One line, bounded in length.
public struct FileIOError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable { case cannotRead, cannotCreate }
  public var kind: Kind
  public var path: String
  public var message: String

  public init(_ kind: Kind, path: String, message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  public var description: String { "\(FileIO.displayName(path)): \(message)" }
}

/// Reading whole files and writing output files safely: bounded reads, and atomic writes that
/// never leave half a file, never follow a planted temporary file, keep symbolic links and
/// write into device nodes and FIFOs instead of replacing them. No Foundation.
public enum FileIO {
  /// Files larger than this are refused by `readAll` (a scene of a million layers is ~200 MB).
  public static let defaultReadLimit = 1 << 30

  /// A path as it appears in messages: `shown(path, limit: 160)`.
  public static func displayName(_ path: String) -> String { shown(path, limit: 160) }

  /// Text as it appears in a one-line message: control characters escaped (`\u{1b}`), cut to
  /// `limit` characters with an ellipsis. The one escaping every message uses (file paths,
  /// command-line values, scene-file strings).
  public static func shown(_ text: String, limit: Int) -> String {
    var out = ""
    var n = 0
    for u in text.unicodeScalars {
      if n >= limit {
        out += "…"
        break
      }
      if u.value < 0x20 || u.value == 0x7F {
        out += "\\u{\(String(u.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(u)
      }
      n += 1
    }
    return out
  }

  static func _errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

  // MARK: Reading

  /// The whole file. Refuses directories and anything longer than `limit` bytes (a device such
  /// as /dev/zero would otherwise be read forever).
  public static func readAll(_ path: String, limit: Int = defaultReadLimit) throws(FileIOError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw FileIOError(.cannotRead, path: path, message: "cannot read the file: \(_errnoText())") }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      throw FileIOError(.cannotRead, path: path, message: "cannot read the file: \(_errnoText())")
    }
    let type = st.st_mode & S_IFMT
    if type == S_IFDIR { throw FileIOError(.cannotRead, path: path, message: "is a directory, not a file") }
    // A FIFO or terminal: block on reads like any reader would (open did not, so a FIFO
    // without a writer reads as empty instead of hanging).
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var out: [UInt8] = []
    if type == S_IFREG && st.st_size > 0 { out.reserveCapacity(Swift.min(Int(st.st_size), limit) + 1) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw FileIOError(.cannotRead, path: path, message: "cannot read the file: \(_errnoText())")
      }
      if n == 0 { break }
      if out.count + n > limit {
        throw FileIOError(.cannotRead, path: path, message: "is larger than \(limit >> 20) MiB (the limit)")
      }
      out.append(contentsOf: chunk[0..<n])
    }
    return out
  }

  // MARK: Writing

  /// Writes `text` to `path` so that readers see the old file or the new one, never a part:
  /// - a regular file (or a new one) is replaced atomically: written to an exclusively created,
  ///   unpredictable temporary file in the same directory, flushed, then renamed over it (its
  ///   mode is kept); the temporary file is removed on failure and on SIGINT, SIGTERM and SIGHUP
  ///   (not on SIGKILL, which no process can intercept);
  /// - a symbolic link is followed: its target is replaced and the link stays;
  /// - a character device, FIFO or socket (/dev/null, a pipe) is written to in place;
  /// - a directory or a dangling link is refused.
  public static func writeAtomically(_ text: String, to path: String) throws(FileIOError) {
    var bytes = Array(text.utf8)
    try writeAtomically(bytes: &bytes, to: path)
  }

  public static func writeAtomically(bytes: inout [UInt8], to path: String) throws(FileIOError) {
    try _writeAtomically(to: path) { fd in _writeAll(fd, bytes) }
  }

  /// Writes what `produce` writes into its sink, as `writeAtomically(_:to:)` does (a temporary
  /// file renamed over the target, or in place for a device or FIFO), a megabyte at a time: the
  /// text is never whole in memory.
  public static func writeAtomically(to path: String, streaming produce: (inout FileTextSink) -> Void)
    throws(FileIOError)
  {
    try _writeAtomically(to: path) { fd in
      var sink = FileTextSink(fd)
      produce(&sink)
      return sink._finish()
    }
  }

  /// The atomic write, with `emit` writing the whole content to the file descriptor (false: it
  /// failed, with errno set).
  static func _writeAtomically(to path: String, _ emit: (Int32) -> Bool) throws(FileIOError) {
    let (target, existing) = try _writeTarget(path)
    if let st = existing, st.st_mode & S_IFMT != S_IFREG {
      return try _writeInPlace(emit, to: target, shownAs: path)
    }
    let mode: mode_t = existing.map { $0.st_mode & 0o7777 } ?? _defaultMode()
    let dir = _directory(of: target)
    var (fd, tmp) = try _createTemporary(in: dir, for: path)
    _pendingTemporary.set(tmp)
    defer { _pendingTemporary.clear() }
    var failure: String?
    if !emit(fd) {
      failure = "cannot write: \(_errnoText())"
    } else if fchmod(fd, mode) != 0 || fsync(fd) != 0 {
      failure = "cannot write: \(_errnoText())"
    }
    if close(fd) != 0 && failure == nil { failure = "cannot write: \(_errnoText())" }
    fd = -1
    if failure == nil && rename(tmp, target) != 0 { failure = "cannot write: \(_errnoText())" }
    if let failure {
      unlink(tmp)
      throw FileIOError(.cannotCreate, path: path, message: failure)
    }
    tmp = ""
  }

  /// What an atomic write of `path` writes to: the path, or a symbolic link's target, and its
  /// status when it exists (a regular file is replaced, a device or FIFO written in place).
  /// Throws for an empty name, a dangling link or a directory. Shared by the write and its
  /// preflight (`checkWritable`), so both apply one rule.
  static func _writeTarget(_ path: String) throws(FileIOError) -> (target: String, existing: stat?) {
    guard !path.isEmpty else { throw FileIOError(.cannotCreate, path: path, message: "an empty file name") }
    var target = path
    var lst = stat()
    if lstat(path, &lst) == 0 && lst.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(path, nil) else {
        throw FileIOError(.cannotCreate, path: path, message: "is a symbolic link to a missing file")
      }
      target = String(cString: resolved)
      free(resolved)
    }
    var st = stat()
    guard stat(target, &st) == 0 else { return (target, nil) }
    if st.st_mode & S_IFMT == S_IFDIR { throw FileIOError(.cannotCreate, path: path, message: "is a directory") }
    return (target, st)
  }

  /// The names in a directory (not `.` or `..`), sorted; nil when it cannot be read.
  public static func directoryEntries(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Whether `path` names a directory (following links).
  public static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
  }

  /// Creates a directory and its missing parents (mkdir -p).
  public static func makeDirectories(_ path: String) throws(FileIOError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      current += "/" + part
      if mkdir(current, 0o777) != 0 && errno != EEXIST {
        throw FileIOError(.cannotCreate, path: current, message: "cannot create the directory: \(_errnoText())")
      }
    }
    var st = stat()
    guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
      throw FileIOError(.cannotCreate, path: path, message: "is not a directory")
    }
  }

  static func _writeInPlace(_ emit: (Int32) -> Bool, to target: String, shownAs path: String) throws(FileIOError) {
    // Non-blocking open: a FIFO without a reader is an error (ENXIO), not a hang.
    let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      let reason = errno == ENXIO ? "is a FIFO with no reader" : "cannot write: \(_errnoText())"
      throw FileIOError(.cannotCreate, path: path, message: reason)
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    let ok = emit(fd)
    let code = errno
    close(fd)
    guard ok else { throw FileIOError(.cannotCreate, path: path, message: "cannot write: \(_errnoText(code))") }
  }

  static func _writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buf in
      var done = 0
      while done < buf.count {
        let n = write(fd, buf.baseAddress! + done, buf.count - done)
        if n < 0 {
          if errno == EINTR { continue }
          return false
        }
        done += n
      }
      return true
    }
  }

  static func _directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let dir = String(path[..<slash])
    return dir.isEmpty ? "/" : dir
  }

  static func _defaultMode() -> mode_t {
    let mask = umask(0)
    umask(mask)
    return 0o666 & ~mask
  }

  /// An exclusively created temporary file (`O_EXCL | O_NOFOLLOW`: a planted file or link with
  /// the same name makes the attempt fail instead of being written through), with a random name
  /// short enough for any directory.
  static func _createTemporary(in dir: String, for path: String) throws(FileIOError) -> (Int32, String) {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<32 {
      let name = dir + "/.hitbench-" + String(rng.next() & 0xFFFF_FFFF_FFFF, radix: 36)
      let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if fd >= 0 { return (fd, name) }
      if errno != EEXIST {
        throw FileIOError(
          .cannotCreate, path: path, message: "cannot create a file in \(displayName(dir)): \(_errnoText())")
      }
    }
    throw FileIOError(.cannotCreate, path: path, message: "cannot create a temporary file in \(displayName(dir))")
  }
}
