import JSON

/// Two results files compared on every metric the base declares (`hitbench compare`): each
/// result of the base matched with the new one of the same configuration, each metric judged
/// against its threshold and, for a time, against the noise both sides measured, so a change
/// smaller than that is reported as such and not as a regression. The noise comes from runs
/// and their blocks of frames, never from frames taken as independent samples (frames of one
/// run share the host's state):
///
/// - a mean with blocks by new / base from `RunRatios` (each side's runs drawn, then their
///   blocks); where a configuration holds at least three strategies, relative to the run as a
///   whole (the median strategy's ratio), which takes out the slow or fast stretch of the host a
///   run met, so that one strategy's change shows against the others measured beside it (a
///   change common to all is the run's ratio, printed, and is judged by instructions);
/// - a p99 by its two 95% intervals (`frameNsP99Low`, `frameNsP99High`), which must not overlap;
/// - a file without blocks (one block) by the frames' spread.
///
/// The intervals hold at a family-wise level: a comparison judges many means and p99s, and at
/// 95% each, one in twenty would cross by chance. Each is at Bonferroni's level for
/// `familyLevel` over all of them, from Student's t with its blocks' degrees of freedom, and a
/// side of one run adds a process's own spread (`RunSpread.process`), so one comparison of two
/// runs of the same binary reports no false regression 95% of the time. Nothing is dropped: a result missing from the
/// new file, or a metric missing from a result, is named.
public struct ResultComparison: Sendable {
  /// One metric of one matched result.
  public struct Row: Sendable {
    public var key: ResultsFile.Key
    public var metric: Metric
    public var base: Double
    public var new: Double
    public var verdict: Verdict
    /// The interval the verdict read: of new / base, or relative to the run (`againstRun`),
    /// at the comparison's family-wise level (a mean with blocks), or of the two sides' 95%
    /// intervals' ratio ends (a p99: new low / base high to new high / base low).
    public var ratioInterval: Interval?
    /// Whether the mean was judged relative to the run as a whole (`RunRatios`).
    public var againstRun = false
    /// The run as a whole, new / base (the median strategy's), where judged against it.
    public var runRatio: Double?
    /// What `ratioInterval` is, as printed: "new/base 95%", "vs run 99.94%".
    public var intervalLabel = ""
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

  /// The chance that a comparison of two runs of one binary reports any mean as changed.
  public static let familyLevel = 0.05

  /// The confidence of each interval judged by `RunRatios`, means and p99s alike
  /// (`1 - familyLevel / their number`).
  public private(set) var judgedLevel = 0.95

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
    let judged = Self._runRatios(base: base, new: newByKey, metrics: metrics)
    let judgedCount = judged.values.reduce(0) { $0 + $1.count }
    judgedLevel = 1 - Self.familyLevel / Double(Swift.max(judgedCount, 1))
    let level = Self.percent(judgedLevel)
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
        var row = Row(key: b.key, metric: metric, base: x, new: y, verdict: .same, ratioInterval: nil)
        // The value the verdict weighs against the threshold: new, or with the run's own
        // stretch of the host taken out, base times the strategy's ratio relative to the run.
        var judgedNew = y
        let slower: Bool
        let faster: Bool
        if let j = judged[b.key]?[metric] {
          let interval = j.estimate.interval(twoSided: 1 - judgedLevel)
          row.ratioInterval = interval
          row.againstRun = j.host != nil
          row.runRatio = j.host?.ratio
          row.intervalLabel = (j.host != nil ? "vs run " : "new/base ") + level
          if j.host != nil { judgedNew = x * j.estimate.ratio }
          (slower, faster) = (interval.low > 1, interval.high < 1)
        } else {
          // Without the frames of every block (a p99 of a long run's thinned series, a file of
          // one block): the sides' intervals or the frames' spread, with the run as a whole
          // (its means' median ratio) taken out of a time where it is known. Counts
          // (instructions, allocations) do not move with the host.
          let host = judged[b.key]?[.frameNsMean]?.host?.ratio ?? judged[b.key]?[.hitTestNsMean]?.host?.ratio
          let run = metric.isTime ? host ?? 1 : 1
          judgedNew = y / run
          row.againstRun = run != 1
          row.runRatio = run != 1 ? run : nil
          if let interval = Self.p99RatioInterval(metric, b.value, n) {
            row.ratioInterval = Interval(low: interval.low / run, high: interval.high / run)
            row.intervalLabel = (run != 1 ? "vs run " : "new/base ") + "95%"
            (slower, faster) = (row.ratioInterval!.low > 1, row.ratioInterval!.high < 1)
          } else {
            // Slower or faster beyond the frames' spread.
            let noise = Self.noise(metric, b.value, n, alpha: 1 - judgedLevel)
            (slower, faster) = (judgedNew - x > noise, x - judgedNew > noise)
          }
        }
        if t.isRegression(base: x, new: judgedNew) {
          row.verdict = slower ? .regression : .withinNoise
        } else if metric.isTime || metric.isInstructionCount, x - judgedNew > x * t.relative + t.absolute, faster {
          row.verdict = .faster
        }
        rows.append(row)
      }
    }
  }

  /// A mean's estimate for a verdict: the strategy's ratio, relative to the run where `host`.
  struct _Judged {
    var estimate: RunRatios.Estimate
    var host: RunRatios.Estimate?
  }

  /// Every mean with blocks on both sides (`Measurement.Block.key`), per result and metric:
  /// each configuration's strategies estimated together (`RunRatios`), since they shared their
  /// runs' stretches of the host.
  static func _runRatios(base: ResultsFile, new: [ResultsFile.Key: JSONValue], metrics: [Metric]) -> [ResultsFile.Key:
    [Metric: _Judged]]
  {
    var out: [ResultsFile.Key: [Metric: _Judged]] = [:]
    var groups: [[String]: [ResultsFile.Result]] = [:]
    var order: [[String]] = []
    for r in base.results where new[r.key] != nil {
      let g = r.key.configurationFields
      if groups[g] == nil { order.append(g) }
      groups[g, default: []].append(r)
    }
    // Every strategy on a side over the same runs (a file without tags is one run).
    func aligned<B>(_ runs: [[[B]]]) -> [[[B]]] {
      let count = runs.map(\.count).max() ?? 0
      return runs.map { $0 + Array(repeating: [], count: count - $0.count) }
    }
    for metric in metrics {
      let blockKey = Measurement.Block.key(of: metric)
      guard blockKey != nil || metric == .frameNsP99 else { continue }
      for g in order {
        let members = groups[g]!
        let e: RunRatios.Estimates
        if let blockKey {
          e = RunRatios.estimate(
            base: aligned(members.map { _runs($0.value, blockKey) }),
            new: aligned(members.map { _runs(new[$0.key]!, blockKey) }), processSpread: RunSpread.process,
            statistic: RunRatios.mean)
        } else {
          // A p99 from the frames of each block, where both sides kept every frame.
          let b = members.map { _runFrames($0.value) }
          let n = members.map { _runFrames(new[$0.key]!) }
          guard b.allSatisfy({ $0 != nil }), n.allSatisfy({ $0 != nil }) else { continue }
          e = RunRatios.estimate(
            base: aligned(b.map { $0! }), new: aligned(n.map { $0! }), processSpread: RunSpread.process,
            statistic: RunRatios.quantile(0.99))
        }
        for (i, r) in members.enumerated() {
          if let relative = e.relative[i], let host = e.host {
            out[r.key, default: [:]][metric] = _Judged(estimate: relative, host: host)
          } else if let absolute = e.absolute[i] {
            out[r.key, default: [:]][metric] = _Judged(estimate: absolute, host: nil)
          }
        }
      }
    }
    return out
  }

  /// A result's frames (its `series` kept with stride 1) in its blocks, by run; nil when the
  /// series was thinned or does not cover the blocks.
  static func _runFrames(_ r: JSONValue) -> [[ArraySlice<Double>]]? {
    guard case .number(1)? = r["series"]?["stride"], case .array(let list)? = r["series"]?["frameNs"],
      case .array(let blocks)? = r["blocks"]
    else { return nil }
    let frames = list.compactMap { if case .number(let d) = $0 { d } else { nil } }
    guard frames.count == list.count else { return nil }
    // The series is the runs' frames one run after another; a block's first frame counts from
    // its run's first.
    var spans: [(run: Int, first: Int, count: Int)] = []
    var runFrames: [Int] = []
    for b in blocks {
      guard case .number(let f)? = b["firstFrame"], case .number(let c)? = b["frames"], f >= 0, c >= 1,
        f.rounded() == f, c.rounded() == c, f + c <= Double(frames.count)
      else { return nil }
      let run = _run(of: b, blocks: blocks.count)
      while runFrames.count <= run { runFrames.append(0) }
      runFrames[run] += Int(c)
      spans.append((run, Int(f), Int(c)))
    }
    guard runFrames.reduce(0, +) == frames.count else { return nil }
    var offsets = [0]
    for c in runFrames { offsets.append(offsets.last! + c) }
    var runs = [[ArraySlice<Double>]](repeating: [], count: runFrames.count)
    for s in spans {
      guard s.first + s.count <= runFrames[s.run] else { return nil }
      let start = offsets[s.run] + s.first
      runs[s.run].append(frames[start..<(start + s.count)])
    }
    return runs
  }

  /// A block's run in a pooled file (its `run` tag; 0 without one). A tag is read only below
  /// the result's block count, since each run holds blocks: a larger one would have the
  /// bootstrap draw a million empty runs.
  static func _run(of block: JSONValue, blocks: Int) -> Int {
    guard case .number(let k)? = block["run"], k >= 0, k < Double(blocks), k.rounded() == k else { return 0 }
    return Int(k)
  }

  /// A result's blocks of one mean by run (`run` tags of a pooled file; else one run).
  static func _runs(_ r: JSONValue, _ key: String) -> [[RunRatios.Block]] {
    guard case .array(let list)? = r["blocks"] else { return [] }
    var runs: [[RunRatios.Block]] = []
    for b in list {
      guard case .number(let m)? = b[key], case .number(let f)? = b["frames"], f >= 1, f.rounded() == f else {
        continue
      }
      let run = _run(of: b, blocks: list.count)
      while runs.count <= run { runs.append([]) }
      runs[run].append((m, Int(f)))
    }
    return runs
  }

  /// A confidence as a percentage with the decimals that show how far it is from 100% ("95%",
  /// "97.5%", "99.943%"), rounded down.
  public static func percent(_ level: Double) -> String {
    let p = level * 100
    var digits = 0
    var scale = 1.0
    // Two significant digits of the distance from 100%.
    while digits < 6 && (100 - p) * scale < 10 {
      digits += 1
      scale *= 10
    }
    let v = (p * scale).rounded(.down) / scale
    return (v == v.rounded() ? String(Int(v)) : String(v)) + "%"
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

  /// The 95% interval of new / base for a p99 from both results' p99 intervals; nil for
  /// another metric or when either side lacks one (fewer than two blocks, an older file). (A
  /// mean with blocks on both sides is judged by `RunRatios`, which needs as many blocks.)
  static func p99RatioInterval(_ metric: Metric, _ base: JSONValue, _ new: JSONValue) -> Interval? {
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

  /// How much of a difference in allocations per frame the blocks' spread explains: Student's
  /// t (two-sided `alpha`) times the standard error of the difference of the two sides' block
  /// means. 0 where every block allocates alike (the project's strategies: none), so any
  /// allocation is judged; a peer that allocates in the frames its re-index lands in moves
  /// from block to block, and from run to run with the host. Nil without two blocks a side
  /// that carry the count (an older file), where the count is judged as it stands.
  static func allocationNoise(_ a: JSONValue, _ b: JSONValue, alpha: Double) -> Double? {
    func blockMeans(_ r: JSONValue) -> [Double]? {
      guard case .array(let list)? = r["blocks"] else { return nil }
      let v = list.compactMap { block -> Double? in
        if case .number(let x)? = block["allocationsPerFrame"], x.isFinite { x } else { nil }
      }
      return v.count >= 2 && v.count == list.count ? v : nil
    }
    guard let x = blockMeans(a), let y = blockMeans(b) else { return nil }
    func squaredError(_ v: [Double]) -> Double {
      let s = Summary(v).stddev
      return s * s / Double(v.count)
    }
    return RunRatios.t(twoSided: alpha, freedom: x.count + y.count - 2)
      * (squaredError(x) + squaredError(y)).squareRoot()
  }

  /// How much of a difference between two results the frames' spread explains: for a mean,
  /// `significance` standard errors of the difference (from each side's standard deviation and
  /// frame count); for another statistic of a time, `significance` times the larger MAD over
  /// the square root of the frames (the MAD is about 0.67 sigma); for allocations per frame,
  /// their blocks' spread at two-sided `alpha` (`allocationNoise`); 0 for another count.
  static func noise(_ metric: Metric, _ a: JSONValue, _ b: JSONValue, alpha: Double) -> Double {
    if metric == .allocationsPerFrame { return allocationNoise(a, b, alpha: alpha) ?? 0 }
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
