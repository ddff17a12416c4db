// swift-tools-version:6.0
import PackageDescription

/// x86-64 builds assume SSE4.2 (Nehalem, 2008: every x86-64 server since): `rounded(.down)`
/// is then one instruction instead of a call into libm, on the measured paths and off them
/// alike (no change to any result: the arithmetic is IEEE either way, never contracted).
#if arch(x86_64)
  let cpu: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "nehalem"])]
#else
  let cpu: [SwiftSetting] = []
#endif

/// LLVM's function merging folds specialisations whose bodies differ only in the functions they
/// call into one body that takes those functions as pointers: a direct call per query becomes
/// an indirect one, and the specialisation loses its name, so scripts/check-specialisation.sh
/// could not see it. Every module keeps one body per concrete strategy (a specialisation is emitted in
/// whichever module instantiates it).
let distinctSpecialisations: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-disable-llvm-merge-functions-pass"], .when(configuration: .release))
]

/// Every target: `_checkInvariants()` is compiled in for debug builds (so the test suite runs
/// with every invariant checked) and compiles to nothing in release builds. The test command
/// (`scripts/test.sh`, with `HITBENCH_TEST_OPTIMIZE=1`, in a build directory of its own) builds
/// that debug configuration with `-O`: every invariant and bounds check stays (they are
/// preconditions), and the suite's millions of differential queries run in minutes, not a
/// quarter of an hour.
let testOptimized: [SwiftSetting] =
  Context.environment["HITBENCH_TEST_OPTIMIZE"] == "1" ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []
let checked: [SwiftSetting] =
  [
    .define("HITBENCH_INTERNAL_CHECKS", .when(configuration: .debug))
  ] + cpu + testOptimized + distinctSpecialisations

/// The measured hot paths (presentation build, strategies): `-Ounchecked` in release builds,
/// where docs/optimisation-log.md shows it pays. Parsing, the model, the CLI and file output
/// keep every check. `HITBENCH_CHECKED_HOT_PATHS=1` builds them with -O too (to measure the
/// difference: docs/optimisation-log.md).
let hotPath: [SwiftSetting] =
  (Context.environment["HITBENCH_CHECKED_HOT_PATHS"] == "1"
    ? checked
    : checked + [
      .unsafeFlags(["-Ounchecked"], .when(configuration: .release))
    ])

/// jemalloc replaces malloc process-wide, which AddressSanitizer's allocator cannot share a
/// process with (a buffer one allocates, the other frees: a bad-free report inside the Swift
/// runtime). `HITBENCH_NO_JEMALLOC=1` (set by scripts/asan.sh and `results.sh --asan`) builds
/// without it: the allocation counters then read zero and the tests that need them are skipped.
let jemalloc = Context.environment["HITBENCH_NO_JEMALLOC"] != "1"
let benchKitSettings: [SwiftSetting] =
  jemalloc ? checked : checked + [.define("HITBENCH_NO_JEMALLOC")]

let package = Package(
  name: "HitBench",
  products: [
    .executable(name: "hitbench", targets: ["hitbench"]),
    .library(name: "LayerModel", targets: ["LayerModel"]),
    .library(name: "SceneFormat", targets: ["SceneFormat"]),
    .library(name: "Presentation", targets: ["Presentation"]),
    .library(name: "HitTesting", targets: ["HitTesting"]),
    .library(name: "Scenes", targets: ["Scenes"]),
    .library(name: "Verification", targets: ["Verification"]),
    .library(name: "BenchKit", targets: ["BenchKit"]),
    .library(name: "HitBenchCLI", targets: ["HitBenchCLI"]),
    .library(name: "Rendering", targets: ["Rendering"]),
  ],
  targets: [
    // jemalloc from Debian (libjemalloc-dev): replaces malloc process-wide and exposes its counters.
    .systemLibrary(
      name: "CJemalloc",
      path: "Sources/CJemalloc",
      pkgConfig: "jemalloc",
      providers: [.apt(["libjemalloc-dev"])]
    ),
    // Support: JSON values and their parser; bounded reads and atomic file output.
    .target(name: "JSON", swiftSettings: checked),
    .target(name: "FileIO", swiftSettings: checked),
    // Memory owned by one value: ~Copyable buffers of trivial elements (checked indices in debug).
    .target(name: "Columns", swiftSettings: checked),
    // Cache prefetch hints (inline C: Swift has no spelling for them).
    .target(name: "CPrefetch"),
    // The window grid's scan of a cell's boxes: one SSE compare and lane mask a box (inline C:
    // Swift has no spelling for a mask's bits).
    .target(name: "CBoxScan"),
    // Valgrind's Callgrind client requests (no-ops without Valgrind or its headers).
    // DWARF 4: Debian's Valgrind (3.19) cannot read the DWARF 5 that clang writes for C by
    // default, and gives up on the whole binary.
    .target(name: "CCallgrind", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    // Thread placement: the current CPU, pinning (inline C: Glibc's module lacks the GNU calls).
    .target(name: "CThreads"),
    // The monotonic and process CPU clocks.
    .target(name: "Clocks", swiftSettings: checked),
    // A run's timeline (`run --trace`): events into a buffer allocated before the first frame.
    .target(name: "Tracing", swiftSettings: checked),
    // Geometry, layers, hit-test semantics, media timing and animations: the model tree.
    .target(name: "LayerModel", swiftSettings: checked),
    // jemalloc's allocation counters for every thread that does a frame's work (found at run
    // time: linking this module does not link jemalloc; BenchKit does).
    .target(name: "Allocations", dependencies: ["LayerModel"], swiftSettings: checked),
    // Scene files: reading (with JSON paths in errors) and writing.
    .target(name: "SceneFormat", dependencies: ["LayerModel", "JSON", "FileIO"], swiftSettings: checked),
    // The presentation tree at time t, flattened: PresentationFrame and its builder.
    .target(
      name: "Presentation",
      dependencies: [
        "LayerModel", "Allocations", "Clocks", "Columns", "CPrefetch", "CThreads", "CCallgrind", "Tracing",
      ],
      swiftSettings: hotPath + [.enableExperimentalFeature("Lifetimes")]),
    // Where a layer can be over a time window, from its animations' structure (interval
    // analysis): the bounds the time-aware strategies index.
    .target(
      name: "Motion", dependencies: ["LayerModel", "Presentation", "Columns"], swiftSettings: hotPath),
    // The hit-test strategies and the generic loops that drive them.
    .target(
      name: "HitTesting",
      dependencies: [
        "LayerModel", "Presentation", "Motion", "Columns", "Clocks", "Allocations", "CCallgrind", "CBoxScan",
        "CThreads", "Tracing",
      ],
      swiftSettings: hotPath),
    // Pictures of a frame, its answers and a strategy's index (SVG), for `hitbench render`.
    .target(name: "Rendering", dependencies: ["LayerModel", "Presentation", "HitTesting"], swiftSettings: checked),
    // A run's report as one self-contained HTML page (`hitbench report`, `run --report`).
    .target(name: "Reports", dependencies: ["BenchKit", "JSON", "Rendering"], swiftSettings: checked),
    // Synthetic scene generators and query workloads.
    .target(name: "Scenes", dependencies: ["LayerModel", "Presentation"], swiftSettings: checked),
    // Differential verification: random hostile scenes, the reference oracle, the verifier.
    .target(
      name: "Verification", dependencies: ["LayerModel", "Presentation", "HitTesting", "Scenes"],
      swiftSettings: checked),
    // Runner, statistics, allocation counters, reporters, the suite DSL.
    .target(
      name: "BenchKit",
      dependencies: [
        "LayerModel", "Presentation", "HitTesting", "Scenes", "Verification", "SceneFormat", "JSON", "FileIO",
        "Allocations", "Clocks", "CCallgrind", "Tracing",
      ]
        + (jemalloc ? ["CJemalloc"] : []),
      swiftSettings: benchKitSettings
    ),
    // The benchmark suites, written in BenchKit's declarative DSL.
    .target(
      name: "BenchmarkSuites", dependencies: ["BenchKit", "HitTesting", "Scenes"], path: "Benchmarks",
      exclude: ["target-log.md"], swiftSettings: checked),
    // Every `hitbench` verb, as a library so tests can drive the parser in process.
    .target(
      name: "HitBenchCLI",
      dependencies: [
        "LayerModel", "SceneFormat", "Presentation", "HitTesting", "Scenes", "Verification", "BenchKit",
        "BenchmarkSuites", "JSON", "FileIO", "Clocks", "Rendering", "Tracing", "Reports",
      ],
      swiftSettings: checked
    ),
    .executableTarget(name: "hitbench", dependencies: ["HitBenchCLI"], swiftSettings: checked),
    // The coverage-guided fuzzer of the scene reader and the hit test (scripts/fuzz.sh builds it
    // with libFuzzer and AddressSanitizer; a normal build replays input files).
    .executableTarget(
      name: "hitbench-fuzz", dependencies: ["LayerModel", "SceneFormat", "Presentation", "HitTesting", "Verification"],
      swiftSettings: checked),
    // Shared by the test targets: the fast loop's sizes.
    .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: checked),
    .testTarget(
      name: "LayerModelTests",
      dependencies: [
        "LayerModel", "SceneFormat", "Presentation", "Motion", "JSON", "FileIO", "Scenes", "Verification",
        "BenchKit", "Allocations", "TestSupport",
      ],
      swiftSettings: checked),
    .testTarget(
      name: "HitTestingTests",
      dependencies: [
        "HitTesting", "LayerModel", "Presentation", "SceneFormat", "Scenes", "Verification", "BenchKit", "Allocations",
        "Clocks", "CThreads",
        "TestSupport",
      ],
      swiftSettings: checked),
    .testTarget(
      name: "BenchKitTests",
      dependencies: [
        "BenchKit", "HitTesting", "Scenes", "LayerModel", "Presentation", "SceneFormat", "Clocks",
      ],
      swiftSettings: checked),
    .testTarget(
      name: "CLITests", dependencies: ["HitBenchCLI", "BenchmarkSuites", "BenchKit", "Allocations", "TestSupport"],
      swiftSettings: checked),
  ]
)
