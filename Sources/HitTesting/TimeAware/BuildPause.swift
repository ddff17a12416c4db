import Clocks
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Holds every background window build at its next checkpoint while untimed work runs between
/// frames (`run --verify`'s reference check), so that work lends the builders no wall time a
/// real frame would not have (a million-layer check of about 0.15 s a frame let every window
/// finish in time, docs/optimisation-log.md entry 34). A build stops at most one checkpoint
/// later (every 4,096 groups of its bounds, between an index's passes) and leaves the held
/// time out of its build time. Process-wide: the builders are per strategy, the check is the
/// runner's, and a hold only delays whoever is building.
public enum BuildPause {
  /// Holds in force (runners in parallel tests may overlap).
  static let _holders = Atomic<Int>(0)
  /// When the current hold began, and the held time of every hold that ended.
  static let _since = Atomic<UInt64>(0)
  static let _total = Atomic<UInt64>(0)

  /// Holds builds at their next checkpoint until `resume`.
  public static func hold() {
    if _holders.add(1, ordering: .acquiringAndReleasing).oldValue == 0 {
      _since.store(Clocks.monotonicNanoseconds(), ordering: .releasing)
    }
  }

  /// Ends a `hold`: held builds go on once every hold has ended.
  public static func resume() {
    if _holders.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
      _total.add(Clocks.monotonicNanoseconds() &- _since.load(ordering: .acquiring), ordering: .releasing)
    }
  }

  /// The held time of every hold that ended, in nanoseconds: a build leaves out what grew
  /// while it ran.
  static var heldNanoseconds: UInt64 { _total.load(ordering: .acquiring) }

  /// Where a build may be held (returns at once when nothing holds).
  @inline(__always) static func checkpoint() {
    if _holders.load(ordering: .relaxed) > 0 { _wait() }
  }

  /// A checkpoint every 4,096 iterations of a loop over i.
  @inline(__always) static func checkpoint(every i: Int) {
    if i & 4095 == 0 { checkpoint() }
  }

  @inline(never) static func _wait() {
    while _holders.load(ordering: .acquiring) > 0 { usleep(50) }
  }
}
