import JSON
import LayerModel

/// Reads a scene document. Layer objects nest through `sublayers`, so they are read by a state
/// machine with an explicit stack; every other value is small and read by the JSON parser.
struct _SceneReader {
  var cursor: JSONParser
  let values: _ValueDecoder

  static let layerKeys =
    [
      "name", "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform",
      "masksToBounds", "hidden", "opacity", "userInteractionEnabled", "sublayers", "animations",
    ] + _ValueDecoder.timingKeys

  init(cursor: JSONParser, file: String) {
    self.cursor = cursor
    self.values = _ValueDecoder(file: file)
  }

  private func syntax(_ e: JSONSyntaxError) -> SceneFileError {
    SceneFileError(file: values.file, path: "", message: "invalid JSON at \(e.description)")
  }

  private func syntax(_ message: String) -> SceneFileError {
    syntax(cursor.error(message))
  }

  mutating func readDocument() throws(SceneFileError) -> Layer {
    cursor.skipBOM()
    guard cursor.consume("{") else {
      if cursor.atEnd() { throw SceneFileError(file: values.file, path: "", message: "the file is empty") }
      throw SceneFileError(
        file: values.file, path: "", message: "expected a JSON object {\"hitbench\": 1, \"root\": ...}")
    }
    var root: Layer?
    var version: JSONValue?
    var sawDescription = false
    var first = true
    while true {
      if first && cursor.consume("}") { break }
      first = false
      let key = try readKey()
      switch key {
      case "root":
        if root != nil { throw values.fail("root", "duplicate key 'root'") }
        root = try readLayerTree()
      case "hitbench":
        if version != nil { throw values.fail("hitbench", "duplicate key 'hitbench'") }
        do { version = try cursor.parseValue() } catch { throw syntax(error) }
      case "description":
        if sawDescription { throw values.fail("description", "duplicate key 'description'") }
        sawDescription = true
        let path = "description"
        do { _ = try values.string(try cursor.parseValue(), path) } catch let e as JSONSyntaxError {
          throw syntax(e)
        } catch let e as SceneFileError { throw e } catch { throw syntax("\(error)") }
      default:
        throw values.fail(
          _ValueDecoder.shown(key),
          "unknown key '\(_ValueDecoder.shown(key))' at the top level (expected hitbench, root, description)")
      }
      if cursor.consume(",") { continue }
      if cursor.consume("}") { break }
      throw syntax("expected ',' or '}' after a top-level value")
    }
    guard cursor.atEnd() else { throw syntax("unexpected text after the scene object") }
    guard let version else { throw values.fail("hitbench", "missing 'hitbench' (the format version, 1)") }
    guard case .number(let n) = version, n == Double(SceneFile.version) else {
      throw values.fail("hitbench", "unsupported format version (this build reads version \(SceneFile.version))")
    }
    guard let root else { throw values.fail("root", "missing 'root' (the root layer object)") }
    return root
  }

  private mutating func readKey() throws(SceneFileError) -> String {
    cursor.skipSpace()
    guard cursor.i < cursor.bytes.count, cursor.bytes[cursor.i] == UInt8(ascii: "\"") else {
      throw syntax("expected a key in quotes")
    }
    let key: String
    do { key = try cursor.parseString() } catch { throw syntax(error) }
    guard cursor.consume(":") else { throw syntax("expected ':' after '\(_ValueDecoder.shown(key))'") }
    return key
  }

  private enum State {
    case memberStart(first: Bool)
    case afterMember
    case sublayerStart(first: Bool)
    case afterSublayer
  }

  private struct Pending {
    var members: [(String, JSONValue)] = []
    var children: [Layer] = []
    var hasSublayers = false
    var state = State.memberStart(first: true)
  }

  /// The JSON path of the innermost layer being read; past 12 levels, the first and last six
  /// with the number of levels between (a million-level path would be megabytes long).
  private static func path(_ stack: [Pending]) -> String {
    let levels = stack.count - 1
    func step(_ k: Int) -> String { ".sublayers[\(stack[k].children.count)]" }
    var s = "root"
    if levels <= 12 {
      for k in 0..<levels { s += step(k) }
    } else {
      for k in 0..<6 { s += step(k) }
      s += "…(\(levels - 12) more levels)…"
      for k in (levels - 6)..<levels { s += step(k) }
    }
    return s
  }

  private mutating func readLayerTree() throws(SceneFileError) -> Layer {
    cursor.skipSpace()
    guard cursor.consume("{") else {
      let found: String
      do { found = try cursor.parseValue().typeName } catch { found = "invalid JSON" }
      throw values.fail("root", "expected a layer object, found \(found)")
    }
    var stack = [Pending()]
    while true {
      let top = stack.count - 1
      switch stack[top].state {
      case .memberStart(let first):
        if first && cursor.consume("}") {
          if let done = try close(&stack) { return done }
          continue
        }
        let key = try readKey()
        if key == "sublayers" {
          if stack[top].hasSublayers { throw values.fail(Self.path(stack) + ".sublayers", "duplicate key 'sublayers'") }
          stack[top].hasSublayers = true
          guard cursor.consume("[") else {
            throw values.fail(Self.path(stack) + ".sublayers", "expected an array of layer objects")
          }
          stack[top].state = .sublayerStart(first: true)
        } else {
          do { stack[top].members.append((key, try cursor.parseValue())) } catch { throw syntax(error) }
          stack[top].state = .afterMember
        }
      case .afterMember:
        if cursor.consume(",") {
          stack[top].state = .memberStart(first: false)
        } else if cursor.consume("}") {
          if let done = try close(&stack) { return done }
        } else {
          throw syntax("expected ',' or '}' in the layer at \(Self.path(stack))")
        }
      case .sublayerStart(let first):
        if first && cursor.consume("]") {
          stack[top].state = .afterMember
        } else if cursor.consume("{") {
          stack.append(Pending())
        } else {
          throw values.fail(
            Self.path(stack) + ".sublayers[\(stack[top].children.count)]", "expected a layer object")
        }
      case .afterSublayer:
        if cursor.consume(",") {
          stack[top].state = .sublayerStart(first: false)
        } else if cursor.consume("]") {
          stack[top].state = .afterMember
        } else {
          throw syntax("expected ',' or ']' in \(Self.path(stack)).sublayers")
        }
      }
    }
  }

  /// Builds the innermost layer; answers it when it was the root.
  private func close(_ stack: inout [Pending]) throws(SceneFileError) -> Layer? {
    let layer: Layer
    do {
      // Decoded with paths relative to the layer; the layer's own path (O(depth) to build) is
      // only prefixed when something is wrong.
      layer = try makeLayer(stack[stack.count - 1].members, "")
    } catch {
      var e = error
      e.path = Self.path(stack) + e.path
      throw e
    }
    let pending = stack.removeLast()
    for child in pending.children { layer._appendSublayerUnchecked(child) }
    guard !stack.isEmpty else { return layer }
    stack[stack.count - 1].children.append(layer)
    stack[stack.count - 1].state = .afterSublayer
    return nil
  }

  private func makeLayer(_ members: [(String, JSONValue)], _ path: String) throws(SceneFileError) -> Layer {
    try values.checkKeys(members, known: Self.layerKeys, path, what: "a layer")
    let layer = Layer()
    var sawBounds = false
    var sawPosition = false
    for (key, v) in members {
      let p = "\(path).\(key)"
      switch key {
      case "name": layer.name = try values.string(v, p)
      case "bounds":
        layer.bounds = try values.rect(v, p)
        sawBounds = true
      case "position":
        layer.position = try values.point(v, p)
        sawPosition = true
      case "anchorPoint": layer.anchorPoint = try values.point(v, p)
      case "anchorPointZ": layer.anchorPointZ = try values.geometric(v, p)
      case "zPosition": layer.zPosition = try values.geometric(v, p)
      case "transform": layer.transform = try values.transform(v, p)
      case "sublayerTransform": layer.sublayerTransform = try values.transform(v, p)
      case "masksToBounds": layer.masksToBounds = try values.bool(v, p)
      case "hidden": layer.isHidden = try values.bool(v, p)
      case "opacity": layer.opacity = try values.number(v, p)
      case "userInteractionEnabled": layer.isUserInteractionEnabled = try values.bool(v, p)
      case "animations":
        for (k, a) in try values.animations(v, p) { layer._addUncopied(a, forKey: k) }
      default: break
      }
    }
    try values.timing(members, path, into: &layer.timing)
    if !sawBounds { throw values.fail(path, "missing 'bounds' ([x, y, width, height])") }
    if !sawPosition { throw values.fail(path, "missing 'position' ([x, y])") }
    return layer
  }
}
