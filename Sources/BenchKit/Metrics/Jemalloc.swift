#if !HITBENCH_NO_JEMALLOC
  import CJemalloc

  /// Links Debian's jemalloc into every process that uses BenchKit, replacing malloc for the
  /// whole process so that `AllocationCounter` (module Allocations) can read its counters. The
  /// reference to `mallctl` keeps the linker (`--as-needed`) from dropping the library.
  public let jemallocControl:
    @convention(c) (
      UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
    ) -> Int32 = mallctl
#endif
