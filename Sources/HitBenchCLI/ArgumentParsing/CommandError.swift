import LayerModel

/// Why a command stopped, with the exit code it maps to (sysexits.h): 64 for usage, 65 for bad
/// input data, 1 for a failed check (a disagreement, a regression).
public enum CommandError: Error, CustomStringConvertible {
  /// A bad flag, value or name: exit 64, with the command's usage hint.
  case usage(command: String, message: String)
  /// A bad scene or results file: exit 65.
  case data(String)
  /// The command ran and its check failed: exit 1.
  case failed(String)

  public var exitCode: Int32 {
    switch self {
    case .usage: 64
    case .data: 65
    case .failed: 1
    }
  }

  public var description: String {
    switch self {
    case .usage(let command, let message):
      "hitbench\(command.isEmpty ? "" : " " + command): error: \(message)\n"
        + "Run 'hitbench help\(command.isEmpty ? "" : " " + command)' for usage."
    case .data(let message): "hitbench: error: \(message)"
    case .failed(let message): "hitbench: \(message)"
    }
  }

  static func scene(_ e: SceneFileError) -> CommandError { .data(e.description) }
}
