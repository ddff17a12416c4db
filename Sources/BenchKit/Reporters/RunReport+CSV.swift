import JSON

extension RunReport {
  /// One flat row per result with every field of the JSON: scalars as they are, each summary
  /// as one column per statistic (`frameNsMean`, `frameNsP99`, ...).
  func csv() -> String {
    guard let first = results.first else { return "" }
    var header: [String] = []
    for (k, v) in Self.fields(first) {
      if case .object(let members) = v {
        for (statistic, _) in members { header.append(k + statistic.prefix(1).uppercased() + statistic.dropFirst()) }
      } else {
        header.append(k)
      }
    }
    var out = header.joined(separator: ",") + "\n"
    for m in results {
      var row: [String] = []
      for (_, v) in Self.fields(m) {
        switch v {
        case .string(let s): row.append(Self.csvQuoted(s))
        case .number(let d): row.append("\(d)")
        case .bool(let b): row.append("\(b)")
        case .object(let members):
          for (_, x) in members { if case .number(let d) = x { row.append("\(d)") } else { row.append("") } }
        default: row.append("")
        }
      }
      out += row.joined(separator: ",") + "\n"
    }
    return out
  }

  /// A field as CSV writes it: quoted (quotes doubled) when it holds a comma, quote or newline.
  static func csvQuoted(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    return "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
  }
}
