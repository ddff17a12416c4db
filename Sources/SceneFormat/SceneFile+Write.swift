import FileIO
import JSON
import LayerModel

/// Writes a layer tree as scene text with an explicit stack (deep chains are fine). Each layer
/// object starts on its own line, indented by depth up to 32 levels.
enum _SceneWriter {
  static func encode(_ root: Layer) -> String {
    var out = ""
    encode(root, into: &out)
    return out
  }

  /// The scene text into `out` as it is made (a file sink writes it a megabyte at a time).
  static func encode<Sink: TextSink>(_ root: Layer, into out: inout Sink) {
    encode(generating: { _ in root }, into: &out)
  }

  /// The text of the tree `make` generates (`SceneFile.encode(generating:)`): each top-level
  /// layer written as `make` seals it, then the root's remaining ones.
  static func encode<Sink: TextSink>(generating make: (_ seal: (Layer, Layer) -> Void) -> Layer, into out: inout Sink) {
    var written = 0
    let root = make { root, child in
      if written == 0 { begin(root, into: &out) }
      topLevel(child, at: written, into: &out)
      written += 1
    }
    if written == 0 { begin(root, into: &out) }
    for child in root.sublayers {
      topLevel(child, at: written, into: &out)
      written += 1
    }
    end(into: &out)
  }

  /// The document's opening and the root's own keys, up to its first sublayer.
  static func begin<Sink: TextSink>(_ root: Layer, into out: inout Sink) {
    out.write("{\"hitbench\": \(SceneFile.version), \"root\": ")
    out.write(opening(root))
  }

  /// The root's `k`-th sublayer and its subtree.
  static func topLevel<Sink: TextSink>(_ layer: Layer, at k: Int, into out: inout Sink) {
    out.write(k > 0 ? ",\n " : "\n ")
    subtree(layer, depth: 1, into: &out)
  }

  /// Closes the root and the document.
  static func end<Sink: TextSink>(into out: inout Sink) {
    out.write("]}}\n")
  }

  /// `layer` and its subtree, `depth` levels below the root (for the indentation).
  static func subtree<Sink: TextSink>(_ layer: Layer, depth: Int, into out: inout Sink) {
    // Each entry: a layer and how many of its sublayers are written so far.
    var stack: [(layer: Layer, next: Int)] = [(layer, 0)]
    out.write(opening(layer))
    while !stack.isEmpty {
      let top = stack.count - 1
      let (layer, next) = stack[top]
      if next < layer.sublayers.count {
        out.write((next > 0 ? ",\n" : "\n") + String(repeating: " ", count: min(stack.count + depth, 32)))
        stack[top].next += 1
        let child = layer.sublayers[next]
        out.write(opening(child))
        stack.append((child, 0))
        continue
      }
      out.write("]}")
      stack.removeLast()
    }
  }

  /// A layer object's keys up to its sublayers' array, left open.
  static func opening(_ layer: Layer) -> String {
    let members = properties(layer)
    var text = "{"
    for (k, (key, value)) in members.enumerated() {
      if k > 0 { text += ", " }
      JSONValue.quote(key, into: &text)
      text += ": "
      text += value.serialized()
    }
    text += members.isEmpty ? "\"sublayers\": [" : ", \"sublayers\": ["
    return text
  }

  /// A layer's keys, defaults omitted except bounds and position.
  static func properties(_ l: Layer) -> [(String, JSONValue)] {
    typealias E = _ValueEncoder
    var m: [(String, JSONValue)] = []
    if let name = l.name { m.append(("name", .string(name))) }
    m.append(("bounds", E.rect(l.bounds)))
    m.append(("position", E.point(l.position)))
    if l.anchorPoint != Point(0.5, 0.5) { m.append(("anchorPoint", E.point(l.anchorPoint))) }
    if l.anchorPointZ != 0 { m.append(("anchorPointZ", E.number(l.anchorPointZ))) }
    if l.zPosition != 0 || l.zPosition.isNaN { m.append(("zPosition", E.number(l.zPosition))) }
    if l.transform != .identity { m.append(("transform", E.transform(l.transform))) }
    if l.sublayerTransform != .identity { m.append(("sublayerTransform", E.transform(l.sublayerTransform))) }
    if l.masksToBounds { m.append(("masksToBounds", .bool(true))) }
    if l.isHidden { m.append(("hidden", .bool(true))) }
    if l.opacity != 1 { m.append(("opacity", E.number(l.opacity))) }
    if !l.isUserInteractionEnabled { m.append(("userInteractionEnabled", .bool(false))) }
    m.append(contentsOf: E.timing(l.timing, defaults: MediaTiming(duration: .infinity)))
    if !l._animations.isEmpty {
      m.append(("animations", .object(l._animations.map { ($0.key, E.animation($0.animation)) })))
    }
    return m
  }
}
