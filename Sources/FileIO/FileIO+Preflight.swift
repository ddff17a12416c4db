#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Checks made before a command does its work, so that a command whose output cannot be
/// written fails at once (exit 73) and changes no file: not after minutes of frames, and not
/// after writing the first of several files. They change nothing themselves. The rule every
/// command follows: a file option (`--output FILE`, `-o FILE`) names a file in a directory that
/// exists; a directory option (`--out DIR`, `--failures DIR`, `verify --output DIR`) is created
/// when missing, with its parents.
extension FileIO {
  /// Throws unless `writeAtomically(_:to:)` could write `path` now: a regular file, device or
  /// FIFO that can be written (or none yet), in an existing directory the process can create
  /// files in; not a directory, not a dangling link, not an empty name.
  public static func checkWritable(_ path: String) throws(FileIOError) {
    let (target, existing) = try _writeTarget(path)
    if let st = existing, st.st_mode & S_IFMT != S_IFREG {
      // Written in place.
      guard access(target, W_OK) == 0 else {
        throw FileIOError(.cannotCreate, path: path, message: "cannot write: \(_errnoText())")
      }
      return
    }
    let dir = _directory(of: target)
    guard isDirectory(dir) else {
      throw FileIOError(.cannotCreate, path: path, message: "its directory '\(displayName(dir))' does not exist")
    }
    guard access(dir, W_OK | X_OK) == 0 else {
      throw FileIOError(.cannotCreate, path: path, message: "cannot create files in its directory: \(_errnoText())")
    }
  }

  /// Throws unless `makeDirectories(path)` could make `path` (or it is already a directory the
  /// process can create files in): the nearest part of it that exists is such a directory.
  public static func checkDirectoryCreatable(_ path: String) throws(FileIOError) {
    guard !path.isEmpty else { throw FileIOError(.cannotCreate, path: path, message: "an empty directory name") }
    var current = path
    var st = stat()
    while stat(current, &st) != 0 {
      guard errno == ENOENT else {
        throw FileIOError(.cannotCreate, path: path, message: "cannot create the directory: \(_errnoText())")
      }
      let parent = _directory(of: current)
      guard parent != current else { break }
      current = parent
    }
    guard st.st_mode & S_IFMT == S_IFDIR else {
      throw FileIOError(.cannotCreate, path: path, message: "'\(displayName(current))' is not a directory")
    }
    guard access(current, W_OK | X_OK) == 0 else {
      throw FileIOError(.cannotCreate, path: path, message: "cannot create files in '\(displayName(current))'")
    }
  }
}
