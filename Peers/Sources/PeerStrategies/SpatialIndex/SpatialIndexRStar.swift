import CPeers

/// libspatialindex's R*-tree through its C API (CPeers/spatialindex.cpp): an in-memory index
/// bulk-loaded (STR) from a stream of the boxes each frame, `Index_Intersects_id` per point.
public enum SpatialIndexRStar: PeerLibrary {
  public static let kind = HB_PEER_SPATIALINDEX
  public static let name = "sidx-rstar"
  public static let summary =
    "peer: libspatialindex R*-tree (C API), STR bulk load per frame, intersects query per point"
  public static let package = "libspatialindex-dev"
}
