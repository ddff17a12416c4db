/// A number a result reports, by its JSON name: what targets test and what `hitbench compare`
/// checks. A suite declares which metrics `compare` checks and how much each may grow
/// (`Suite.thresholds`), as package-benchmark declares thresholds per benchmark. Frames are
/// judged by their mean (throughput) and p99 (smoothness); the medians are here to inform.
public enum Metric: String, CaseIterable, Sendable, Hashable {
  case frameNsMean, frameNsP99, frameNsMax, frameNsMedian, frameNsP90
  case hitTestNsMean, hitTestNsMedian, presentationNsMean, presentationNsMedian, updateNsMean, updateNsMedian
  case queriesNsMean, queriesNsMedian, cpuNsMean
  case nsPerQuery, nsPerCandidate, allocationsPerFrame, framesOverBudget, testedPerQuery, indexBytes, windowsHeld
  /// Measured frames whose update waited for background work (a windowed strategy's next
  /// window), and frames answered from a window past its hand-over instead (counts).
  case waitedFrames, lateFrames
  /// The presentation build's mean divided by the layer count (derived, not in the JSON).
  case presentationNsPerLayer
  /// The process's peak resident memory divided by the layer count (derived): a strategy's own
  /// only in a run of that strategy alone in its process (`scripts/memory.sh`, suite `memory`).
  case peakResidentBytesPerLayer
  /// Instructions per measured frame (build + update + queries) and per background window
  /// build, when the run counted them (`--instructions`; JSON `instructions`).
  case instructionsPerFrame, instructionsPerBackgroundBuild

  /// The JSON key of a result's instruction counts.
  public static let instructionsKey = "instructions"

  /// Whether the metric is an instruction count: present only in a run that counted them, and
  /// free of the host's noise.
  public var isInstructionCount: Bool { jsonPath.first == Self.instructionsKey }

  /// The path in a result's JSON: `frameNs.mean`, `allocationsPerFrame`...
  public var jsonPath: [String] {
    switch self {
    case .frameNsMean: ["frameNs", "mean"]
    case .frameNsP99: ["frameNs", "p99"]
    case .frameNsMax: ["frameNs", "max"]
    case .frameNsMedian: ["frameNs", "median"]
    case .frameNsP90: ["frameNs", "p90"]
    case .hitTestNsMean: ["hitTestNs", "mean"]
    case .hitTestNsMedian: ["hitTestNs", "median"]
    case .presentationNsMean, .presentationNsPerLayer: ["presentationNs", "mean"]
    case .presentationNsMedian: ["presentationNs", "median"]
    case .updateNsMean: ["updateNs", "mean"]
    case .updateNsMedian: ["updateNs", "median"]
    case .queriesNsMean: ["queriesNs", "mean"]
    case .queriesNsMedian: ["queriesNs", "median"]
    case .cpuNsMean: ["cpuNs", "mean"]
    case .nsPerQuery: ["nsPerQuery"]
    case .nsPerCandidate: ["nsPerCandidate"]
    case .allocationsPerFrame: ["allocationsPerFrame"]
    case .framesOverBudget: ["framesOverBudget"]
    case .testedPerQuery: ["testedPerQuery"]
    case .indexBytes: ["indexBytes"]
    case .peakResidentBytesPerLayer: ["peakResidentBytes"]
    case .windowsHeld: ["windowsHeld"]
    case .waitedFrames: ["waitedFrames"]
    case .lateFrames: ["lateFrames"]
    case .instructionsPerFrame: [Self.instructionsKey, "framePerFrame"]
    case .instructionsPerBackgroundBuild: [Self.instructionsKey, "perBackgroundBuild"]
    }
  }

  public func value(_ m: Measurement) -> Double {
    switch self {
    case .frameNsMean: m.frameNs.mean
    case .frameNsP99: m.frameNs.p99
    case .frameNsMax: m.frameNs.max
    case .frameNsMedian: m.frameNs.median
    case .frameNsP90: m.frameNs.p90
    case .hitTestNsMean: m.hitTestNs.mean
    case .hitTestNsMedian: m.hitTestNs.median
    case .presentationNsMean: m.presentationNs.mean
    case .presentationNsMedian: m.presentationNs.median
    case .updateNsMean: m.updateNs.mean
    case .updateNsMedian: m.updateNs.median
    case .queriesNsMean: m.queriesNs.mean
    case .queriesNsMedian: m.queriesNs.median
    case .cpuNsMean: m.cpuNs.mean
    case .nsPerQuery: m.nsPerQuery
    case .nsPerCandidate: m.nsPerCandidate
    case .allocationsPerFrame: m.allocationsPerFrame
    case .framesOverBudget: Double(m.framesOverBudget)
    case .testedPerQuery: m.testedPerQuery
    case .indexBytes: Double(m.indexBytes)
    case .windowsHeld: m.windowsHeld
    case .waitedFrames: Double(m.waitedFrames)
    case .lateFrames: Double(m.lateFrames)
    case .presentationNsPerLayer: m.presentationNs.mean / Double(Swift.max(m.layers, 1))
    case .peakResidentBytesPerLayer: Double(m.peakResidentBytes) / Double(Swift.max(m.layers, 1))
    case .instructionsPerFrame: m.instructions?.framePerFrame ?? 0
    case .instructionsPerBackgroundBuild: m.instructions?.perBackgroundBuild ?? 0
    }
  }

  /// What a frame contributes to the metric and the statistic over frames that gives it (nil
  /// for a metric that is not a statistic of frames: a count, a per-query cost).
  var _perFrame: (value: (FrameTiming) -> Double, statistic: ([Double]) -> Double)? {
    let mean: ([Double]) -> Double = BlockBootstrap.mean
    switch self {
    case .frameNsMean: return ({ Double($0.frameNs) }, mean)
    case .frameNsP99: return ({ Double($0.frameNs) }, BlockBootstrap.quantile(0.99))
    case .frameNsMax: return ({ Double($0.frameNs) }, { $0.max() ?? 0 })
    case .frameNsMedian: return ({ Double($0.frameNs) }, BlockBootstrap.quantile(0.5))
    case .frameNsP90: return ({ Double($0.frameNs) }, BlockBootstrap.quantile(0.9))
    case .hitTestNsMean: return ({ Double($0.hitTestNs) }, mean)
    case .hitTestNsMedian: return ({ Double($0.hitTestNs) }, BlockBootstrap.quantile(0.5))
    case .presentationNsMean: return ({ Double($0.presentationNs) }, mean)
    case .presentationNsMedian: return ({ Double($0.presentationNs) }, BlockBootstrap.quantile(0.5))
    case .updateNsMean: return ({ Double($0.updateNs) }, mean)
    case .updateNsMedian: return ({ Double($0.updateNs) }, BlockBootstrap.quantile(0.5))
    case .queriesNsMean: return ({ Double($0.queriesNs) }, mean)
    case .queriesNsMedian: return ({ Double($0.queriesNs) }, BlockBootstrap.quantile(0.5))
    case .cpuNsMean: return ({ Double($0.cpuNs) }, mean)
    case .presentationNsPerLayer: return ({ Double($0.presentationNs) }, mean)
    default: return nil
    }
  }

  /// The 95% interval of a result's value, bootstrapped over its frames in blocks of
  /// `Runner.blockFrames` (`BlockBootstrap`); nil for a metric that is not a statistic of
  /// frames, or a run of fewer than two blocks. `presentationNsPerLayer` is per layer.
  public func interval(_ m: Measurement) -> Interval? {
    guard let (perFrame, statistic) = _perFrame else { return nil }
    guard
      var i = BlockBootstrap.interval(m.frameTimings.map(perFrame), length: Runner.blockFrames, statistic: statistic)
    else { return nil }
    if self == .presentationNsPerLayer {
      let n = Double(Swift.max(m.layers, 1))
      (i.low, i.high) = (i.low / n, i.high / n)
    }
    return i
  }

  /// The 95% interval of `slow`'s value over `fast`'s (a speedup), bootstrapped over both
  /// results' blocks (paired when they ran as many); nil as for `interval`.
  public func ratioInterval(_ slow: Measurement, over fast: Measurement) -> Interval? {
    guard let (perFrame, statistic) = _perFrame, self != .presentationNsPerLayer || slow.layers == fast.layers else {
      return nil
    }
    return BlockBootstrap.ratio(
      slow.frameTimings.map(perFrame), fast.frameTimings.map(perFrame), length: Runner.blockFrames,
      statistic: statistic)
  }

  /// The 95% interval of this metric over `reference` within one result (p99 over mean: how
  /// smooth its frames are); nil as for `interval`.
  public func ratioInterval(_ m: Measurement, to reference: Metric) -> Interval? {
    guard let (a, sa) = _perFrame, let (b, sb) = reference._perFrame else { return nil }
    return BlockBootstrap.ratio(
      m.frameTimings.map(a), m.frameTimings.map(b), length: Runner.blockFrames, statistic: sa, of: sb)
  }

  /// Whether a result measured the metric: a cost per candidate is measured only by a strategy
  /// that evaluates candidates lazily, and reads 0 where its two timings could not tell one
  /// (`TimedFrames.candidateCostPairs`); every other metric always.
  public func wasMeasured(_ m: Measurement) -> Bool { self != .nsPerCandidate || m.nsPerCandidate > 0 }

  /// Whether the metric is its JSON number divided by the result's layer count.
  public var isPerLayer: Bool { self == .presentationNsPerLayer || self == .peakResidentBytesPerLayer }

  /// Whether the metric is a time.
  public var isTime: Bool { jsonPath.first?.hasSuffix("Ns") == true || self == .nsPerQuery || self == .nsPerCandidate }

  /// The summary statistic a time reads (`mean`, `p99`...), nil for a plain number.
  public var statistic: String? { jsonPath.count == 2 && !isInstructionCount ? jsonPath[1] : nil }

  /// Whether the metric is the wall time of the end-to-end frame (a verdict on it also states
  /// the CPU the frame cost: `describe`).
  public var isWallFrame: Bool { self == .frameNsMean || self == .frameNsP99 || self == .frameNsMedian }

  /// A result's value as a verdict states it: formatted, and for a wall frame with the CPU per
  /// frame beside it ("1.2 ms, CPU 1.9 ms"), so that a ranking by wall time shows what each
  /// frame cost both cores.
  public func describe(_ m: Measurement) -> String {
    isWallFrame ? "\(format(value(m))), CPU \(Metric.cpuNsMean.format(m.cpuNs.mean))" : format(value(m))
  }

  /// The value as a person reads it: times in us (ms above 10,000 us), counts as they are.
  public func format(_ v: Double) -> String {
    if isTime {
      if self == .nsPerQuery || self == .nsPerCandidate || self == .presentationNsPerLayer {
        return _fixed(v, 1) + " ns"
      }
      let us = v / 1000
      return us >= 10_000 ? _fixed(us / 1000, 2) + " ms" : _fixed(us, us < 10 ? 2 : 1) + " us"
    }
    if isInstructionCount { return formatCount(v) }
    if self == .peakResidentBytesPerLayer { return formatCount(v.rounded()) + " bytes a layer" }
    return _fixed(v, v.rounded() == v ? 0 : 3)
  }
}

/// How much a metric may change between a base and a new result before `compare` calls it a
/// regression: a relative growth, plus an absolute allowance (so 0 -> 0.001 allocations per
/// frame is not an infinite percentage).
public struct Threshold: Sendable, Hashable {
  public var relative: Double
  public var absolute: Double

  public init(relative: Double, absolute: Double = 0) {
    self.relative = relative
    self.absolute = absolute
  }

  public static func percent(_ p: Double) -> Threshold { Threshold(relative: p / 100) }
  /// Any growth beyond `allowance` (for counts that must stay at a value, such as 0 allocations).
  public static func exactly(allowance: Double = 0) -> Threshold { Threshold(relative: 0, absolute: allowance) }

  /// The largest relative growth a threshold may declare (a tenfold slowdown would pass
  /// anything larger): `compare` refuses a file that declares more.
  public static let largestRelative = 10.0

  /// What is wrong with this threshold, or nil: both parts finite and non-negative, the
  /// relative part at most `largestRelative`.
  public var problem: String? {
    guard relative.isFinite, relative >= 0, relative <= Self.largestRelative else {
      return "relative growth \(relative) is not a number from 0 to \(Self.largestRelative)"
    }
    guard absolute.isFinite, absolute >= 0 else { return "absolute allowance \(absolute) is not a non-negative number" }
    return nil
  }

  public func isRegression(base: Double, new: Double) -> Bool {
    new > base * (1 + relative) + absolute
  }
}
