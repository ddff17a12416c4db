import BenchKit
import HitTesting

/// The peers, registered with the harness.
public enum Peers {
  /// Each peer's name, whether it is built in, and its Debian package.
  public static let all: [(name: String, available: Bool, package: String)] = [
    (Box2DTree.name, Box2DTree.isAvailable, Box2DTree.package),
    (BulletDbvt.name, BulletDbvt.isAvailable, BulletDbvt.package),
    (GEOSSTRtree.name, GEOSSTRtree.isAvailable, GEOSSTRtree.package),
    (SpatialIndexRStar.name, SpatialIndexRStar.isAvailable, SpatialIndexRStar.package),
    (EmbreeBVH.name, EmbreeBVH.isAvailable, EmbreeBVH.package),
    (EmbreeRefitBVH.name, EmbreeRefitBVH.isAvailable, EmbreeRefitBVH.package),
    (EmbreeMotionIndex.name, EmbreeBVH.isAvailable, EmbreeMotionIndex.package),
  ]

  /// Adds every built-in peer to `StrategyKind.allCases` (so to every verb); names the missing.
  public static func register() {
    if Box2DTree.isAvailable { Strategies.register(frameStrategy: PeerStrategy<Box2DTree>.self) }
    if BulletDbvt.isAvailable { Strategies.register(frameStrategy: PeerStrategy<BulletDbvt>.self) }
    if GEOSSTRtree.isAvailable { Strategies.register(frameStrategy: PeerStrategy<GEOSSTRtree>.self) }
    if SpatialIndexRStar.isAvailable { Strategies.register(frameStrategy: PeerStrategy<SpatialIndexRStar>.self) }
    if EmbreeBVH.isAvailable {
      Strategies.register(frameStrategy: PeerStrategy<EmbreeBVH>.self)
      Strategies.register(frameStrategy: PeerStrategy<EmbreeRefitBVH>.self)
      Strategies.register(sceneStrategy: WindowedStrategy<EmbreeMotionIndex>.self)
    }
    for p in all where !p.available {
      StrategyKind.registerMissing(p.name, reason: "not built: install \(p.package), then bash scripts/peers.sh")
    }
  }
}
