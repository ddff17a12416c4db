import HitBenchCLI
import PeerStrategies

// `hitbench` with the peers registered as strategies of every verb.
Peers.register()
HitBenchCLI.exit(HitBenchCLI.run(Array(CommandLine.arguments.dropFirst())))
