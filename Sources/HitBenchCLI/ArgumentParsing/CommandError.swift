import FileIO
import JSON
import LayerModel
import Presentation
import SceneFormat
import Verification

/// Why a command stopped, with the exit code it maps to (sysexits.h): 64 for usage, 65 for bad
/// input data, 73 when an output cannot be created, 69 when a tool it needs is missing, 1 for
/// a failed check (a disagreement, a regression). Every description is one line.
public enum CommandError: Error, CustomStringConvertible {
  /// A bad flag, value or name: exit 64, with the command's usage hint.
  case usage(command: String, message: String)
  /// A bad scene or results file: exit 65.
  case data(String)
  /// An output file, directory or channel that cannot be created or written: exit 73.
  case cannotCreate(String)
  /// A tool the command needs is not installed (Valgrind for `run --instructions`): exit 69.
  case unavailable(String)
  /// The command ran and its check failed: exit 1.
  case failed(String)

  public var exitCode: Int32 {
    switch self {
    case .usage: 64
    case .data: 65
    case .cannotCreate: 73
    case .unavailable: 69
    case .failed: 1
    }
  }

  /// A file error: unreadable input is bad data (65), unwritable output 73.
  static func file(_ e: FileIOError) -> CommandError {
    e.kind == .cannotRead ? .data(e.description) : .cannotCreate(e.description)
  }

  public var description: String {
    switch self {
    case .usage(let command, let message):
      "hitbench\(command.isEmpty ? "" : " " + command): error: \(message) "
        + "(see 'hitbench help\(command.isEmpty ? "" : " " + command)')"
    case .data(let message), .cannotCreate(let message), .unavailable(let message): "hitbench: error: \(message)"
    case .failed(let message): "hitbench: \(message)"
    }
  }

  static func scene(_ e: SceneFileError) -> CommandError { .data(e.description) }

  /// A user's text as it appears in a message: control characters escaped, at most 80
  /// characters, so every message stays one short line.
  static func shown(_ text: String) -> String { FileIO.shown(text, limit: 80) }
}
