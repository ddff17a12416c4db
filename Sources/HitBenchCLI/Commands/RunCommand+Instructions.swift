import BenchKit
import FileIO
import JSON

#if canImport(Glibc)
  import Glibc
#endif

/// `run --instructions`: the run's configurations counted under Valgrind's Callgrind, one pass
/// per phase (`CountedPhase`), each a child `hitbench run` of the same arguments with
/// `HITBENCH_COUNTED_PHASE` set. A child collects only that phase of the measured frames, one
/// strategy after another, each strategy's count a labelled dump; the counts become each
/// result's `instructions`. About 50 times as slow as the frames it counts.
enum InstructionCounting {
  /// `run` options a counted pass leaves out: it reports nothing but its dumps, checks no
  /// answers, and runs once, one strategy after another (a child sets that itself).
  static let droppedOptions = [
    "--output", "--format", "--columns", "--failures", "--repeat", "--interleave", "--trace",
  ]
  static let droppedFlags = ["--instructions", "--verify", "--verify-all"]

  /// The arguments of a counted pass: `args` without the dropped options, writing its report
  /// (unread) to `output`.
  static func passArguments(_ args: [String], output: String) -> [String] {
    var out: [String] = []
    var i = 0
    while i < args.count {
      let a = args[i]
      i += 1
      if droppedFlags.contains(a) { continue }
      if droppedOptions.contains(a) {
        i += 1
        continue
      }
      if droppedOptions.contains(where: { a.hasPrefix($0 + "=") }) { continue }
      out.append(a)
    }
    return out + ["--format", "json", "--output", output]
  }

  /// Valgrind's path on PATH, nil when it is not installed.
  static func valgrindPath() -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") where !dir.isEmpty {
      let candidate = String(dir) + "/valgrind"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// This executable's path.
  static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return buffer.withUnsafeBufferPointer { p in
      String(decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p)[0..<n]), as: UTF8.self)
    }
  }

  /// Where the tools are: Valgrind and this executable.
  struct Tools {
    var valgrind: String
    var executable: String
  }

  /// The tools a count needs, or why it cannot run (exit 69).
  static func tools() throws(CommandError) -> Tools {
    guard RunConfiguration.canCountInstructions else {
      throw .unavailable(
        "--instructions: this hitbench was built without Valgrind's headers (apt install valgrind, then rebuild)")
    }
    guard let valgrind = valgrindPath() else {
      throw .unavailable("--instructions needs Valgrind, which is not installed (apt install valgrind)")
    }
    guard let me = executablePath() else { throw .unavailable("--instructions: cannot find this executable's path") }
    return Tools(valgrind: valgrind, executable: me)
  }

  /// The environment variable that pins each time-aware strategy's window in a counted pass:
  /// `configuration:strategy:Q:seconds` entries separated by `;`.
  static let windowsVariable = "HITBENCH_COUNTED_WINDOWS"

  /// `windowsVariable`'s value in this process, if set.
  static var pinnedWindows: String? { getenv(windowsVariable).map { String(cString: $0) } }

  /// The timed run's mean window of each time-aware strategy whose window was chosen by cost,
  /// as `windowsVariable` gives them to the counted passes.
  static func windows(_ results: [Measurement], configurations: [Int]) -> String {
    zip(results, configurations).compactMap { m, i in
      m.windowMs > 0 && !m.windowPinned ? "\(i):\(m.strategy):\(m.queriesPerFrame):\(m.windowMs / 1000)" : nil
    }.joined(separator: ";")
  }

  /// The windows of configuration `index` in `windowsVariable`'s value (`RunConfiguration.countedWindows`).
  static func countedWindows(_ value: String, configuration index: Int) -> [String: Double] {
    var out: [String: Double] = [:]
    for entry in value.split(separator: ";") {
      let parts = entry.split(separator: ":")
      guard parts.count == 4, Int(parts[0]) == index, let q = Int(parts[2]), let w = Double(parts[3]), w > 0,
        w.isFinite
      else { continue }
      out["\(parts[1]) \(q)"] = w
    }
    return out
  }

  /// What the counted passes found: the dumps, and the results of the queries pass (what the
  /// counted frames did: their candidates, rows built, entries re-indexed).
  struct Counted {
    var dumps: CallgrindDumps
    var results: [JSONValue]
  }

  /// Counts each of `phases` of `args`' run under Callgrind (time-aware strategies' windows
  /// pinned to `windows`) and reads the dumps.
  static func count(_ args: [String], tools: Tools, windows: String, phases: [CountedPhase]) throws(CommandError)
    -> Counted
  {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((base + "/hitbench-instructions.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw .cannotCreate(
        "--instructions: cannot create a directory under \(FileIO.displayName(base)) for Callgrind's dumps")
    }
    let directory = String(cString: made)
    defer {
      for name in FileIO.directoryEntries(directory) ?? [] { unlink(directory + "/" + name) }
      rmdir(directory)
    }
    var dumps = CallgrindDumps()
    for phase in phases {
      Output.err("run: counting the \(phase.rawValue) phase under Callgrind\n")
      let arguments =
        [
          tools.valgrind, "-q", "--tool=callgrind", "--collect-atstart=no",
          "--callgrind-out-file=\(directory)/\(phase.rawValue).%p", tools.executable, "run",
        ] + passArguments(args, output: "\(directory)/\(phase.rawValue).json")
      let status = try spawnAndWait(
        arguments, environment: ["HITBENCH_COUNTED_PHASE=\(phase.rawValue)", "\(windowsVariable)=\(windows)"])
      guard status == 0 else {
        throw .failed("--instructions: the \(phase.rawValue) phase's run under Callgrind failed (status \(status))")
      }
    }
    for name in FileIO.directoryEntries(directory) ?? [] where !name.hasSuffix(".json") {
      let bytes: [UInt8]
      do { bytes = try FileIO.readAll(directory + "/" + name) } catch { throw .file(error) }
      do throws(CallgrindDumps.Problem) { try dumps.add(Substring(decoding: bytes, as: UTF8.self)) } catch {
        throw .failed("--instructions: \(error.description)")
      }
    }
    guard let error = dumps.calibrationError else {
      throw .failed("--instructions: Callgrind wrote no counts (was this hitbench built with Valgrind's headers?)")
    }
    // A loop of known length must read as such, or no count of this run can be trusted.
    guard error < 0.01 else {
      throw .failed("--instructions: Callgrind counted a loop of known length \(Int(error * 100))% off")
    }
    let report: JSONValue
    do {
      let bytes = try FileIO.readAll("\(directory)/\(CountedPhase.queries.rawValue).json")
      report = try JSONParser.parse(bytes: bytes)
    } catch {
      throw .failed("--instructions: the counted run's report cannot be read: \(error)")
    }
    guard case .array(let results)? = report["results"] else {
      throw .failed("--instructions: the counted run's report has no results")
    }
    return Counted(dumps: dumps, results: results)
  }

  /// The counts of result `index` of the run (`m`, of configuration `configuration`).
  static func instructions(_ counted: Counted, index: Int, _ m: Measurement, configuration: Int) throws(CommandError)
    -> InstructionCounts
  {
    guard
      var counts = counted.dumps.instructions(
        configuration: configuration, strategy: m.strategy, threads: m.threads, queries: m.queriesPerFrame),
      index < counted.results.count, case .string(m.strategy)? = counted.results[index]["strategy"]
    else { throw .failed("--instructions: Callgrind counted nothing of \(m.strategy) at Q = \(m.queriesPerFrame)") }
    let r = counted.results[index]
    func number(_ key: String) -> Double {
      if case .number(let d)? = r[key] { return d }
      return 0
    }
    counts.queries = m.queriesPerFrame
    counts.candidatesPerQuery = number("candidatesPerQuery")
    counts.rowsRecomputedPerFrame = number("rowsRecomputedPerFrame")
    counts.reindexedPerFrame = number("reindexedPerFrame")
    counts.windowMs = number("windowMs")
    return counts
  }

  /// Runs `arguments` (the first an executable path) with this process's environment plus
  /// `environment`, and returns its exit status (128 + the signal when a signal ended it).
  static func spawnAndWait(_ arguments: [String], environment: [String]) throws(CommandError) -> Int32 {
    var env: [String] = []
    var e = environ
    while let entry = e.pointee {
      let s = String(cString: entry)
      if !s.hasPrefix("HITBENCH_COUNTED_PHASE=") { env.append(s) }
      e += 1
    }
    env += environment
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid = pid_t()
    let rc = posix_spawn(&pid, arguments[0], nil, nil, argv, envp)
    guard rc == 0 else {
      throw .unavailable(
        "--instructions: cannot start \(FileIO.displayName(arguments[0])): \(String(cString: strerror(rc)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG, spelt out (Glibc's macros do not import).
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}
