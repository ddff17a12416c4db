extension ReportPage {
  /// A picture the page shows beside a run's numbers: an SVG document (a frame of the scene
  /// with a strategy's index, as `hitbench render` draws it) and what it shows.
  public struct Picture: Sendable {
    public var caption: String
    /// A whole SVG document.
    public var svg: String

    public init(caption: String, svg: String) {
      self.caption = caption
      self.svg = svg
    }

    /// Whether `text` is an SVG document: its first element, after an XML declaration,
    /// comments and white space, is `<svg`.
    public static func isSVG(_ text: String) -> Bool {
      var rest = Substring(text)
      while true {
        rest = rest.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if rest.hasPrefix("<?xml") || rest.hasPrefix("<!--") || rest.hasPrefix("<!DOCTYPE") {
          let end = rest.hasPrefix("<!--") ? "-->" : ">"
          guard let r = rest.range(of: end) else { return false }
          rest = rest[r.upperBound...]
        } else {
          return rest.hasPrefix("<svg")
        }
      }
    }
  }

  /// The pictures as figures. Each is an image of its own document (a `data:` address, read
  /// from the page itself, never fetched): a picture's ids, styles and fonts stay its own, so
  /// two pictures, or a picture and the page's charts, cannot clash.
  static func _pictures(_ pictures: [Picture]) -> String {
    guard !pictures.isEmpty else { return "" }
    var out = "<h2>Scene and index</h2>\n"
    for p in pictures {
      out +=
        "<figure><img style=\"width:760px;max-width:100%\" alt=\"\(_html(p.caption))\" "
        + "src=\"data:image/svg+xml;base64,\(_base64(Array(p.svg.utf8)))\">"
        + "<figcaption>\(_html(p.caption))</figcaption></figure>\n"
    }
    return out
  }
}

/// `bytes` in base64 (RFC 4648, padded).
func _base64(_ bytes: [UInt8]) -> String {
  let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  var out: [UInt8] = []
  out.reserveCapacity((bytes.count + 2) / 3 * 4)
  var i = 0
  while i < bytes.count {
    let n = Swift.min(3, bytes.count - i)
    let b0 = UInt32(bytes[i])
    let b1 = n > 1 ? UInt32(bytes[i + 1]) : 0
    let b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
    let v = b0 << 16 | b1 << 8 | b2
    out.append(alphabet[Int(v >> 18 & 63)])
    out.append(alphabet[Int(v >> 12 & 63)])
    out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
    out.append(n > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
    i += 3
  }
  return String(decoding: out, as: UTF8.self)
}
