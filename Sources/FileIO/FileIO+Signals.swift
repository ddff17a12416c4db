#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The temporary file `writeAtomically` is filling, kept in a fixed C buffer so that a signal
/// handler can remove it (only async-signal-safe calls: unlink, signal, raise). The handlers for
/// SIGINT, SIGTERM and SIGHUP are installed on first use and then re-raise the signal with its
/// default action, so the process still ends the way the sender asked.
enum _pendingTemporary {
  static let capacity = 4096
  nonisolated(unsafe) static let buffer: UnsafeMutablePointer<CChar> = {
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    p.initialize(repeating: 0, count: capacity)
    return p
  }()
  nonisolated(unsafe) static var installed = false

  static func set(_ path: String) {
    let bytes = Array(path.utf8CString)
    guard bytes.count <= capacity else { return }
    if !installed {
      installed = true
      _ = buffer
      let handler: @convention(c) (Int32) -> Void = { sig in
        if _pendingTemporary.buffer[0] != 0 { unlink(_pendingTemporary.buffer) }
        signal(sig, SIG_DFL)
        raise(sig)
      }
      for sig in [SIGINT, SIGTERM, SIGHUP] {
        // A signal the process was started with ignored (nohup) stays ignored.
        var old = sigaction()
        sigaction(sig, nil, &old)
        if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }
        signal(sig, handler)
      }
    }
    buffer[0] = 0
    for i in 1..<bytes.count { buffer[i] = bytes[i] }
    buffer[0] = bytes[0]
  }

  static func clear() { buffer[0] = 0 }
}
