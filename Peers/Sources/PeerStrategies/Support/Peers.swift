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
    if Box2DTree.isAvailable { StrategyKind.register(frameStrategy: PeerStrategy<Box2DTree>.self) }
    if BulletDbvt.isAvailable { StrategyKind.register(frameStrategy: PeerStrategy<BulletDbvt>.self) }
    if GEOSSTRtree.isAvailable { StrategyKind.register(frameStrategy: PeerStrategy<GEOSSTRtree>.self) }
    if SpatialIndexRStar.isAvailable { StrategyKind.register(frameStrategy: PeerStrategy<SpatialIndexRStar>.self) }
    if EmbreeBVH.isAvailable {
      StrategyKind.register(frameStrategy: PeerStrategy<EmbreeBVH>.self)
      StrategyKind.register(frameStrategy: PeerStrategy<EmbreeRefitBVH>.self)
      StrategyKind.register(sceneStrategy: LinearBoundsStrategy<EmbreeMotionIndex>.self)
    }
    for p in all where !p.available {
      StrategyKind.registerMissing(p.name, reason: "not built: install \(p.package), then bash scripts/peers.sh")
    }
  }
}
