import CCallgrind
import HitTesting
import LayerModel
import Presentation
import Scenes

#if canImport(Glibc)
  import Glibc
#endif

/// Where a run's scene comes from.
public enum SceneSource: Sendable, Equatable {
  case generated(SceneKind)
  case file(String)

  public var name: String {
    switch self {
    case .generated(let k): k.rawValue
    case .file(let path): path
    }
  }
}

/// One benchmark configuration: a scene, the strategies, the per-frame query counts and
/// workload, how many frames at which rate, and whether answers are verified.
public struct RunConfiguration: Sendable {
  public var scene: SceneSource = .generated(.app)
  public var layers = 10_000
  public var animatedFraction = 1.0
  public var strategies: [StrategyKind] = StrategyKind.allCases
  public var queries: [Int] = [100]
  public var workload: Workload = .uniform
  public var frames = 60
  public var warmup = 10
  public var fps = 120.0
  public var seed: UInt64 = 1
  public var semantics = HitTestSemantics.calayer
  public var verify = false
  /// The most layer visits `verify`'s reference walk spends on one frame. A frame whose every
  /// answer would cost more (layers x Q above it: a million flat layers at Q = 1000 take
  /// seconds) checks an evenly spaced share of its answers instead, shifted frame by frame so
  /// the run covers every query index; `Int.max` checks every answer. 2^25 visits take about
  /// 0.1 s here.
  public var verifyVisitsPerFrame = 1 << 25
  /// Hit-test the model tree instead of the presentation tree (answering for where layers are not, during an animation).
  public var modelTree = false
  /// Threads for the presentation build, each count a builder of its own (default: the
  /// machine's cores). With several, every frame strategy runs once on each builder, its turns
  /// interleaved with the others' like another strategy's, so that what a second core saves and
  /// costs is measured side by side with one thread; a scene strategy builds no frame and runs
  /// once (its results report one thread).
  public var threads = [RunConfiguration.machineCores]
  /// A fixed window length in seconds for the time-aware strategies (nil: chosen by cost).
  public var windowSeconds: Double?
  /// What the time-aware strategies' window length, when chosen by cost, minimises.
  public var windowCost = WindowCost.wall
  /// How far past its hand-over a time-aware window's bounds reach, as a share of its length.
  public var windowOverlap = StrategyOptions().windowOverlap
  /// A time-aware strategy's run goes on past `frames` until its measured frames hold this
  /// many whole windows, up to `longestFrames` (0: exactly `frames`). The
  /// window length is chosen by cost as the run goes (long at small Q), so no frame count set
  /// in advance holds a given number of windows, and a run shorter than a window or two never
  /// shows its re-index in the mean or the p99.
  public var windowsAtLeast = 0.0
  /// How far `windowsAtLeast` may lengthen a run: this many times `frames`, or as many frames
  /// as that many windows of the longest length take (`StrategyOptions.longestWindowSeconds`).
  public static let longestRunFactor = 10
  /// The most measured frames a strategy runs: `frames`, or when `windowsAtLeast` is set,
  /// `longestRunFactor` times it and at least enough more for that many of the longest windows
  /// the run can have (the pinned length, else a still screen's 4 s: 3 of those are 1,440
  /// frames at 120 Hz, past 10 x 120).
  public var longestFrames: Int {
    guard windowsAtLeast > 0 else { return frames }
    let window = windowSeconds ?? StrategyOptions.longestWindowSeconds
    let longest = (windowsAtLeast * window * fps).rounded(.up)
    guard longest.isFinite, longest < 1e8 else { return frames * Self.longestRunFactor }
    return Swift.max(frames * Self.longestRunFactor, frames + Int(longest))
  }
  /// The frame budget: a frame longer than this is counted over budget (8.33 ms: 120 Hz).
  public var budgetNs = 1e9 / 120
  /// Frames start at their clock times in wall time (`FrameLoop.realTime`), or back to back.
  public var pacing = Pacing.realTime
  /// The strategies take turns in blocks of `Runner.blockFrames` frames, in a rotating order,
  /// so that a slow stretch of a shared host lands on all of them alike; false: each runs all
  /// its frames before the next starts. Frames, points and answers are the same either way.
  public var interleave = true
  /// How many times the run is repeated (`--repeat`): each repetition runs every strategy
  /// afresh, warm-up included, and the measured frames of all of them make one result, so its
  /// blocks, and the intervals bootstrapped over them, span the repetitions.
  public var repeats = 1
  /// A planted slowdown, for measuring how well `compare` detects one (`--inject-query-delay-ns
  /// STRATEGY:NS`, scripts/compare-power.sh): the named strategy's queries busy-wait this many
  /// nanoseconds more each frame, inside the timed region. nil: none.
  public var injectedQueryDelay: (strategy: String, nanoseconds: UInt64)?
  /// The same by instructions (`--inject-query-instructions STRATEGY:N`): the named strategy's
  /// queries execute N instructions more each frame, counted with them by `--instructions`.
  public var injectedQueryInstructions: (strategy: String, instructions: UInt64)?
  /// Under Callgrind (`run --instructions`): the phase of the measured frames whose
  /// instructions are collected, each strategy's count written to a dump of its own labelled
  /// `hitbench configuration=C strategy=S threads=T queries=Q frames=N phase=P` when its frames end. Set
  /// from the environment (`HITBENCH_COUNTED_PHASE`) only when the process runs under Valgrind.
  public var countedPhase: CountedPhase?
  /// The configuration's place in the counted run (a suite's index), in its dumps' labels.
  public var countedConfiguration = 0
  /// Under Callgrind: the window each time-aware strategy keeps, by `"strategy Q"`, in seconds
  /// (the timed run's mean window, so that a count is repeatable and counts the windows the
  /// timed frames had: a window chosen by cost under Callgrind would follow its slowed clock).
  public var countedWindows: [String: Double] = [:]

  /// How frames follow one another in wall time.
  public enum Pacing: String, CaseIterable, Sendable {
    /// Frame f starts no earlier than f / fps seconds after the first, as at each vsync.
    case realTime = "real-time"
    /// Each frame starts when the last ends.
    case backToBack = "back-to-back"
  }
  /// Faults injected into what the measured strategies answer on (never into `--verify`'s
  /// reference): a self-test of `--verify`, which must then fail.
  public var faults = InjectedFaults()

  /// The phase `run --instructions` asks this process to count (`countedPhase`): read
  /// from `HITBENCH_COUNTED_PHASE` when the process runs under Valgrind, nil otherwise.
  public static var countedPhaseUnderValgrind: CountedPhase? {
    guard hitbench_on_valgrind() != 0, let raw = getenv("HITBENCH_COUNTED_PHASE") else { return nil }
    return CountedPhase(rawValue: String(cString: raw))
  }

  /// Whether this build can count instructions under Callgrind: it was compiled with
  /// Valgrind's headers (without them the client requests compile to nothing).
  public static var canCountInstructions: Bool { HITBENCH_HAS_CALLGRIND != 0 }

  /// Iterations of the calibration loop a counted run dumps first (`calibrateInstructionCount`).
  public static let calibrationIterations = 1_000_000

  /// Under Callgrind: runs a loop of exactly two instructions an iteration with collection on,
  /// and dumps it as `hitbench calibration iterations=N`, so a reader can check that the count
  /// it parses reads a known length as such.
  public static func calibrateInstructionCount() {
    hitbench_callgrind_calibrate(UInt(calibrationIterations))
    "hitbench calibration iterations=\(calibrationIterations)".withCString { hitbench_callgrind_dump($0) }
  }

  /// The cores this process may use.
  public static var machineCores: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  public init() {}

  /// The most points one configuration may precompute: (warm-up + measured frames) x the
  /// largest Q. 2^26 points are 1 GiB; beyond that a run is refused rather than left to fail
  /// in the allocator.
  public static let pointLimit = 1 << 26

  /// What is wrong with the configuration's sizes, or nil when it can run.
  public var sizeProblem: String? {
    let perFrame = queries.max() ?? 0
    let (total, overflow) = (warmup + longestFrames).multipliedReportingOverflow(by: perFrame)
    guard overflow || total > Self.pointLimit else { return nil }
    let lengthened = windowsAtLeast > 0 ? " (lengthened to \(longestFrames) by --min-windows)" : ""
    return "--frames (\(frames))\(lengthened) plus --warmup (\(warmup)) times --queries (\(perFrame)) asks for "
      + "\(overflow ? "more than 2^63" : String(total)) points; the limit is \(Self.pointLimit) (1 GiB of points)"
  }

  public init(
    scene: SceneSource, layers: Int, animatedFraction: Double = 1, strategies: [StrategyKind] = StrategyKind.allCases,
    queries: [Int], workload: Workload = .uniform, frames: Int = 60, warmup: Int = 10
  ) {
    self.scene = scene
    self.layers = layers
    self.animatedFraction = animatedFraction
    self.strategies = strategies
    self.queries = queries
    self.workload = workload
    self.frames = frames
    self.warmup = warmup
  }
}
