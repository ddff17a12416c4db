import FileIO

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Standard output and error without Foundation: results go to stdout, everything else to stderr.
enum Output {
  static func out(_ s: String) {
    fputs(s, stdout)
  }

  static func err(_ s: String) {
    fputs(s, stderr)
  }

  static var stderrIsTerminal: Bool { isatty(2) != 0 }

  /// `text` with control characters written as `\u{..}`, so one name stays on one line of a
  /// text report whatever a scene file put in it.
  static func escaped(_ text: String) -> String { FileIO.shown(text, limit: .max) }
}

/// Formats a number the way a person typed it: integers without ".0".
func formatNumber(_ v: Double) -> String {
  if v.isNaN { return "nan" }
  if v.isInfinite { return v > 0 ? "inf" : "-inf" }
  if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
  return "\(v)"
}
