// swift-tools-version:6.0
import PackageDescription

/// A strategy brought from outside: `row-strips` (Sources/RowStrips) and `hitbench-rowstrips`,
/// the `hitbench` CLI with it registered, so every verb (verify, run, hittest, render)
/// knows it. docs/adding-a-strategy.md walks through it.
/// The full test run (scripts/example.sh) builds this example in the debug configuration, where
/// HitBench compiles its invariant checks in, beside the peers in one build directory; with
/// `HITBENCH_TEST_OPTIMIZE=1` the example is then optimised as HitBench's modules are.
let optimized: [SwiftSetting] =
  Context.environment["HITBENCH_TEST_OPTIMIZE"] == "1" ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
  name: "RowStrips",
  products: [.executable(name: "hitbench-rowstrips", targets: ["hitbench-rowstrips"])],
  dependencies: [.package(name: "HitBench", path: "../..")],
  targets: [
    .target(
      name: "RowStrips",
      dependencies: [
        .product(name: "HitTesting", package: "HitBench"), .product(name: "BenchKit", package: "HitBench"),
        .product(name: "Presentation", package: "HitBench"), .product(name: "LayerModel", package: "HitBench"),
      ], swiftSettings: optimized),
    .executableTarget(
      name: "hitbench-rowstrips",
      dependencies: ["RowStrips", .product(name: "HitBenchCLI", package: "HitBench")], swiftSettings: optimized),
  ]
)
