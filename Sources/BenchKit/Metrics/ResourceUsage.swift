#if canImport(Glibc)
  import Glibc
#endif

/// Process resource readings.
public enum ResourceUsage {
  /// The peak resident set so far (getrusage's ru_maxrss, KiB on Linux), in bytes.
  public static var peakResidentBytes: Int {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Int(u.ru_maxrss) * 1024
  }
}
