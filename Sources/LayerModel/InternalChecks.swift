/// The switch for `_checkInvariants()`. The checks are compiled in only with
/// `HITBENCH_INTERNAL_CHECKS` (debug builds, so the whole test suite runs with them); they
/// allocate, so a measurement of allocations suspends them for its own task (task-local: tests
/// running beside it keep theirs).
public enum InternalChecks {
  @TaskLocal public static var suspended = false

  /// Whether invariant checks run here and now.
  @inlinable public static var active: Bool {
    #if HITBENCH_INTERNAL_CHECKS
      return !suspended
    #else
      return false
    #endif
  }
}
