#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The `hitbench` command line: a verb, then its options. `run` answers the process exit code.
public enum HitBenchCLI {
  /// One verb: its name, one line of help, its parser's help text, and what it does.
  struct Command {
    var name: String
    var summary: String
    var help: () -> String
    var run: ([String]) throws(CommandError) -> Void
  }

  nonisolated(unsafe) static let commands: [Command] = [
    Command(name: "run", summary: RunCommand.summary, help: { RunCommand.parser.help }, run: RunCommand.run),
    Command(
      name: "verify", summary: VerifyCommand.summary, help: { VerifyCommand.parser.help }, run: VerifyCommand.run),
    Command(
      name: "hittest", summary: HittestCommand.summary, help: { HittestCommand.parser.help }, run: HittestCommand.run),
    Command(
      name: "list", summary: ListCommand.summary, help: { ListCommand.summary + "\n\nusage: hitbench list\n" },
      run: ListCommand.run),
    Command(
      name: "generate", summary: GenerateCommand.summary, help: { GenerateCommand.parser.help },
      run: GenerateCommand.run),
    Command(
      name: "export", summary: ExportCommand.summary, help: { ExportCommand.parser.help }, run: ExportCommand.run),
    Command(
      name: "render", summary: RenderCommand.summary, help: { RenderCommand.parser.help }, run: RenderCommand.run),
    Command(
      name: "compare", summary: CompareCommand.summary, help: { CompareCommand.parser.help }, run: CompareCommand.run),
    Command(
      name: "report", summary: ReportCommand.summary, help: { ReportCommand.parser.help }, run: ReportCommand.run),
    Command(
      name: "profile", summary: ProfileCommand.summary, help: { ProfileCommand.parser.help }, run: ProfileCommand.run),
    Command(
      name: "mismatch", summary: MismatchCommand.summary, help: { MismatchCommand.parser.help },
      run: MismatchCommand.run),
    Command(
      name: "scanbench", summary: ScanBenchCommand.summary, help: { ScanBenchCommand.parser.help },
      run: ScanBenchCommand.run),
    Command(name: "help", summary: "Show help for hitbench or one of its commands.", help: { usage }, run: runHelp),
  ]

  static var usage: String {
    var s =
      "hitbench: hit-testing strategies for animated layer trees, measured.\n\nusage: hitbench <command> [options]\n\ncommands:\n"
    for c in commands { s += "  " + c.name.padding(to: 10) + c.summary + "\n" }
    s += "\nRun 'hitbench help <command>' for a command's options.\n"
    return s
  }

  static func runHelp(_ args: [String]) throws(CommandError) {
    guard let name = args.first else {
      Output.out(usage)
      return
    }
    guard args.count == 1, let c = commands.first(where: { $0.name == name }) else {
      throw .usage(
        command: "help", message: "unknown command '\(name)' (valid: \(commands.map(\.name).joined(separator: ", ")))")
    }
    Output.out(c.help())
  }

  /// Runs one command line (without the program name) and answers the exit code.
  public static func run(_ arguments: [String]) -> Int32 {
    // A closed pipe (`hitbench list | head -1`, a perf FIFO whose reader left) must give an
    // error from write, not a signal that kills the process.
    signal(SIGPIPE, SIG_IGN)
    let code = _run(arguments)
    if fflush(stdout) != 0 || ferror(stdout) != 0 {
      Output.err("hitbench: error: cannot write the standard output: \(String(cString: strerror(errno)))\n")
      return code == 0 ? 73 : code
    }
    return code
  }

  static func _run(_ arguments: [String]) -> Int32 {
    guard let verb = arguments.first else {
      Output.err(usage)
      return 64
    }
    if verb == "--help" || verb == "-h" {
      Output.out(usage)
      return 0
    }
    guard let command = commands.first(where: { $0.name == verb }) else {
      Output.err(
        CommandError.usage(
          command: "", message: "unknown command '\(verb)' (valid: \(commands.map(\.name).joined(separator: ", ")))"
        ).description + "\n")
      return 64
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      Output.out(command.help())
      return 0
    }
    do {
      try command.run(rest)
      fflush(stdout)
      return 0
    } catch {
      fflush(stdout)
      Output.err(error.description + "\n")
      return error.exitCode
    }
  }

  public static func exit(_ code: Int32) -> Never {
    fflush(stdout)
    Glibc.exit(code)
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
