/// An SVG document written as text: elements appended in drawing order, attribute values and
/// text escaped for XML. A few kilobytes per thousand elements; no DOM is kept.
public struct SVGDocument {
  var _body: [String] = []
  var _defs: [String] = []
  public let width: Double
  public let height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// XML's five predefined entities.
  static let _entities: [Unicode.Scalar: String] = [
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
  ]

  /// Text with `&`, `<`, `>`, `"` and `'` replaced by entities, and characters XML 1.0 cannot
  /// hold (controls other than tab, newline and return) replaced by U+FFFD.
  public static func escaped(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s.unicodeScalars {
      if let entity = Self._entities[c] {
        out += entity
      } else if (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || (0xFFFE...0xFFFF).contains(c.value) {
        out += "\u{FFFD}"
      } else {
        out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// A number as a label shows it (a title, a legend): the value itself, to two decimals where
  /// that is exact enough, in Double's shortest form otherwise (`1e+300`), never clamped as
  /// coordinates are.
  public static func label(_ v: Double) -> String {
    guard v.isFinite, Swift.abs(v) < 1e9 else { return "\(v)" }
    return number(v)
  }

  /// A number as SVG reads it: two decimals at most, never an exponent or a non-finite value.
  public static func number(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let clamped = Swift.max(-1e9, Swift.min(1e9, v))
    let scaled = (clamped * 100).rounded()
    let whole = Int(scaled) / 100
    let frac = abs(Int(scaled) % 100)
    let sign = scaled < 0 && whole == 0 ? "-" : ""
    return frac == 0
      ? "\(sign)\(whole)"
      : frac % 10 == 0 ? "\(sign)\(whole).\(frac / 10)" : "\(sign)\(whole).\(frac < 10 ? "0" : "")\(frac)"
  }

  public mutating func append(_ element: String) { _body.append(element) }

  public mutating func define(_ element: String) { _defs.append(element) }

  /// The drawing as an `<svg>` element inside an HTML page (which needs no XML declaration or
  /// namespace; the definitions first).
  public var inlineElement: String {
    var s = "<svg width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" "
    s += "viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" role=\"img\">\n"
    if !_defs.isEmpty { s += "<defs>\n" + _defs.joined(separator: "\n") + "\n</defs>\n" }
    return s + _body.joined(separator: "\n") + "\n</svg>"
  }

  /// The whole document.
  public var text: String {
    var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" "
    s += "viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\">\n"
    if !_defs.isEmpty { s += "<defs>\n" + _defs.joined(separator: "\n") + "\n</defs>\n" }
    s += _body.joined(separator: "\n")
    s += "\n</svg>\n"
    return s
  }
}
