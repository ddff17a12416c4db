/// A recursive-descent JSON reader (RFC 8259) with a nesting limit, so a hostile file cannot
/// overflow the stack.
public struct JSONParser {
  public let bytes: [UInt8]
  public var i = 0
  private var depth = 0
  /// Deeper values are rejected with an error rather than a crash: small enough for a 512 KiB
  /// thread stack in a debug build. (Scene layers nest without this parser's recursion.)
  public static let maximumDepth = 256

  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    var p = JSONParser(bytes: Array(text.utf8))
    return try p.parseDocument()
  }

  public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var p = JSONParser(bytes: bytes)
    return try p.parseDocument()
  }

  public init(bytes: [UInt8]) { self.bytes = bytes }

  public func error(_ message: String) -> JSONSyntaxError {
    var line = 1
    var col = 1
    for b in bytes[0..<min(i, bytes.count)] {
      if b == 0x0A {
        line += 1
        col = 1
      } else {
        col += 1
      }
    }
    return JSONSyntaxError(line: line, column: col, message: message)
  }

  public mutating func skipSpace() {
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
  }

  /// Skips a UTF-8 byte order mark.
  public mutating func skipBOM() {
    if i == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
  }

  /// Skips white space and consumes `c` if it comes next.
  public mutating func consume(_ c: Character) -> Bool {
    skipSpace()
    guard i < bytes.count, bytes[i] == c.asciiValue! else { return false }
    i += 1
    return true
  }

  /// Skips white space and answers whether the input is used up.
  public mutating func atEnd() -> Bool {
    skipSpace()
    return i >= bytes.count
  }

  private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
    skipBOM()
    let v = try parseValue()
    skipSpace()
    if i != bytes.count { throw error("unexpected text after the JSON value") }
    return v
  }

  public mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    skipSpace()
    guard i < bytes.count else { throw error("unexpected end of file") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character '\(Character(UnicodeScalar(bytes[i])))'")
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let w = Array(word.utf8)
    guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw error("invalid literal") }
    i += w.count
    return value
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var members: [(String, JSONValue)] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
      let key = try parseString()
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
      i += 1
      members.append((key, try parseValue()))
      if try !_continues(closing: "}", in: "an object") { return .object(members) }
    }
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var items: [JSONValue] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      return .array(items)
    }
    while true {
      items.append(try parseValue())
      if try !_continues(closing: "]", in: "an array") { return .array(items) }
    }
  }

  /// After a member or an element: true when a comma says another follows, false when `closer`
  /// ends the container (either consumed).
  private mutating func _continues(closing closer: Unicode.Scalar, in container: String) throws(JSONSyntaxError) -> Bool
  {
    skipSpace()
    guard i < bytes.count else { throw error("unexpected end of file in \(container)") }
    let b = bytes[i]
    guard b == UInt8(ascii: ",") || b == UInt8(ascii: closer) else {
      throw error("expected ',' or '\(closer)' in \(container)")
    }
    i += 1
    return b == UInt8(ascii: ",")
  }

  public mutating func parseString() throws(JSONSyntaxError) -> String {
    i += 1
    var out: [UInt8] = []
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        return String(decoding: out, as: UTF8.self)
      }
      if b < 0x20 { throw error("control character in a string") }
      if b == UInt8(ascii: "\\") {
        i += 1
        guard i < bytes.count else { break }
        switch bytes[i] {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          // A high surrogate pairs with an immediately following low one; anything unpaired
          // becomes U+FFFD and the next escape is read on its own.
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code), i + 6 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"),
            bytes[i + 2] == UInt8(ascii: "u"), let low = _peekHex4(at: i + 3), (0xDC00..<0xE000).contains(low)
          {
            i += 6
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          let scalar = UnicodeScalar(code) ?? "\u{FFFD}"
          out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: throw error("invalid escape in a string")
        }
        i += 1
        continue
      }
      out.append(b)
      i += 1
    }
    throw error("unterminated string")
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard let v = _peekHex4(at: i + 1) else {
      throw error(i + 4 < bytes.count ? "invalid \\u escape" : "truncated \\u escape")
    }
    i += 4
    return v
  }

  /// The four hex digits at `start`, or nil.
  private func _peekHex4(at start: Int) -> UInt32? {
    guard start >= 0, start + 4 <= bytes.count else { return nil }
    var v: UInt32 = 0
    for k in 0..<4 {
      let c = bytes[start + k]
      let d: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
      default: return nil
      }
      v = v << 4 | d
    }
    return v
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    func digits() -> Int {
      let s = i
      while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
      return i - s
    }
    let intStart = i
    if digits() == 0 { throw error("invalid number") }
    if i - intStart > 1 && bytes[intStart] == UInt8(ascii: "0") {
      throw error("invalid number: leading zeros are not allowed")
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      if digits() == 0 { throw error("invalid number: digits expected after '.'") }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      if digits() == 0 { throw error("invalid number: digits expected in the exponent") }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let v = Double(text) else { throw error("invalid number '\(text)'") }
    return v
  }
}
