// swift-tools-version:6.0
import PackageDescription

/// A strategy brought from outside: `row-strips` (Sources/RowStrips) and `hitbench-rowstrips`,
/// the `hitbench` CLI with it registered, so every verb (verify, run, hittest, render)
/// knows it. docs/adding-a-strategy.md walks through it.
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
      ]),
    .executableTarget(
      name: "hitbench-rowstrips",
      dependencies: ["RowStrips", .product(name: "HitBenchCLI", package: "HitBench")]),
  ]
)
