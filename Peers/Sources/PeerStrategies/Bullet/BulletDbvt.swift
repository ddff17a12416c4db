import CPeers

/// Bullet's btDbvt, driven as btDbvtBroadphase drives it (CPeers/bullet.cpp): one leaf per
/// hittable row, `update` with margin and predicted velocity each frame (reinserted only when it
/// leaves its expanded volume), one incremental optimisation pass per frame, collideTV per point.
public enum BulletDbvt: PeerLibrary {
  public static let kind = HB_PEER_BULLET
  public static let name = "bullet-dbvt"
  public static let summary =
    "peer: Bullet btDbvt as btDbvtBroadphase drives it (margin, velocity, incremental optimise), collideTV per point"
  public static let package = "libbullet-dev"
}
