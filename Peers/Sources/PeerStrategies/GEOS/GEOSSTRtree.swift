import CPeers

/// GEOS's STRtree through its C API (CPeers/geos.cpp): a new tree of rectangle geometries
/// bulk-loaded each frame (node capacity 10), queried with a point geometry.
public enum GEOSSTRtree: PeerLibrary {
  public static let kind = HB_PEER_GEOS
  public static let name = "geos-strtree"
  public static let summary = "peer: GEOS STRtree (C API) bulk-loaded per frame from rectangles, point query"
  public static let package = "libgeos-dev"
}
