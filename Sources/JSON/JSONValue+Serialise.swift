extension JSONValue {
  /// Compact JSON text. Non-finite numbers, which JSON cannot hold, are written as the strings
  /// "nan", "infinity" and "-infinity" (the scene reader accepts those where it takes numbers).
  public func serialized(indent: Int? = nil) -> String {
    var out = ""
    _write(into: &out, indent: indent, level: 0)
    return out
  }

  private func _write(into out: inout String, indent: Int?, level: Int) {
    func newline(_ l: Int) {
      if let indent {
        out += "\n"
        out += String(repeating: " ", count: indent * l)
      }
    }
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let v): out += JSONValue.format(v)
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      let flat = items.allSatisfy { if case .number = $0 { true } else { false } }
      out += "["
      for (k, item) in items.enumerated() {
        if k > 0 { out += flat || indent == nil ? "," : "," }
        if !flat { newline(level + 1) } else if k > 0 && indent != nil { out += " " }
        item._write(into: &out, indent: indent, level: level + 1)
      }
      if !flat { newline(level) }
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (k, (key, value)) in members.enumerated() {
        if k > 0 { out += "," }
        newline(level + 1)
        JSONValue.quote(key, into: &out)
        out += indent == nil ? ":" : ": "
        value._write(into: &out, indent: indent, level: level + 1)
      }
      newline(level)
      out += "}"
    }
  }

  /// The shortest text that reads back as the same Double.
  public static func format(_ v: Double) -> String {
    if v.isNaN { return "\"nan\"" }
    if v.isInfinite { return v > 0 ? "\"infinity\"" : "\"-infinity\"" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
  }

  public static func quote(_ s: String, into out: inout String) {
    out += "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if u.value < 0x20 {
          let h = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    out += "\""
  }
}
