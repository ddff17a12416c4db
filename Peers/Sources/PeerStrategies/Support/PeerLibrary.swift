import CPeers

/// One established library as the harness sees it: its index kind in the C shim (CPeers),
/// its CLI name, what it does per frame, and the Debian package that provides it.
public protocol PeerLibrary {
  static var kind: hb_peer_kind { get }
  static var name: String { get }
  static var summary: String { get }
  /// The Debian package to install when the library is missing.
  static var package: String { get }
}

extension PeerLibrary {
  /// Whether the library was found when the peers package was built.
  public static var isAvailable: Bool { hb_peer_available(Int32(kind.rawValue)) != 0 }
}

/// An index of the C shim, owned: destroyed with the last strategy value that holds it.
final class _PeerHandle {
  let raw: OpaquePointer

  init?(_ kind: hb_peer_kind) {
    guard let p = hb_peer_create(Int32(kind.rawValue)) else { return nil }
    raw = p
  }

  deinit { hb_peer_destroy(raw) }
}
