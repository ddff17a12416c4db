import FileIO
import JSON
import LayerModel

/// What is wrong with a scene file: the file, the JSON path of the offending value (for example
/// `root.sublayers[2].bounds`) and what was expected. The CLI prints it and exits with 65.
/// The description is one line of bounded length: long keys are cut, control characters
/// escaped, and the path of a layer a million levels deep keeps its first and last levels.
public struct SceneFileError: Error, Sendable, CustomStringConvertible {
  public var file: String
  public var path: String
  public var message: String

  public init(file: String, path: String, message: String) {
    (self.file, self.path, self.message) = (file, path, message)
  }

  public var description: String {
    let f = FileIO.displayName(file)
    let m = SceneFile._bounded(message, 400)
    return path.isEmpty ? "\(f): \(m)" : "\(f): \(SceneFile._bounded(path, 240)): \(m)"
  }
}

/// Reading and writing scene files: JSON documents `{"hitbench": 1, "root": {...}}` holding a
/// layer tree under CALayer's key names, with animations (see docs/scene-format.md). Reading is
/// one pass with an explicit stack, so a 100,000-deep chain reads without recursion; O(bytes).
public enum SceneFile {
  /// The format version this build reads and writes.
  public static let version = 1

  /// Reads a scene file from disk.
  public static func read(path: String) throws(SceneFileError) -> Layer {
    let bytes: [UInt8]
    do { bytes = try FileIO.readAll(path) } catch {
      throw SceneFileError(file: path, path: "", message: error.message)
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

  /// Writes atomically (see `FileIO.writeAtomically`): a failure never leaves half a file.
  public static func write(_ root: Layer, to path: String) throws(FileIOError) {
    try FileIO.writeAtomically(to: path) { (sink: inout FileTextSink) in _SceneWriter.encode(root, into: &sink) }
  }

  /// Hands a generator the means to write its root's sublayers as it finishes them: `make`
  /// calls `seal(root, child)` for each finished top-level layer in order (and may then drop
  /// it), and returns the root with the sublayers it did not seal, which follow them. The text
  /// is the same as `encode` of the whole tree; the tree is never held whole.
  public static func encode(generating make: (_ seal: (Layer, Layer) -> Void) -> Layer) -> String {
    var out = ""
    _SceneWriter.encode(generating: make, into: &out)
    return out
  }

  /// `encode(generating:)` written atomically to `path`, a megabyte at a time.
  public static func write(
    to path: String, generating make: (_ seal: (Layer, Layer) -> Void) -> Layer
  ) throws(FileIOError) {
    try FileIO.writeAtomically(to: path) { (sink: inout FileTextSink) in
      _SceneWriter.encode(generating: make, into: &sink)
    }
  }

  /// `text` with control characters escaped, cut to `limit` characters (with an ellipsis).
  static func _bounded(_ text: String, _ limit: Int) -> String { FileIO.shown(text, limit: limit) }
}
