import BenchKit
import Clocks
import HitTesting
import LayerModel
import Presentation
import Scenes

#if canImport(Glibc)
  import Glibc
#endif

/// `hitbench profile`: one phase of one strategy in a loop, for `perf record` / `perf stat`.
enum ProfileCommand {
  static let summary = "Run one phase (update, queries or presentation) of one strategy in a loop for perf."

  struct Options {
    var run = RunConfiguration()
    var strategy: StrategyKind?
    var phase = ProfilePhase.queries
    var seconds = 5.0
    var perfControl: PerfControl?
  }

  /// perf's control FIFO and, optionally, its acknowledgement FIFO (`--perf-control FIFO[,ACK]`).
  struct PerfControl {
    var fifo: String
    var ack: String?

    static func parse(_ s: String) -> PerfControl? {
      let parts = s.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
      return PerfControl(fifo: parts[0], ack: parts.count == 2 ? parts[1] : nil)
    }
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "profile", summary: summary)
    RunCommand.borrowOptions(RunCommand.sceneOptions + ["--threads", "--window"], into: &p, \.run)
    p.option(
      "--queries", \.run.queries, valueName: "Q", help: "queries per repetition (default 1000)",
      expected: "an integer from 1 to 1000000"
    ) { s in ArgumentValues.integer(in: 1...1_000_000)(s).map { [$0] } }
    p.option(
      "--strategy", optional: \.strategy, valueName: "NAME", help: "the strategy to profile",
      expected: "one of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { StrategyKind(rawValue: $0) }
    p.option(
      "--phase", \.phase, valueName: "PHASE",
      help:
        "update, queries (default), presentation or frame "
        + "(build, update and queries at successive times)",
      expected: "update, queries, presentation or frame"
    ) { ProfilePhase(rawValue: $0) }
    p.option(
      "--seconds", \.seconds, valueName: "T", help: "how long to loop (default 5)",
      expected: "seconds from 0.01 to 3600", parse: ArgumentValues.number(in: 0.01...3600))
    p.option(
      "--perf-control", optional: \.perfControl, valueName: "FIFO[,ACK]",
      help: "perf's control FIFO (and ack FIFO): counters enabled only around the loop",
      expected: "FIFO or FIFO,ACK (two non-empty paths)", parse: PerfControl.parse)
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    o.run.queries = [1000]
    try parser.parse(args, into: &o)
    guard let kind = o.strategy else { throw .usage(command: "profile", message: "missing --strategy NAME") }
    guard o.run.threads.count == 1 else {
      throw .usage(command: "profile", message: "--threads takes one count here (a profile loops one builder)")
    }
    let model = try RunCommand.loadScene(o.run, command: "profile")
    let builder = PresentationFrameBuilder(root: model, semantics: o.run.semantics, threads: o.run.threads[0])
    var c = o.run
    c.warmup = 0
    c.frames = 1
    let pts = Runner.points(c, model: model, builder: builder, queries: o.run.queries[0])
    var control: (Int32, Int32?)?
    if let spec = o.perfControl {
      let fd = try openFIFO(spec.fifo, writing: true)
      let ack = try spec.ack.map { path throws(CommandError) in try openFIFO(path, writing: false) }
      control = (fd, ack)
    }
    func send(_ word: String) {
      guard let (fd, ack) = control else { return }
      // A reader that went away gives EPIPE (SIGPIPE is ignored), not a signal.
      _ = word.withCString { write(fd, $0, strlen($0)) }
      if let ack {
        // perf answers "ack\n"; wait at most 10 s, so a silent peer cannot hang the run.
        var p = pollfd(fd: ack, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 10_000) > 0 {
          var buf = [UInt8](repeating: 0, count: 8)
          _ = read(ack, &buf, 8)
        }
      }
    }
    var loop = ProfileLoop(builder: builder, points: pts, phase: o.phase, seconds: o.seconds)
    loop.options = StrategyOptions(windowSeconds: o.run.windowSeconds)
    let start = Clocks.monotonicNanoseconds()
    let runs = loop.run(kind, enable: { send("enable\n") }, disable: { send("disable\n") })
    if let (fd, ack) = control {
      close(fd)
      if let ack { close(ack) }
    }
    let elapsed = Double(Clocks.monotonicNanoseconds() - start)
    Output.err(
      "profile: \(kind.rawValue) \(o.phase.rawValue) x\(runs) on \(builder.layers.count) layers, \(Int(elapsed / Double(max(runs, 1)))) ns each\n"
    )
  }

  /// Opens one of perf's control FIFOs without ever blocking: a path that is not a FIFO is a
  /// usage error (a regular file would be overwritten), and a control FIFO that no process reads
  /// (perf not running) cannot be written (73) rather than hanging the open.
  static func openFIFO(_ path: String, writing: Bool) throws(CommandError) -> Int32 {
    let shown = CommandError.shown(path)
    var st = stat()
    guard stat(path, &st) == 0 else {
      throw .usage(command: "profile", message: "--perf-control: '\(shown)' does not exist (make it with mkfifo)")
    }
    guard st.st_mode & S_IFMT == S_IFIFO else {
      throw .usage(command: "profile", message: "--perf-control: '\(shown)' is not a FIFO (make one with mkfifo)")
    }
    let fd = open(path, (writing ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let reason =
        errno == ENXIO
        ? "no process reads it (run under perf with --control fifo:...)" : String(cString: strerror(errno))
      throw .cannotCreate("--perf-control: cannot open '\(shown)': \(reason)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
  }
}
