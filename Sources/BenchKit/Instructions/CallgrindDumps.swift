/// What Callgrind wrote for a counted run (`run --instructions`): each dump's label (the
/// `hitbench key=value...` the run gave it) and its total instructions, read from the text of
/// its output files. Each counted strategy is one dump per phase; every process first dumps
/// its calibration loop (`RunConfiguration.calibrateInstructionCount`).
public struct CallgrindDumps: Sendable {
  /// One strategy's count of one phase, and its frames.
  public struct Count: Sendable, Equatable {
    public var configuration: Int
    public var strategy: String
    /// The threads its frames were built on (1 for a scene strategy).
    public var threads: Int
    public var queries: Int
    public var frames: Int
    public var phase: CountedPhase
    public var instructions: Double
    /// Helper jobs counted in the phase (background window builds).
    public var jobs: Int
    /// The candidates pass's part (`CountedPhase.candidates`; nil for a phase of the frames),
    /// and for its whole batch, the candidates it tested.
    public var part: Part?
    public var candidates = 0
  }

  /// The two dumps of a candidates pass: the batch with every candidate evaluated afresh, and
  /// the same batch's index work alone.
  public enum Part: String, Sendable {
    case whole, index
  }

  public var counts: [Count] = []
  /// Each calibration dump: the loop's iterations (two instructions each) and what was counted.
  public var calibrations: [(iterations: Int, instructions: Double)] = []

  public init() {}

  /// Why a file is not a dump this run wrote: one line.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Adds the dump in `text` (one Callgrind output file); a file without a `hitbench` label
  /// (the dump at the program's end) is skipped.
  public mutating func add(_ text: Substring) throws(Problem) {
    var label: [Substring: Substring]?
    var total: Double?
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("desc: Trigger: Client Request: hitbench ") {
        label = [:]
        for pair in line.dropFirst("desc: Trigger: Client Request: hitbench ".count).split(separator: " ") {
          guard let eq = pair.firstIndex(of: "=") else { continue }
          label?[pair[..<eq]] = pair[pair.index(after: eq)...]
        }
      } else if line.hasPrefix("totals:") || (total == nil && line.hasPrefix("summary:")) {
        total = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
      }
    }
    guard let label else { return }
    guard let total else { throw Problem(description: "a Callgrind dump has no totals line") }
    if let iterations = label["iterations"].flatMap({ Int($0) }) {
      calibrations.append((iterations, total))
      return
    }
    guard let configuration = label["configuration"].flatMap({ Int($0) }), let strategy = label["strategy"],
      let queries = label["queries"].flatMap({ Int($0) }), let frames = label["frames"].flatMap({ Int($0) }),
      let phase = label["phase"].flatMap({ CountedPhase(rawValue: String($0)) })
    else {
      throw Problem(description: "a Callgrind dump's label is not one hitbench writes")
    }
    var count = Count(
      configuration: configuration, strategy: String(strategy), threads: label["threads"].flatMap { Int($0) } ?? 1,
      queries: queries, frames: frames, phase: phase,
      instructions: total, jobs: label["jobs"].flatMap { Int($0) } ?? 0)
    if phase == .candidates {
      // A label cut short loses its part: never read as another part's count.
      guard let part = label["part"].flatMap({ Part(rawValue: String($0)) }),
        let candidates = part == .index ? 0 : label["candidates"].flatMap({ Int($0) })
      else { throw Problem(description: "a Callgrind dump of candidates has no part") }
      count.part = part
      count.candidates = candidates
    }
    counts.append(count)
  }

  /// The counts of configuration `configuration`'s strategy on `threads` build threads at Q, all
  /// phases together; nil when none was dumped.
  public func instructions(configuration: Int, strategy: String, threads: Int, queries: Int) -> InstructionCounts? {
    var out = InstructionCounts()
    var found = false
    for c in counts
    where c.configuration == configuration && c.strategy == strategy && c.threads == threads && c.queries == queries {
      switch c.part {
      case .whole?:
        out.candidateBatch = c.instructions
        out.candidatesCounted = c.candidates
      case .index?: out.candidateIndex = c.instructions
      case nil:
        out.record(c.phase, total: c.instructions, frames: c.frames)
        if c.phase == .background { out.backgroundBuilds = c.jobs }
      }
      found = true
    }
    return found ? out : nil
  }

  /// The largest relative error of a calibration dump against its known length (two
  /// instructions an iteration), nil without one.
  public var calibrationError: Double? {
    calibrations.map { Swift.abs($0.instructions / (2 * Double(Swift.max($0.iterations, 1))) - 1) }.max()
  }
}
