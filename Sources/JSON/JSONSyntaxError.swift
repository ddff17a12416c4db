/// A syntax error in a JSON text, with its line and column (1-based).
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var message: String
  public var description: String { "line \(line), column \(column): \(message)" }
}
