/// Decides, build by build, whether a presentation build that could split its passes between
/// threads does, from what splitting and not splitting cost on this host lately.
///
/// Why it exists: on a shared two-core virtual machine the second core's worth changes from
/// one stretch to the next. At 10,000 layers a split build took 0.55-0.75 of one thread's wall
/// time in some runs and the same time in others (the second virtual CPU busy elsewhere, or a
/// sibling hyperthread), while its helper still spent up to the build's wall time in CPU
/// (docs/optimisation-log.md entries 68 and 74). A fixed threshold cannot know which stretch
/// it is in; measuring both ways can.
///
/// How: it keeps an estimate of each way's wall time and CPU time (the frame's thread and the
/// workers) per build, the medians of its last eight builds. A build splits when the estimates
/// say splitting saves at least `minimumSaving` of the wall time for at most `cpuBudget` times
/// the CPU (with `hysteresis` around both), or for any CPU when one thread's build would take more than `latencyBound` (a
/// frame that is late anyway wants its wall time back); every `probeInterval` decisions it runs `probeLength` builds the other way, so an
/// estimate never goes stale (a host that frees its second core is noticed within about
/// `probeInterval` builds); the `settling` builds after a change of way are not recorded. A
/// single slow build (a descheduled worker) hardly moves a median. Answers never depend on it: a split build and an
/// unsplit one give the same frame bit for bit.
///
/// Costs: a few floating-point operations a build; no allocation.
struct SplitGovernor {
  /// One way's recent cost per build, in nanoseconds: the medians of its last `window`
  /// builds' wall and CPU times (a build the host delayed, however slow, moves them by at most
  /// one place).
  struct Estimate: CustomStringConvertible {
    static let window = 8
    private var walls = InlineArray<8, Double>(repeating: 0)
    private var cpus = InlineArray<8, Double>(repeating: 0)
    /// Samples taken.
    private(set) var samples = 0
    private(set) var wall = 0.0
    private(set) var cpu = 0.0

    mutating func add(wall w: Double, cpu c: Double) {
      walls[samples % Self.window] = w
      cpus[samples % Self.window] = c
      samples &+= 1
      let count = Swift.min(samples, Self.window)
      wall = Self.median(walls, count)
      cpu = Self.median(cpus, count)
    }

    /// The median of the first `count` values (insertion sort of at most eight).
    static func median(_ values: InlineArray<8, Double>, _ count: Int) -> Double {
      var v = values
      for i in 1..<count {
        let x = v[i]
        var j = i
        while j > 0 && v[j - 1] > x {
          v[j] = v[j - 1]
          j -= 1
        }
        v[j] = x
      }
      return count % 2 == 1 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2
    }

    var description: String { "wall \(Int(wall / 1000)) us, CPU \(Int(cpu / 1000)) us over \(samples)" }
  }

  /// The most CPU a split build may cost, against one thread's (issue 44's bound), while one
  /// thread's build fits well inside the frame: below `latencyBound`.
  var cpuBudget = 1.25
  /// A build that takes longer than this on one thread (half a 120 Hz frame by default; the
  /// builder's `frameBudgetNanoseconds` sets it) is late for its frame whatever it costs, so it
  /// splits whenever that saves wall time: at a million particles splitting saves a quarter of
  /// a 75 ms build for 1.5x its CPU.
  var latencyBound = 1e9 / 240
  /// The least share of the wall time a split build must save to be worth its helper.
  var minimumSaving = 0.1
  /// How far past its bounds a split must go to be given up: its CPU ratio `hysteresis` beyond
  /// `cpuBudget` (or its saving below half `minimumSaving`); it is taken up within them. A split
  /// near the budget (particles 10k at 1.2-1.3x) would otherwise switch back and forth, each
  /// switch paying a worker that wakes late.
  var hysteresis = 0.1
  /// How many decisions between probes of the way not taken, and how many builds a probe has.
  var probeInterval = 48
  var probeLength = 5
  /// How many times rarer the probes of one thread are when it is late for the frame.
  var lateProbeFactor = 8
  /// Builds after a switch of way that are not recorded: a worker parked through many builds
  /// joins the first ones late (its idle virtual CPU must be woken first: worker CPU of 30 us
  /// in a 500 us build against 400 us once it is in step), which is not what splitting costs.
  var settling = 2
  /// Samples of each way taken before the estimates decide (a probe records three).
  var warmup = 3

  private(set) var serial = Estimate()
  private(set) var split = Estimate()
  /// Whether the estimates, at the last sample, favour splitting.
  private(set) var prefersSplit = true
  private var decisions = 0
  private var probeLeft = 0
  private var last = true
  private var unrecorded = 0

  /// Whether the next build that could split does.
  mutating func decide() -> Bool {
    let way = _decide()
    if way != last { unrecorded = settling + 1 }
    if unrecorded > 0 { unrecorded -= 1 }
    last = way
    return way
  }

  private mutating func _decide() -> Bool {
    decisions &+= 1
    // Split until the first probes have measured one thread (what a two-thread builder is
    // for; a short run never pays for learning).
    if split.samples < warmup { return true }
    if probeLeft > 0 {
      probeLeft -= 1
      return !prefersSplit
    }
    // A split taken because one thread is late for the frame is probed a fraction as often:
    // each probe there is a run of late frames (75 ms against 58 at a million particles).
    let late = prefersSplit && serial.wall > latencyBound
    if decisions % (late ? probeInterval * lateProbeFactor : probeInterval) == 0 {
      probeLeft = probeLength - 1
      return !prefersSplit
    }
    return prefersSplit
  }

  /// Records what a build that could split cost: its wall time and the CPU time of every
  /// thread that worked for it, in nanoseconds.
  mutating func record(split didSplit: Bool, wall: Double, cpu: Double) {
    guard wall > 0, cpu.isFinite, wall.isFinite else { return }
    // (Recorded after the decision it follows: `unrecorded` counts that build too.)
    if unrecorded > 0 { return }
    if didSplit {
      split.add(wall: wall, cpu: Swift.max(cpu, wall))
    } else {
      serial.add(wall: wall, cpu: Swift.max(cpu, wall))
    }
    if split.samples >= warmup && serial.samples >= warmup {
      let saving = prefersSplit ? minimumSaving / 2 : minimumSaving
      let budget = prefersSplit ? cpuBudget + hysteresis : cpuBudget
      prefersSplit =
        split.wall <= (1 - saving) * serial.wall
        && (serial.wall > latencyBound || split.cpu <= budget * serial.cpu)
    }
  }
}
