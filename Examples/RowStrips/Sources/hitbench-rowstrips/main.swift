import HitBenchCLI
import RowStrips

// `hitbench` with row-strips registered as a strategy of every verb.
RowStrips.register()
HitBenchCLI.exit(HitBenchCLI.run(Array(CommandLine.arguments.dropFirst())))
