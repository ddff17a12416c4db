import CPeers

/// Embree 3's BVH over user geometry (CPeers/embree.cpp): one primitive per hittable row, a
/// dynamic scene rebuilt each frame at low quality (the builder Embree uses for animated
/// geometry), `rtcPointQuery` with radius 0 per point.
public enum EmbreeBVH: PeerLibrary {
  public static let kind = HB_PEER_EMBREE
  public static let name = "embree-bvh"
  public static let summary =
    "peer: Embree 3 user-geometry BVH rebuilt per frame (low quality), rtcPointQuery per point"
  public static let package = "libembree-dev"
}

/// Embree 3's BVH over user geometry, refit each frame while the row count holds (rebuilt when
/// it changes): cheaper updates, but the tree keeps the first frame's grouping, so queries slow
/// down as layers travel.
public enum EmbreeRefitBVH: PeerLibrary {
  public static let kind = HB_PEER_EMBREE_REFIT
  public static let name = "embree-refit"
  public static let summary =
    "peer: Embree 3 user-geometry BVH refit per frame (topology of the first build), rtcPointQuery"
  public static let package = "libembree-dev"
}
