#if canImport(Glibc)
  import Glibc
#endif

/// Where text is written: a `String` (appends) or a file being written (`FileTextSink`).
public protocol TextSink {
  mutating func write(_ text: String)
}

extension String: TextSink {
  public mutating func write(_ text: String) { append(text) }
}

/// Text written to an open file a megabyte at a time (`FileIO.writeAtomically(to:streaming:)`):
/// holds at most one buffer. After a failed write it drops the rest and reports the failure
/// when finished.
public struct FileTextSink: TextSink {
  let fd: Int32
  var buffer: [UInt8] = []
  var failed = false
  var failure: Int32 = 0
  static let chunk = 1 << 20

  init(_ fd: Int32) {
    self.fd = fd
    buffer.reserveCapacity(Self.chunk + 4096)
  }

  public mutating func write(_ text: String) {
    guard !failed else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.chunk { _flush() }
  }

  mutating func _flush() {
    if !failed && !FileIO._writeAll(fd, buffer) {
      failed = true
      failure = errno
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered; false when any write failed (errno then says why).
  mutating func _finish() -> Bool {
    _flush()
    if failed { errno = failure }
    return !failed
  }
}
