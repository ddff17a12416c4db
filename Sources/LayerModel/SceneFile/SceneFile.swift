#if canImport(Glibc)
  import Glibc
#endif

/// What is wrong with a scene file: the file, the JSON path of the offending value (for example
/// `root.sublayers[2].bounds`) and what was expected. The CLI prints it and exits with 65.
public struct SceneFileError: Error, Sendable, CustomStringConvertible {
  public var file: String
  public var path: String
  public var message: String

  public init(file: String, path: String, message: String) {
    self.file = file
    self.path = path
    self.message = message
  }

  public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}

/// Reading and writing scene files: JSON documents `{"hitbench": 1, "root": {...}}` holding a
/// layer tree under CALayer's key names, with animations (see docs/scene-format.md). Reading is
/// one pass with an explicit stack, so a 100,000-deep chain reads without recursion; O(bytes).
public enum SceneFile {
  /// The format version this build reads and writes.
  public static let version = 1

  /// Reads a scene file from disk.
  public static func read(path: String) throws(SceneFileError) -> Layer {
    guard let bytes = _readBytes(path) else {
      throw SceneFileError(file: path, path: "", message: "cannot read the file (missing or unreadable)")
    }
    return try decode(bytes: bytes, file: path)
  }

  /// Parses a scene from its text; `file` names it in errors.
  public static func decode(_ text: String, file: String = "<scene>") throws(SceneFileError) -> Layer {
    try decode(bytes: Array(text.utf8), file: file)
  }

  public static func decode(bytes: [UInt8], file: String) throws(SceneFileError) -> Layer {
    var reader = _SceneReader(cursor: JSONParser(bytes: bytes), file: file)
    return try reader.readDocument()
  }

  /// The scene's text: one layer object per node, keys in a fixed order, defaults omitted.
  public static func encode(_ root: Layer) -> String {
    _SceneWriter.encode(root)
  }

  /// A deep copy of a tree (through its scene text, so nothing is shared).
  public static func _deepCopy(_ root: Layer) -> Layer {
    (try? decode(encode(root))) ?? root
  }

  /// Writes atomically: to a temporary file beside `path`, then renamed over it, so a failure
  /// never leaves half a file.
  public static func write(_ root: Layer, to path: String) throws(SceneFileError) {
    try writeText(encode(root), to: path)
  }

  /// Writes text atomically (temporary file, then rename).
  public static func writeText(_ text: String, to path: String) throws(SceneFileError) {
    let tmp = path + ".tmp-\(getpid())"
    guard let f = fopen(tmp, "wb") else {
      throw SceneFileError(file: path, path: "", message: "cannot write the file: \(String(cString: strerror(errno)))")
    }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    let closed = fclose(f)
    guard written == bytes.count, closed == 0, rename(tmp, path) == 0 else {
      unlink(tmp)
      throw SceneFileError(file: path, path: "", message: "cannot write the file: \(String(cString: strerror(errno)))")
    }
  }

  /// A whole file, or nil when it cannot be read.
  public static func _readBytes(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, f) }
      if n > 0 { out.append(contentsOf: chunk[0..<n]) }
      if n < chunk.count {
        if ferror(f) != 0 { return nil }
        break
      }
    }
    return out
  }
}
