import BenchKit
import HitTesting
import Scenes

/// Every suite `hitbench run --suite NAME` knows, in the order `hitbench help run` lists them.
public let allSuites: [Suite] = [
  defaultSuite, scalingSuite, crossoverSuite, animatedFractionSuite, workloadsSuite, scenesSuite,
]

/// The README's main command: every strategy on an app screen of 10,000 animated layers.
public let defaultSuite = Suite("default", "every strategy on app, 10,000 animated layers, Q = 1, 100, 1000") {
  Run(.app, layers: 10_000, queries: [1, 100, 1000], frames: 40, warmup: 5)
}

/// Frame cost against scene size, 100 to 1,000,000 layers (tree-walk stops at 100,000).
public let scalingSuite = Suite("scaling", "app and particles from 100 to 1,000,000 layers, Q = 100") {
  for kind in [SceneKind.app, .particles] {
    for n in [100, 1000, 10_000] { Run(kind, layers: n, queries: [100], frames: 40, warmup: 5) }
    Run(kind, layers: 100_000, queries: [100], frames: 12, warmup: 2)
    Run(
      kind, layers: 1_000_000, queries: [100], strategies: StrategyKind.allCases.filter { $0 != .treeWalk },
      frames: 4, warmup: 1)
  }
}

/// Where an index starts to pay: frame time against queries per frame, at three sizes.
public let crossoverSuite = Suite(
  "crossover", "app and particles at 1,000, 10,000 and 100,000 layers, Q = 1 to 10,000"
) {
  for kind in [SceneKind.app, .particles] {
    Run(kind, layers: 1000, queries: [1, 10, 100, 1000, 10_000], frames: 20, warmup: 3)
    Run(kind, layers: 10_000, queries: [1, 10, 100, 1000, 10_000], frames: 20, warmup: 3)
    Run(kind, layers: 100_000, queries: [1, 10, 100, 1000], frames: 6, warmup: 2)
  }
}

/// How much of the scene moves.
public let animatedFractionSuite = Suite("animated-fraction", "app at 10,000 layers, 0 to 100% animated, Q = 100") {
  for f in [0.0, 0.1, 0.5, 1.0] { Run(.app, layers: 10_000, animated: f, queries: [100], frames: 30, warmup: 5) }
}

/// The query patterns.
public let workloadsSuite = Suite("workloads", "app at 10,000 layers, every workload, Q = 1000") {
  for w in Workload.allCases { Run(.app, layers: 10_000, queries: [1000], workload: w, frames: 20, warmup: 3) }
}

/// Every scene kind, and the real app layouts in data/scenes.
public let scenesSuite = Suite("scenes", "every scene kind at 10,000 layers and the real layouts, Q = 100") {
  for kind in SceneKind.allCases { Run(kind, layers: 10_000, queries: [100], frames: 30, warmup: 5) }
  for name in [
    "appleid_signin_sheet", "introlevels_tabbar", "mail_compose_ios5", "photos_picker_grid", "search_display_active",
    "wechat_chat_truncated",
  ] {
    Run(file: "data/scenes/\(name).json", queries: [100], frames: 30, warmup: 5)
  }
}
