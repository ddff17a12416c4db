// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The peers: established spatial libraries as strategies of the harness, an optional part
/// built by scripts/peers.sh. Each library is compiled in only when its headers are installed
/// (Debian packages below), so a missing one removes that peer, never breaks the build;
/// `hitbench-peers list` names what is missing and the package to install.
struct Library {
  var define: String
  var header: String
  var link: [String]
  var include: String?
}

let libraries = [
  Library(define: "HB_HAS_BOX2D", header: "/usr/include/box2d/b2_dynamic_tree.h", link: ["box2d"]),
  Library(
    define: "HB_HAS_BULLET", header: "/usr/include/bullet/BulletCollision/BroadphaseCollision/btDbvt.h",
    link: ["BulletCollision", "LinearMath"], include: "/usr/include/bullet"),
  Library(define: "HB_HAS_GEOS", header: "/usr/include/geos_c.h", link: ["geos_c"]),
  Library(
    define: "HB_HAS_SPATIALINDEX", header: "/usr/include/spatialindex/capi/sidx_api.h", link: ["spatialindex_c"]),
  Library(define: "HB_HAS_EMBREE", header: "/usr/include/embree3/rtcore.h", link: ["embree3"]),
].filter { FileManager.default.fileExists(atPath: $0.header) }

let package = Package(
  name: "HitBenchPeers",
  products: [
    .executable(name: "hitbench-peers", targets: ["hitbench-peers"])
  ],
  dependencies: [.package(name: "HitBench", path: "..")],
  targets: [
    .target(
      name: "CPeers",
      cxxSettings: libraries.map { .define($0.define) }
        + [.unsafeFlags(["-O2"] + libraries.compactMap { $0.include.map { "-I" + $0 } })],
      linkerSettings: libraries.flatMap { $0.link.map { .linkedLibrary($0) } }
    ),
    .target(
      name: "PeerStrategies",
      dependencies: [
        "CPeers", .product(name: "HitTesting", package: "HitBench"), .product(name: "BenchKit", package: "HitBench"),
        .product(name: "Presentation", package: "HitBench"), .product(name: "LayerModel", package: "HitBench"),
      ]
    ),
    .executableTarget(
      name: "hitbench-peers",
      dependencies: ["PeerStrategies", .product(name: "HitBenchCLI", package: "HitBench")]
    ),
    .testTarget(
      name: "PeerTests",
      dependencies: [
        "PeerStrategies", .product(name: "HitTesting", package: "HitBench"),
        .product(name: "Verification", package: "HitBench"), .product(name: "Scenes", package: "HitBench"),
        .product(name: "Presentation", package: "HitBench"), .product(name: "LayerModel", package: "HitBench"),
        .product(name: "HitBenchCLI", package: "HitBench"),
      ]
    ),
  ],
  cxxLanguageStandard: .cxx17
)
