import HitTesting
import LayerModel
import Presentation

/// A dependency-free command-line parser in the style of the Swift benchmark suite's ArgParse:
/// each option writes through a key path into an options struct that holds the defaults.
/// Accepts `--flag value` and `--flag=value`; a value may start with '-' (`--point -5,-12.5`).
/// Errors name the flag and become exit 64. One rule for every command: an option is given at
/// most once unless it is repeatable (`--point`), so no value silently replaces another; numbers
/// are decimal (`0x10` is refused); lists are comma-separated with no empty item.
public struct ArgumentParser<Options> {
  struct Spec {
    var name: String
    var valueName: String?
    var help: String
    var repeatable = false
    var apply: (inout Options, String) throws(CommandError) -> Void
  }

  public let command: String
  public let summary: String
  var specs: [Spec] = []
  /// Positional arguments: their names for the usage line, and how many are required.
  public var positionalNames: [String] = []
  public var requiredPositionals = 0

  public init(command: String, summary: String) {
    self.command = command
    self.summary = summary
  }

  func usageError(_ message: String) -> CommandError { .usage(command: command, message: message) }

  /// An option with a value, parsed by `parse` (nil: the value is invalid, `expected` says what
  /// it should be).
  public mutating func option<T>(
    _ name: String, _ keyPath: WritableKeyPath<Options, T>, valueName: String, help: String, expected: String,
    parse: @escaping (String) -> T?
  ) {
    _addParsed(name, valueName, help, expected, parse) { $0[keyPath: keyPath] = $1 }
  }

  /// An option that sets an optional field (nil until given). A separate label from `option`,
  /// so a parse failure (nil) can never be mistaken for a valid `.some(nil)`.
  public mutating func option<T>(
    _ name: String, optional keyPath: WritableKeyPath<Options, T?>, valueName: String, help: String,
    expected: String, parse: @escaping (String) -> T?
  ) {
    _addParsed(name, valueName, help, expected, parse) { $0[keyPath: keyPath] = $1 }
  }

  /// A repeatable option that appends each value.
  public mutating func repeatedOption<T>(
    _ name: String, _ keyPath: WritableKeyPath<Options, [T]>, valueName: String, help: String, expected: String,
    parse: @escaping (String) -> T?
  ) {
    _addParsed(name, valueName, help, expected, parse) { $0[keyPath: keyPath].append($1) }
    specs[specs.count - 1].repeatable = true
  }

  /// The shared spec of the three: parse, or a usage error naming the flag and the expectation.
  private mutating func _addParsed<T>(
    _ name: String, _ valueName: String, _ help: String, _ expected: String, _ parse: @escaping (String) -> T?,
    _ store: @escaping (inout Options, T) -> Void
  ) {
    let command = command
    specs.append(
      Spec(name: name, valueName: valueName, help: help) {
        (options: inout Options, value: String) throws(CommandError) in
        guard let v = parse(value) else {
          throw CommandError.usage(
            command: command, message: "invalid value '\(CommandError.shown(value))' for \(name): expected \(expected)")
        }
        store(&options, v)
      })
  }

  /// A flag without a value that sets a Bool to true.
  public mutating func flag(_ name: String, _ keyPath: WritableKeyPath<Options, Bool>, help: String) {
    specs.append(Spec(name: name, valueName: nil, help: help) { options, _ in options[keyPath: keyPath] = true })
  }

  /// What `parse` found besides the options it wrote.
  public struct Parsed {
    /// The positional arguments, in order.
    public var positionals: [String]
    /// The names of the options given on the command line (defaults are not listed).
    public var given: Set<String>
  }

  /// Parses `arguments` into `options`; answers the positional arguments and which options
  /// were given.
  @discardableResult
  public func parse(_ arguments: [String], into options: inout Options) throws(CommandError) -> Parsed {
    var positionals: [String] = []
    var given = Set<String>()
    var i = 0
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      if arg == "--" {
        positionals.append(contentsOf: arguments[i...])
        break
      }
      guard arg.hasPrefix("-"), arg.count > 1, !(Double(arg) != nil && !arg.hasPrefix("--")) else {
        positionals.append(arg)
        continue
      }
      var name = arg
      var inline: String?
      if let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      guard let spec = specs.first(where: { $0.name == name }) else {
        let names = specs.map(\.name).joined(separator: ", ")
        throw usageError(
          "unknown option '\(CommandError.shown(name))' (valid options: \(names.isEmpty ? "none" : names))")
      }
      guard given.insert(name).inserted || spec.repeatable else {
        throw usageError("\(name) is given twice (it takes one value)")
      }
      if spec.valueName == nil {
        if inline != nil { throw usageError("\(name) takes no value") }
        try spec.apply(&options, "")
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard i < arguments.count else { throw usageError("missing value for \(name) (expected \(spec.valueName!))") }
        value = arguments[i]
        i += 1
      }
      try spec.apply(&options, value)
    }
    if positionals.count < requiredPositionals {
      throw usageError("missing \(positionalNames.dropFirst(positionals.count).first ?? "argument")")
    }
    if positionals.count > positionalNames.count {
      throw usageError("unexpected argument '\(CommandError.shown(positionals[positionalNames.count]))'")
    }
    return Parsed(positionals: positionals, given: given)
  }

  /// The rules every command's options follow, printed under each command's options.
  static var rules: String {
    "Each option at most once (--point repeats); numbers decimal (no 0x); lists comma-separated, no empty item;\n"
      + "a FILE option's directory must exist; a DIR option is created when missing; outputs are checked before the work."
  }

  /// The generated help text.
  public var help: String {
    var s = "\(summary)\n\nusage: hitbench \(command)"
    for p in positionalNames { s += " \(p)" }
    if !specs.isEmpty { s += " [options]" }
    s += "\n"
    if !specs.isEmpty {
      s += "\noptions:\n"
      let rows: [(String, String)] = specs.map { spec in
        (spec.valueName.map { v in "\(spec.name) \(v)" } ?? spec.name, spec.help)
      }
      let width = min((rows.map { $0.0.count }.max() ?? 0) + 2, 34)
      for (left, right) in rows {
        let pad =
          left.count < width
          ? String(repeating: " ", count: width - left.count) : "\n" + String(repeating: " ", count: width + 2)
        s += "  \(left)\(pad)\(right)\n"
      }
      s += "\n" + Self.rules + "\n"
    }
    return s
  }
}

/// Value parsers shared by the commands.
enum ArgumentValues {
  /// `X,Y` with finite or non-finite numbers.
  static func point(_ s: String) -> Point? {
    let parts = s.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = number(String(parts[0])), let y = number(String(parts[1])) else { return nil }
    return Point(x: x, y: y)
  }

  static func number(_ s: String) -> Double? {
    let t = s.trimmingWhitespace
    switch t.lowercased() {
    case "nan": return .nan
    case "inf", "infinity", "+inf", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default:
      // Decimal only: Double would also read hexadecimal ("0x10" as 16).
      guard t.allSatisfy({ "0123456789.eE+-".contains($0) }) else { return nil }
      return Double(t)
    }
  }

  /// A query point: `X,Y`, both finite (a point at infinity is no touch).
  static func finitePoint(_ s: String) -> Point? {
    guard let p = point(s), p.x.isFinite, p.y.isFinite else { return nil }
    return p
  }

  /// A comma-separated list's items, trimmed; nil when an item is empty (`1,,2`, `,`).
  static func list(_ s: String) -> [String]? {
    let items = s.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
    return items.contains(where: \.isEmpty) ? nil : items
  }

  static func finite(_ s: String) -> Double? {
    guard let v = number(s), v.isFinite else { return nil }
    return v
  }

  /// A parser for an integer within `range` (the text as `Int` reads it).
  static func integer(in range: ClosedRange<Int>) -> (String) -> Int? {
    { s in Int(s).flatMap { range.contains($0) ? $0 : nil } }
  }

  /// `A:B:STEP`: the times A, A + STEP, ... up to B (within a millionth of a step), finite,
  /// STEP > 0, at most `limit` of them.
  static func timeSteps(limit: Int) -> (String) -> [Double]? {
    { s in
      let parts = s.split(separator: ":", omittingEmptySubsequences: false).map { finite(String($0)) }
      guard parts.count == 3, let a = parts[0], let b = parts[1], let step = parts[2], step > 0, a <= b else {
        return nil
      }
      let steps = ((b - a) / step + 1e-6).rounded(.down)
      guard steps.isFinite, steps < Double(limit) else { return nil }
      return (0...Int(steps)).map { a + Double($0) * step }
    }
  }

  /// A parser for a finite number within `range`.
  static func number(in range: ClosedRange<Double>) -> (String) -> Double? {
    { s in finite(s).flatMap { range.contains($0) ? $0 : nil } }
  }

  static func uint64(_ s: String) -> UInt64? { UInt64(s.trimmingWhitespace) }
  /// A file or directory path: any text but the empty string.
  static func path(_ s: String) -> String? { s.isEmpty ? nil : s }

  /// `MIN-MAX` (or a single N) within 1...100,000.
  static func range(_ s: String) -> ClosedRange<Int>? {
    let parts = s.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0).trimmingWhitespace) }
    guard parts.count <= 2, let lo = parts.first ?? nil, let hi = parts.last ?? nil, 1 <= lo, lo <= hi, hi <= 100_000
    else { return nil }
    return lo...hi
  }
}

extension String {
  var trimmingWhitespace: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

extension StrategyKind {
  /// `a,b,c` or `all`; nil when a name is unknown.
  static func parseList(_ s: String) -> [StrategyKind]? {
    if s == "all" { return StrategyKind.allCases }
    var out: [StrategyKind] = []
    guard let names = ArgumentValues.list(s) else { return nil }
    for name in names {
      guard let k = StrategyKind(rawValue: name) else { return nil }
      if !out.contains(k) { out.append(k) }
    }
    return out.isEmpty ? nil : out
  }
}
