import BenchKit
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
    var perfControl: String?
  }

  static var parser: ArgumentParser<Options> {
    var p = ArgumentParser<Options>(command: "profile", summary: summary)
    RunCommand.borrowOptions(
      ["--scene", "--layers", "--animated", "--workload", "--seed", "--semantics"], into: &p, \.run)
    p.option(
      "--queries", \.run.queries, valueName: "Q", help: "queries per repetition (default 1000)",
      expected: "an integer from 1 to 1000000"
    ) { s in ArgumentValues.integer(in: 1...1_000_000)(s).map { [$0] } }
    p.option(
      "--strategy", optional: \.strategy, valueName: "NAME", help: "the strategy to profile",
      expected: "one of \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { StrategyKind(rawValue: $0) }
    p.option(
      "--phase", \.phase, valueName: "PHASE", help: "update, queries (default) or presentation",
      expected: "update, queries or presentation"
    ) { ProfilePhase(rawValue: $0) }
    p.option(
      "--seconds", \.seconds, valueName: "T", help: "how long to loop (default 5)",
      expected: "seconds from 0.01 to 3600", parse: ArgumentValues.number(in: 0.01...3600))
    p.option(
      "--perf-control", optional: \.perfControl, valueName: "FIFO[,ACK]",
      help: "perf's control FIFO (and ack FIFO): counters enabled only around the loop", expected: "FIFO or FIFO,ACK"
    ) { $0.isEmpty ? nil : $0 }
    return p
  }

  static func run(_ args: [String]) throws(CommandError) {
    var o = Options()
    if !args.contains(where: { $0.hasPrefix("--queries") }) { o.run.queries = [1000] }
    _ = try parser.parse(args, into: &o)
    guard let kind = o.strategy else { throw .usage(command: "profile", message: "missing --strategy NAME") }
    let model = try RunCommand.loadScene(o.run, command: "profile")
    let builder = PresentationFrameBuilder(root: model, semantics: o.run.semantics)
    var c = o.run
    c.warmup = 0
    c.frames = 1
    let pts = Runner.points(c, model: model, builder: builder, queries: o.run.queries[0])
    var control: (Int32, Int32?)?
    if let spec = o.perfControl {
      let parts = spec.split(separator: ",").map(String.init)
      let fd = open(parts[0], O_WRONLY)
      guard fd >= 0 else { throw .usage(command: "profile", message: "cannot open --perf-control FIFO \(parts[0])") }
      var ack: Int32?
      if parts.count > 1 {
        let a = open(parts[1], O_RDONLY)
        guard a >= 0 else { throw .usage(command: "profile", message: "cannot open --perf-control ACK \(parts[1])") }
        ack = a
      }
      control = (fd, ack)
    }
    func send(_ word: String) {
      guard let (fd, ack) = control else { return }
      _ = word.withCString { write(fd, $0, strlen($0)) }
      if let ack {
        var buf = [UInt8](repeating: 0, count: 8)
        _ = read(ack, &buf, 8)
      }
    }
    let loop = ProfileLoop(builder: builder, points: pts, phase: o.phase, seconds: o.seconds)
    let start = monotonicNanoseconds()
    let runs = loop.run(kind, enable: { send("enable\n") }, disable: { send("disable\n") })
    let elapsed = Double(monotonicNanoseconds() - start)
    Output.err(
      "profile: \(kind.rawValue) \(o.phase.rawValue) x\(runs) on \(builder.layers.count) layers, \(Int(elapsed / Double(max(runs, 1)))) ns each\n"
    )
  }
}
