import HitTesting

/// `hitbench list`: the strategies, one line each.
enum ListCommand {
  static let summary = "List the hit-test strategies with one line each."

  static func run(_ args: [String]) throws(CommandError) {
    var o: Void = ()
    _ = try ArgumentParser<Void>(command: "list", summary: summary).parse(args, into: &o)
    for kind in StrategyKind.allCases {
      Output.out(kind.rawValue.padding(to: 11) + kind.summary + "\n")
    }
    for (name, reason) in StrategyKind.missing {
      Output.out(name.padding(to: 11) + reason + "\n")
    }
  }
}
