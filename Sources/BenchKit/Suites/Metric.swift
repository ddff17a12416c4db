/// A number a result reports, by its JSON name: what targets test and what `hitbench compare`
/// checks. A suite declares which metrics `compare` checks and how much each may grow
/// (`Suite.thresholds`), as package-benchmark declares thresholds per benchmark.
public enum Metric: String, CaseIterable, Sendable, Hashable {
  case frameNsMedian, frameNsP90, frameNsMean, hitTestNsMedian, presentationNsMedian, updateNsMedian, queriesNsMedian
  case nsPerQuery, allocationsPerFrame, testedPerQuery, indexBytes
  /// The presentation build's median divided by the layer count (derived, not in the JSON).
  case presentationNsPerLayer

  /// The path in a result's JSON: `frameNs.median`, `allocationsPerFrame`...
  public var jsonPath: [String] {
    switch self {
    case .frameNsMedian: ["frameNs", "median"]
    case .frameNsP90: ["frameNs", "p90"]
    case .frameNsMean: ["frameNs", "mean"]
    case .hitTestNsMedian: ["hitTestNs", "median"]
    case .presentationNsMedian: ["presentationNs", "median"]
    case .updateNsMedian: ["updateNs", "median"]
    case .queriesNsMedian: ["queriesNs", "median"]
    case .nsPerQuery: ["nsPerQuery"]
    case .allocationsPerFrame: ["allocationsPerFrame"]
    case .testedPerQuery: ["testedPerQuery"]
    case .indexBytes: ["indexBytes"]
    case .presentationNsPerLayer: ["presentationNs", "median"]
    }
  }

  public func value(_ m: Measurement) -> Double {
    switch self {
    case .frameNsMedian: m.frameNs.median
    case .frameNsP90: m.frameNs.p90
    case .frameNsMean: m.frameNs.mean
    case .hitTestNsMedian: m.hitTestNs.median
    case .presentationNsMedian: m.presentationNs.median
    case .updateNsMedian: m.updateNs.median
    case .queriesNsMedian: m.queriesNs.median
    case .nsPerQuery: m.nsPerQuery
    case .allocationsPerFrame: m.allocationsPerFrame
    case .testedPerQuery: m.testedPerQuery
    case .indexBytes: Double(m.indexBytes)
    case .presentationNsPerLayer: m.presentationNs.median / Double(Swift.max(m.layers, 1))
    }
  }

  /// Whether the metric is a time (a noisy side makes its comparison unreliable).
  public var isTime: Bool { jsonPath.first?.hasSuffix("Ns") == true || self == .nsPerQuery }

  /// The value as a person reads it: times in us (ms above 10,000 us), counts as they are.
  public func format(_ v: Double) -> String {
    if isTime {
      let us = v / 1000
      if self == .nsPerQuery || self == .presentationNsPerLayer { return _fixed(v, 1) + " ns" }
      return us >= 10_000 ? _fixed(us / 1000, 2) + " ms" : _fixed(us, us < 10 ? 2 : 1) + " us"
    }
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

  public func isRegression(base: Double, new: Double) -> Bool {
    new > base * (1 + relative) + absolute
  }
}
