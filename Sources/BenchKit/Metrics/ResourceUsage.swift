import Clocks
import FileIO

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

/// How busy the host was with work other than this process's: the machine's busy CPU time
/// (`/proc/stat`'s first line: user, nice, system, irq, softirq and steal, which is time the
/// hypervisor gave another machine) less this process's own CPU time, in cores over a span of
/// wall time. A run measured while another program compiled on both cores builds its frames
/// several times slower (the build suite's two-thread build, 47 -> 254 ns a layer): its times
/// say what that host did, not what the code costs (`RunSpread`). Reading one costs a file read:
/// it is taken around a configuration's turns, never inside a frame.
public struct HostLoad: Sendable {
  /// The machine's busy time, in clock ticks, and this process's CPU and the wall clock, in
  /// nanoseconds, when read; `busyTicks` is nil where `/proc/stat` cannot be read.
  var busyTicks: UInt64?
  var ownCPUNs: UInt64
  var wallNs: UInt64

  /// Above this many cores of other work on average, a result's times are taken as the busy
  /// host's: on this 2-core machine a quarter of a core is far beyond its daemons' (0.000-0.008
  /// cores over the build suite's configurations on a quiet host).
  public static let busyCores = 0.25

  /// A reading made of its parts.
  public init(busyTicks: UInt64?, ownCPUNs: UInt64, wallNs: UInt64) {
    self.busyTicks = busyTicks
    self.ownCPUNs = ownCPUNs
    self.wallNs = wallNs
  }

  /// Clock ticks a second, the unit of `/proc/stat`.
  public static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

  public static func now() -> HostLoad {
    HostLoad(
      busyTicks: _busyTicks(), ownCPUNs: Clocks.processCPUNanoseconds(), wallNs: Clocks.monotonicNanoseconds())
  }

  /// Cores of other work on average from `start` to this reading; nil where unknown.
  public func otherCores(since start: HostLoad) -> Double? {
    guard let a = start.busyTicks, let b = busyTicks, b >= a, wallNs > start.wallNs else { return nil }
    guard Self.ticksPerSecond > 0 else { return nil }
    let busy = Double(b - a) / Self.ticksPerSecond * 1e9
    let own = Double(ownCPUNs &- start.ownCPUNs)
    return Swift.max(0, busy - own) / Double(wallNs - start.wallNs)
  }

  /// The sum of the busy fields of `/proc/stat`'s aggregate line, its first (a bounded read).
  static func _busyTicks() -> UInt64? {
    guard let bytes = try? FileIO.readAll("/proc/stat", limit: 1 << 20) else { return nil }
    let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let fields = line.split(separator: " ")
    guard fields.first == "cpu", fields.count >= 9 else { return nil }
    let values = fields.dropFirst().prefix(8).map { UInt64($0) }
    guard values.allSatisfy({ $0 != nil }) else { return nil }
    // user nice system idle iowait irq softirq steal: all but idle and iowait.
    return [0, 1, 2, 5, 6, 7].reduce(0) { $0 + values[$1]! }
  }
}
