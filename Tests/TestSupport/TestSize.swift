#if canImport(Glibc)
  import Glibc
#endif

/// The size a test runs at: the full suite (`bash scripts/test.sh`, what CI runs) or the fast
/// loop (`bash scripts/test.sh --fast`, which sets `HITBENCH_TEST_SIZE=fast`): the same tests,
/// the same assertions, fewer scenes, points and layers.
public enum TestSize {
  /// Whether the fast loop is running.
  public static let isFast: Bool = {
    guard let v = getenv("HITBENCH_TEST_SIZE") else { return false }
    return String(cString: v) == "fast"
  }()

  /// `full` in the full suite, `fast` in the fast loop.
  public static func pick<T>(full: T, fast: T) -> T { isFast ? fast : full }
}
