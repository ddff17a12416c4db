import CPeers

/// Box2D 2.4's b2DynamicTree, driven as a Box2D world drives it (CPeers/box2d.cpp): one proxy
/// per hittable row kept across frames, `MoveProxy` each frame with the row's box and its
/// displacement (reinserted only when it leaves its fattened box), `Query` per point.
public enum Box2DTree: PeerLibrary {
  public static let kind = HB_PEER_BOX2D
  public static let name = "box2d-tree"
  public static let summary = "peer: Box2D 2.4 b2DynamicTree, MoveProxy per row per frame (fat boxes), Query per point"
  public static let package = "libbox2d-dev"
}
