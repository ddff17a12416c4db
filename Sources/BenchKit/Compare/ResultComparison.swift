import JSON

/// Two results files compared on every metric the base declares (`hitbench compare`): each
/// result of the base matched with the new one of the same configuration, each metric judged
/// against its threshold and, for a time, against the noise both runs measured, so a change
/// smaller than that is reported as such and not as a regression. The noise comes from blocks
/// of frames, never from frames taken as independent samples (frames of one run share the
/// host's state): a mean by the 95% bootstrap interval of new / base over both results' blocks
/// (`blocks`), a p99 by its two intervals (`frameNsP99Low`, `frameNsP99High`), which must not
/// overlap. A file without them (one block) falls back to the frames' spread. Nothing is
/// dropped: a result missing from the new file, or a metric missing from a result, is named.
public struct ResultComparison: Sendable {
  /// One metric of one matched result.
  public struct Row: Sendable {
    public var key: ResultsFile.Key
    public var metric: Metric
    public var base: Double
    public var new: Double
    public var verdict: Verdict
    /// The 95% interval of new / base when the blocks gave one (a mean), or of the two sides'
    /// intervals' ratio ends (a p99: new low / base high to new high / base low).
    public var ratioInterval: Interval?
    /// The change relative to the base (infinite from 0 to more).
    public var change: Double { base != 0 ? (new - base) / Swift.abs(base) : (new == 0 ? 0 : .infinity) }
  }

  public enum Verdict: String, Sendable {
    /// Beyond the threshold and beyond the noise: counted.
    case regression = "REGRESSION"
    /// Beyond the threshold but within what the frames' spread explains: not counted.
    case withinNoise = "slower, within noise"
    /// Faster than the base by more than the threshold and the noise.
    case faster
    /// Instructions counted with different windows (a time-aware strategy whose window was
    /// chosen by cost, which follows the host): different work, not compared.
    case windowsDiffer = "not compared: windows differ (pin --window)"
    case same = ""
  }

  public var rows: [Row] = []
  /// Results of the base the new file does not have (a regression: a benchmark disappeared).
  public var missing: [ResultsFile.Key] = []
  /// Results only the new file has (information).
  public var added: [ResultsFile.Key] = []

  public var regressions: Int { rows.filter { $0.verdict == .regression }.count + missing.count }

  /// How many standard errors a mean must move, or how many MADs another statistic, before the
  /// move is more than noise (about 3 sigma for a mean: a false alarm in a few hundred).
  public static let significance = 3.0

  /// Compares every result of `base` with `new`'s, on `base`'s thresholds (`relativeOverride`
  /// replaces every time metric's relative part).
  public init(base: ResultsFile, new: ResultsFile, relativeOverride: Double? = nil) throws(ResultsFile.Problem) {
    var limits = base.thresholds
    if let relativeOverride {
      for (m, t) in limits where m.isTime { limits[m] = Threshold(relative: relativeOverride, absolute: t.absolute) }
    }
    let newByKey = Dictionary(uniqueKeysWithValues: new.results.map { ($0.key, $0.value) })
    let baseKeys = Set(base.results.map(\.key))
    added = new.results.map(\.key).filter { !baseKeys.contains($0) }
    let metrics = Metric.allCases.filter { limits[$0] != nil }
    for b in base.results {
      guard let n = newByKey[b.key] else {
        missing.append(b.key)
        continue
      }
      for metric in metrics {
        let t = limits[metric]!
        // Instructions are compared where both runs counted them (`--instructions`).
        if metric.isInstructionCount && (Self.value(b.value, metric) == nil || Self.value(n, metric) == nil) {
          continue
        }
        guard let x = Self.value(b.value, metric), let y = Self.value(n, metric) else {
          let side = Self.value(b.value, metric) == nil ? "base" : "new"
          throw ResultsFile.Problem(
            description:
              "\(b.key): the \(side) result has no \(metric.jsonPath.joined(separator: ".")), which the thresholds name"
          )
        }
        if metric.isInstructionCount && !Self.sameWindow(b.value, n) {
          rows.append(Row(key: b.key, metric: metric, base: x, new: y, verdict: .windowsDiffer, ratioInterval: nil))
          continue
        }
        let interval = Self.ratioInterval(metric, b.value, n)
        // Slower or faster beyond the noise: the whole interval of new / base above 1 (or
        // below), or without one the frames' spread.
        let slower: Bool
        let faster: Bool
        if let interval {
          (slower, faster) = (interval.low > 1, interval.high < 1)
        } else {
          let noise = Self.noise(metric, b.value, n)
          (slower, faster) = (y - x > noise, x - y > noise)
        }
        let verdict: Verdict
        if t.isRegression(base: x, new: y) {
          verdict = slower ? .regression : .withinNoise
        } else if metric.isTime || metric.isInstructionCount, x - y > x * t.relative + t.absolute, faster {
          verdict = .faster
        } else {
          verdict = .same
        }
        rows.append(Row(key: b.key, metric: metric, base: x, new: y, verdict: verdict, ratioInterval: interval))
      }
    }
  }

  /// Whether two results' instructions were counted with the same window (within 0.5%).
  static func sameWindow(_ a: JSONValue, _ b: JSONValue) -> Bool {
    let key = Metric.instructionsKey
    guard case .number(let x)? = a[key]?["windowMs"], case .number(let y)? = b[key]?["windowMs"] else { return true }
    return Swift.abs(x - y) <= 0.005 * Swift.max(x, y)
  }

  /// A metric's value in a result document.
  static func value(_ r: JSONValue, _ metric: Metric) -> Double? {
    var cur: JSONValue? = r
    for k in metric.jsonPath { cur = cur?[k] }
    guard case .number(let d)? = cur else { return nil }
    return metric.isPerLayer ? Self.perLayer(d, r) : d
  }

  static func perLayer(_ d: Double, _ r: JSONValue) -> Double? {
    guard case .number(let layers)? = r["layers"] else { return nil }
    return d / Swift.max(layers, 1)
  }

  /// The 95% interval of new / base for a metric from what both results carry: their blocks'
  /// means (a mean with a block key, `Measurement.Block.key`), or their p99 intervals; nil
  /// when either side lacks them (fewer than two blocks, an older file).
  static func ratioInterval(_ metric: Metric, _ base: JSONValue, _ new: JSONValue) -> Interval? {
    if let key = Measurement.Block.key(of: metric) {
      func blocks(_ r: JSONValue) -> [(mean: Double, frames: Int)] {
        guard case .array(let list)? = r["blocks"] else { return [] }
        return list.compactMap { b in
          guard case .number(let m)? = b[key], case .number(let f)? = b["frames"], f >= 1, f.rounded() == f else {
            return nil
          }
          return (m, Int(f))
        }
      }
      return BlockBootstrap.ratioOfMeans(blocks(new), blocks(base))
    }
    guard metric == .frameNsP99 else { return nil }
    let keys = Measurement.intervalKeys(metric)
    func ends(_ r: JSONValue) -> (Double, Double)? {
      guard case .number(let low)? = r[keys.low], case .number(let high)? = r[keys.high], low > 0,
        low <= high
      else { return nil }
      return (low, high)
    }
    guard let (bl, bh) = ends(base), let (nl, nh) = ends(new) else { return nil }
    return Interval(low: nl / bh, high: nh / bl)
  }

  /// How much of a difference between two results the frames' spread explains: for a mean,
  /// `significance` standard errors of the difference (from each side's standard deviation and
  /// frame count); for another statistic of a time, `significance` times the larger MAD over
  /// the square root of the frames (the MAD is about 0.67 sigma); 0 for a count.
  static func noise(_ metric: Metric, _ a: JSONValue, _ b: JSONValue) -> Double {
    guard let statistic = metric.statistic, let summary = metric.jsonPath.first else { return 0 }
    func number(_ r: JSONValue, _ key: String) -> Double {
      if case .number(let d)? = r[summary]?[key] { return d }
      return 0
    }
    let na = Swift.max(number(a, "count"), 1)
    let nb = Swift.max(number(b, "count"), 1)
    let scale = metric.isPerLayer ? (perLayer(1, a) ?? 1) : 1
    if statistic == "mean" {
      let sa = number(a, "stddev")
      let sb = number(b, "stddev")
      return significance * (sa * sa / na + sb * sb / nb).squareRoot() * scale
    }
    let sigma = Swift.max(number(a, "mad"), number(b, "mad")) / 0.6745
    // A tail statistic (p99, max) rests on few frames: its error shrinks slower than the mean's.
    let frames = statistic == "p99" || statistic == "max" ? Swift.min(na, nb) * 0.01 : Swift.min(na, nb)
    return significance * sigma / Swift.max(frames, 1).squareRoot() * scale
  }
}
