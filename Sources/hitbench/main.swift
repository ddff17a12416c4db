import HitBenchCLI

HitBenchCLI.exit(HitBenchCLI.run(Array(CommandLine.arguments.dropFirst())))
