#if canImport(Glibc)
  import Glibc
#endif

/// Where and how a run was made: recorded with every result.
public struct RunMeta: Sendable {
  public var toolchain: String
  public var buildFlags: String
  public var cpuModel: String
  public var cores: Int
  public var memoryBytes: Int
  public var gitCommit: String
  public var seed: UInt64
  public var command: String
  public var date: String

  /// Readings of this process and machine.
  public static func current(seed: UInt64, command: String) -> RunMeta {
    #if compiler(>=6.3)
      let toolchain = "Swift 6.3 (swiftlang-6.3)"
    #elseif compiler(>=6.2)
      let toolchain = "Swift 6.2"
    #else
      let toolchain = "Swift 6"
    #endif
    #if DEBUG
      let flags = "debug (-Onone)"
    #else
      let flags = "release (-c release, -Ounchecked, whole-module)"
    #endif
    let cpu =
      _readFile("/proc/cpuinfo")?.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingSpaces } ?? "unknown"
    let mem =
      _readFile("/proc/meminfo")?.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
      .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 * 1024 } ?? 0
    var now = time(nil)
    var tmv = tm()
    gmtime_r(&now, &tmv)
    let date = String(
      format4: Int(tmv.tm_year) + 1900, Int(tmv.tm_mon) + 1, Int(tmv.tm_mday), Int(tmv.tm_hour), Int(tmv.tm_min))
    return RunMeta(
      toolchain: toolchain, buildFlags: flags, cpuModel: cpu, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      memoryBytes: mem, gitCommit: _gitCommit(), seed: seed, command: command, date: date)
  }

  static func _gitCommit() -> String {
    guard let head = _readFile(".git/HEAD")?.trimmingSpaces else { return "unknown" }
    if head.hasPrefix("ref: ") {
      let ref = String(head.dropFirst(5))
      if let sha = _readFile(".git/" + ref)?.trimmingSpaces { return sha }
      if let packed = _readFile(".git/packed-refs") {
        for line in packed.split(separator: "\n") where line.hasSuffix(" " + ref) {
          return String(line.split(separator: " ")[0])
        }
      }
      return "unknown"
    }
    return head
  }
}

/// A whole file as text, or nil.
func _readFile(_ path: String) -> String? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var out: [UInt8] = []
  var buf = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = buf.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, f) }
    if n == 0 { break }
    out.append(contentsOf: buf[0..<n])
  }
  return String(decoding: out, as: UTF8.self)
}

extension String {
  var trimmingSpaces: String {
    String(
      drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        .reversed())
  }

  init(format4 y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    self = "\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi))Z"
  }
}
