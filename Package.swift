// swift-tools-version:6.0
import PackageDescription

/// Optimisation flags for measured code: release builds only, so `swift test` (debug) keeps its checks.
let releaseFlags: [SwiftSetting] = [
  .unsafeFlags(["-Ounchecked"], .when(configuration: .release))
]

let package = Package(
  name: "HitBench",
  products: [
    .executable(name: "hitbench", targets: ["hitbench"]),
    .library(name: "LayerModel", targets: ["LayerModel"]),
    .library(name: "HitTesting", targets: ["HitTesting"]),
    .library(name: "Scenes", targets: ["Scenes"]),
    .library(name: "BenchKitLib", targets: ["BenchKit"]),
  ],
  targets: [
    // jemalloc from Debian (libjemalloc-dev): replaces malloc process-wide and exposes its counters.
    .systemLibrary(
      name: "CJemalloc",
      path: "Sources/CJemalloc",
      pkgConfig: "jemalloc",
      providers: [.apt(["libjemalloc-dev"])]
    ),
    // Geometry, layers, time, animation, presentation frames and scene files.
    .target(name: "LayerModel", swiftSettings: releaseFlags),
    // The hit-test strategies and the generic query loop that drives them.
    .target(name: "HitTesting", dependencies: ["LayerModel", "Scenes"], swiftSettings: releaseFlags),
    // Synthetic scene generators and query workloads.
    .target(name: "Scenes", dependencies: ["LayerModel"], swiftSettings: releaseFlags),
    // Runner, statistics, allocation counters and reporters.
    .target(
      name: "BenchKit",
      dependencies: ["HitTesting", "Scenes", "CJemalloc"],
      swiftSettings: releaseFlags
    ),
    // The benchmark suites, written in BenchKit's declarative DSL.
    .target(name: "BenchmarkSuites", dependencies: ["BenchKit"], path: "Benchmarks"),
    // Every `hitbench` verb, as a library so tests can drive the parser in process.
    .target(
      name: "HitBenchCLI",
      dependencies: ["LayerModel", "HitTesting", "Scenes", "BenchKit", "BenchmarkSuites"],
      swiftSettings: releaseFlags
    ),
    .executableTarget(name: "hitbench", dependencies: ["HitBenchCLI"]),
    .testTarget(name: "LayerModelTests", dependencies: ["LayerModel", "Scenes", "BenchKit"]),
    .testTarget(name: "HitTestingTests", dependencies: ["HitTesting", "Scenes", "BenchKit"]),
    .testTarget(name: "BenchKitTests", dependencies: ["BenchKit", "HitTesting", "Scenes", "LayerModel"]),
    .testTarget(name: "CLITests", dependencies: ["HitBenchCLI"]),
  ]
)
