import Foundation

/// A claim a suite checks about its own results ("the grid's frame is at least 10x
/// tree-walk's on app 10k at Q = 1000"), declared next to the suite's runs as
/// package-benchmark keeps thresholds with each benchmark. `hitbench run --suite` evaluates every
/// target after the runs and writes the verdicts into the report (JSON `targets`), so RESULTS.md
/// never types a verdict: it prints these. A target whose results are missing (a strategy not
/// run, a size skipped) says so instead of passing.
public struct Target: Sendable {
  public var name: String
  public var evaluate: @Sendable ([Measurement]) -> TargetVerdict

  public init(_ name: String, _ evaluate: @escaping @Sendable ([Measurement]) -> TargetVerdict) {
    self.name = name
    self.evaluate = evaluate
  }
}

/// A target's outcome: what was measured (one line, numbers included) and whether it holds.
public struct TargetVerdict: Sendable, Equatable {
  /// `met` when the whole 95% interval of what was measured meets the target (or, for a
  /// number with no interval, the number does), `notMet` when the whole interval misses it,
  /// `undecided` when the interval straddles it: the run cannot tell, and a longer run decides.
  public enum Status: String, Sendable, CaseIterable {
    case met, notMet = "not met", undecided, notMeasured = "not measured"
  }
  public var status: Status
  public var measured: String

  public init(_ status: Status, _ measured: String) {
    self.status = status
    self.measured = measured
  }

  public static func check(_ holds: Bool, _ measured: String) -> TargetVerdict {
    TargetVerdict(holds ? .met : .notMet, measured)
  }

  public static func missing(_ what: String) -> TargetVerdict { TargetVerdict(.notMeasured, "no result for \(what)") }

  /// The status of a value against a target it meets when `meets(value)`: by its interval when
  /// it has one (both ends meet it: met; neither: not met; else undecided), by itself otherwise.
  /// `meets` must be monotonic (a bound), so the interval's ends decide for all within.
  public static func status(_ value: Double, _ interval: Interval?, meets: (Double) -> Bool) -> Status {
    guard let interval else { return meets(value) ? .met : .notMet }
    let (low, high) = (meets(interval.low), meets(interval.high))
    return low && high ? .met : (!low && !high ? .notMet : .undecided)
  }

  /// The status of several results judged together: not met when one misses, else undecided
  /// when one is, else met.
  public static func all(_ statuses: [Status]) -> Status {
    statuses.contains(.notMet) ? .notMet : (statuses.contains(.undecided) ? .undecided : .met)
  }
}

/// An interval as a verdict states it, after the value (" [95% 1.8x-2.3x across runs]"): a
/// target's interval is the run's own widened by what one run cannot see of the next
/// (`RunSpread.acrossRuns`).
func _formatInterval(_ i: Interval?, _ format: (Double) -> String) -> String {
  guard let i else { return "" }
  switch (i.low > 0, i.high.isFinite) {
  case (true, true): return " [95% \(format(i.low))-\(format(i.high)) across runs]"
  case (false, true): return " [95% at most \(format(i.high)) across runs]"
  case (true, false): return " [95% at least \(format(i.low)) across runs]"
  case (false, false): return " [95% any across runs]"
  }
}

/// What a verdict says of results whose times were the busy host's (`HostLoad`).
func _busyNote(_ results: [Measurement]) -> String {
  let busiest = results.compactMap { $0.hostWasBusy ? $0.hostOtherCores : nil }.max()
  guard let busiest else { return "" }
  return "; the host ran \(_fixed(busiest, 1)) cores of other work meanwhile: a quiet host may be faster"
}

extension Metric {
  /// How a verdict on this metric's value against a fixed limit is exposed to the spread
  /// between runs: a time moves with the host, a count does not.
  var _absoluteExposure: RunSpread.Exposure { isTime ? .absolute : .none }

  /// How a ratio of this metric between two results is exposed: only their own processes'
  /// spreads when they took turns, the host's too when they ran at different moments.
  func _ratioExposure(_ a: Measurement, _ b: Measurement) -> RunSpread.Exposure {
    guard isTime else { return .none }
    return a.tookTurns(with: b) ? .sameTurns : .separateTurns
  }

  /// A result's 95% interval of this metric across runs: for a time measured while the host
  /// was busy with other work, anything faster too (a quiet host may be faster by any factor).
  func _acrossRuns(_ m: Measurement) -> Interval? {
    RunSpread.acrossRuns(value(m), interval(m), _absoluteExposure).map {
      isTime && m.hostWasBusy ? Interval(low: 0, high: $0.high) : $0
    }
  }

  /// A result's value of this metric over its own `reference` (p99 over mean, CPU over wall),
  /// and that ratio's 95% interval across runs: two statistics of one result, which the host's
  /// stretch met alike, so only the process's own spread is added.
  func _ownRatio(to reference: Metric) -> (
    ratio: @Sendable (Measurement) -> Double, interval: @Sendable (Measurement) -> Interval?
  ) {
    let exposure: RunSpread.Exposure = isTime && reference.isTime ? .withinResult : .none
    let ratio: @Sendable (Measurement) -> Double = { value($0) / Swift.max(reference.value($0), 1e-9) }
    return (ratio, { RunSpread.acrossRuns(ratio($0), ratioInterval($0, to: reference), exposure) })
  }

  /// The 95% interval across runs of `slow`'s value over `fast`'s; where they did not take
  /// turns and one side's times were the busy host's, unbounded on that side's end.
  func _ratioAcrossRuns(_ slow: Measurement, over fast: Measurement) -> Interval? {
    let ratio = value(slow) / Swift.max(value(fast), 1e-9)
    let exposure = _ratioExposure(slow, fast)
    return RunSpread.acrossRuns(ratio, ratioInterval(slow, over: fast), exposure).map {
      guard exposure == .separateTurns else { return $0 }
      return Interval(low: slow.hostWasBusy ? 0 : $0.low, high: fast.hostWasBusy ? .infinity : $0.high)
    }
  }
}

/// Picks results out of a run: by scene, size, Q, workload, animated fraction, strategy name
/// or family. The building block of targets.
public struct ResultQuery: Sendable {
  public var scene: String?
  public var layers: Int?
  public var queries: Int?
  public var workload: String?
  public var animatedFraction: Double?
  public var strategy: String?
  public var family: String?
  /// Results of every family but this one ("the best own strategy": not a peer).
  public var excludingFamily: String?
  /// Results of every strategy but these.
  public var excludingStrategies: [String]
  public var threads: Int?

  public init(
    scene: String? = nil, layers: Int? = nil, queries: Int? = nil, workload: String? = nil,
    animatedFraction: Double? = nil, strategy: String? = nil, family: String? = nil, excludingFamily: String? = nil,
    excludingStrategies: [String] = [], threads: Int? = nil
  ) {
    self.scene = scene
    self.layers = layers
    self.queries = queries
    self.workload = workload
    self.animatedFraction = animatedFraction
    self.strategy = strategy
    self.family = family
    self.excludingFamily = excludingFamily
    self.excludingStrategies = excludingStrategies
    self.threads = threads
  }

  public func matches(_ m: Measurement) -> Bool {
    (scene == nil || m.scene == scene) && (layers == nil || m.layers == layers)
      && (queries == nil || m.queriesPerFrame == queries) && (workload == nil || m.workload == workload)
      && (animatedFraction == nil || m.animatedFraction == animatedFraction)
      && (strategy == nil || m.strategy == strategy) && (family == nil || m.family == family)
      && (excludingFamily == nil || m.family != excludingFamily) && !excludingStrategies.contains(m.strategy)
      && (threads == nil || m.threads == threads)
  }

  /// The matching result with the smallest value of `metric` (the fastest, by default by the
  /// end-to-end frame's mean).
  /// Results whose `metric` was not measured (`Metric.wasMeasured`) are not candidates.
  public func best(in results: [Measurement], by metric: Metric = .frameNsMean) -> Measurement? {
    results.filter { matches($0) && metric.wasMeasured($0) }.min { metric.value($0) < metric.value($1) }
  }

  public func one(in results: [Measurement]) -> Measurement? { results.first(where: matches) }

  /// The result of `m`'s configuration (scene, size, Q, workload, animated share) with another
  /// strategy or thread count (`m`'s own where nil): a target's counterpart of a result.
  static func counterpart(of m: Measurement, strategy: String? = nil, threads: Int? = nil) -> ResultQuery {
    ResultQuery(
      scene: m.scene, layers: m.layers, queries: m.queriesPerFrame, workload: m.workload,
      animatedFraction: m.animatedFraction, strategy: strategy ?? m.strategy, threads: threads ?? m.threads)
  }

  /// What this query selects, for "no result for ..." messages.
  public var label: String {
    var parts: [String] = []
    if let family { parts.append("the best \(family) strategy") }
    if let excludingFamily { parts.append("the best strategy but the \(excludingFamily)s") }
    if let strategy { parts.append(strategy) }
    if !excludingStrategies.isEmpty { parts.append("not " + excludingStrategies.joined(separator: " or ")) }
    if let scene { parts.append(scene) }
    if let layers { parts.append("\(layers) layers") }
    if let queries { parts.append("Q = \(queries)") }
    if let workload { parts.append(workload) }
    if let animatedFraction { parts.append("\(Int(animatedFraction * 100))% animated") }
    if let threads { parts.append("\(threads) threads") }
    return parts.joined(separator: ", ")
  }
}

extension Target {
  /// `fast` is at least `factor` times faster than `slow` by `metric` (slow / fast >= factor).
  public static func speedup(
    _ name: String, _ fast: ResultQuery, over slow: ResultQuery, atLeast factor: Double, metric: Metric = .frameNsMean
  ) -> Target {
    Target(name) { results in
      guard let f = fast.best(in: results, by: metric) else { return .missing(fast.label) }
      guard let s = slow.best(in: results, by: metric) else { return .missing(slow.label) }
      let ratio = metric.value(s) / metric.value(f)
      let interval = metric._ratioAcrossRuns(s, over: f)
      return TargetVerdict(
        TargetVerdict.status(ratio, interval) { $0 >= factor },
        "\(f.strategy) \(metric.describe(f)) against \(s.strategy) \(metric.describe(s)): "
          + "\(formatRatio(ratio))x\(_formatInterval(interval) { formatRatio($0) + "x" }) (target \(formatRatio(factor))x)"
          + (metric._ratioExposure(s, f) == .separateTurns ? _busyNote([s, f]) : "")
      )
    }
  }

  /// The best result matching `query` has `metric` at most `limit`.
  public static func atMost(_ name: String, _ query: ResultQuery, _ metric: Metric, _ limit: Double) -> Target {
    Target(name) { results in
      guard let m = query.best(in: results, by: metric) else { return .missing(query.label) }
      let v = metric.value(m)
      let interval = metric._acrossRuns(m)
      return TargetVerdict(
        TargetVerdict.status(v, interval) { $0 <= limit },
        "\(m.strategy): \(metric.describe(m))\(_formatInterval(interval, metric.format)) (limit \(metric.format(limit)))"
          + (metric.isTime ? _busyNote([m]) : "")
      )
    }
  }

  /// Every result matching `query` has `metric` at most `limit` (for example no allocation).
  public static func everyAtMost(_ name: String, _ query: ResultQuery, _ metric: Metric, _ limit: Double) -> Target {
    _every(name, query, metric.value, interval: metric._acrossRuns, largestIsWorst: true, meets: { $0 <= limit }) {
      _, all, worst, interval in
      "\(_worst(worst)): \(metric.describe(worst))\(_formatInterval(interval, metric.format)) over \(all) results "
        + "(limit \(metric.format(limit)))"
    }
  }

  /// Every result matching `query` has `metric` at least `limit` (a run long enough to hold
  /// three windows).
  public static func everyAtLeast(_ name: String, _ query: ResultQuery, _ metric: Metric, _ limit: Double) -> Target {
    _every(name, query, metric.value, interval: metric._acrossRuns, largestIsWorst: false, meets: { $0 >= limit }) {
      v, all, worst, interval in
      "\(_worst(worst)): \(metric.format(v))\(_formatInterval(interval, metric.format)) over \(all) results "
        + "(at least \(metric.format(limit)))"
    }
  }

  /// Every result matching `query` has `metric` at most `factor` times its own `reference`
  /// (smoothness: p99 at most 1.5x the median of the same run).
  public static func everyWithin(
    _ name: String, _ query: ResultQuery, _ metric: Metric, atMost factor: Double, of reference: Metric
  ) -> Target {
    let (ratio, interval) = metric._ownRatio(to: reference)
    return _every(
      name, query, ratio,
      interval: interval,
      largestIsWorst: true,
      meets: { $0 <= factor }
    ) { r, all, worst, interval in
      "\(_worst(worst)): \(metric.rawValue) \(metric.format(metric.value(worst))) = \(formatRatio(r))x"
        + "\(_formatInterval(interval) { formatRatio($0) + "x" }) \(reference.rawValue) over \(all) results "
        + "(limit \(formatRatio(factor))x)"
    }
  }

  /// Every result matching `query` has `metric` at most `factor` times its own `reference`, or
  /// no more than its `control` strategy's counterpart in the same run has (the same scene,
  /// size, Q, workload, animated share and threads), whichever is larger: smoothness where the
  /// host's jitter, which a rebuild control measures, may be the p99 of a frame of a few
  /// microseconds. Judged on both ratios' intervals: met when the result's whole interval is
  /// within the lower limit (the factor, or the control's interval's low end), not met when
  /// it is wholly beyond the higher. A result without a counterpart is missing, not skipped.
  public static func everyWithinOrControl(
    _ name: String, _ query: ResultQuery, _ metric: Metric, atMost factor: Double, of reference: Metric,
    control: String
  ) -> Target {
    let (ratio, interval) = metric._ownRatio(to: reference)
    // The control's ratio, or past the factor.
    let limit: @Sendable (Measurement) -> Double = { Swift.max(factor, ratio($0)) }
    // On any thread count: a strategy that builds no frame reports one thread, the rebuild
    // control the run's (both cores by default).
    let counterpart: @Sendable (Measurement) -> ResultQuery = {
      var q = ResultQuery.counterpart(of: $0, strategy: control)
      q.threads = nil
      return q
    }
    return _everyAgainst(name, query, counterpart: counterpart) { m, c in
      let ci = interval(c)
      let lowLimit = Swift.max(factor, ci?.low ?? ratio(c))
      let highLimit = Swift.max(factor, ci?.high ?? ratio(c))
      let mi = interval(m) ?? Interval(low: ratio(m), high: ratio(m))
      return (mi.high <= lowLimit ? .met : (mi.low > highLimit ? .notMet : .undecided), ratio(m) / limit(c))
    } describe: { m, c, count in
      "\(_worst(m)): \(metric.rawValue) \(metric.format(metric.value(m))) = \(formatRatio(ratio(m)))x"
        + "\(_formatInterval(interval(m)) { formatRatio($0) + "x" }) \(reference.rawValue) against a limit of "
        + "\(formatRatio(limit(c)))x (\(formatRatio(factor))x, or \(control)'s in the same run) over \(count) results"
    }
  }

  /// Every result matching `query` has `metric` at most `factor` times that of its counterpart
  /// built on `threads` threads (the same strategy, scene, size, Q and animated share): what a
  /// second thread costs in CPU. A result without a counterpart is missing, not skipped.
  public static func everyAgainstThreads(
    _ name: String, _ query: ResultQuery, threads: Int, _ metric: Metric, atMost factor: Double
  ) -> Target {
    let ratio: @Sendable (Measurement, Measurement) -> Double = { metric.value($0) / Swift.max(metric.value($1), 1e-9) }
    return _everyAgainst(name, query, counterpart: { ResultQuery.counterpart(of: $0, threads: threads) }) { m, base in
      let r = ratio(m, base)
      return (TargetVerdict.status(r, metric._ratioAcrossRuns(m, over: base)) { $0 <= factor }, r)
    } describe: { m, base, count in
      "\(_worst(m)): \(metric.format(metric.value(m))) on \(m.threads) threads against "
        + "\(metric.format(metric.value(base))) on \(threads) = \(formatRatio(ratio(m, base)))x"
        + "\(_formatInterval(metric._ratioAcrossRuns(m, over: base)) { formatRatio($0) + "x" }) over \(count) results "
        + "(limit \(formatRatio(factor))x)"
    }
  }

  /// A target over every result matching `query` beside its `counterpart` (one result of the
  /// same run): each pair judged by `judge` (its status, and a score the worst pair has most
  /// of), the target met when every pair meets it, not met when one misses it, else undecided;
  /// a result without a counterpart leaves the target missing, not skipped. `describe` states
  /// the worst pair (of those that miss, where some do) and the number of results; the counts
  /// of results missed and undecided follow.
  static func _everyAgainst(
    _ name: String, _ query: ResultQuery, counterpart: @escaping @Sendable (Measurement) -> ResultQuery,
    judge: @escaping @Sendable (Measurement, Measurement) -> (status: TargetVerdict.Status, score: Double),
    describe: @escaping @Sendable (Measurement, Measurement, Int) -> String
  ) -> Target {
    Target(name) { results in
      let all = results.filter(query.matches)
      guard !all.isEmpty else { return .missing(query.label) }
      // The worst pair, and the worst of those that miss: a verdict not met names a pair that
      // misses, not a worse-scored one whose interval only reaches past the limit.
      var worst: (score: Double, m: Measurement, c: Measurement)?
      var worstMissed: (score: Double, m: Measurement, c: Measurement)?
      var statuses: [TargetVerdict.Status] = []
      for m in all {
        let pair = counterpart(m)
        guard let c = pair.one(in: results) else { return .missing(pair.label) }
        let (status, score) = judge(m, c)
        statuses.append(status)
        if worst == nil || score > worst!.score { worst = (score, m, c) }
        if status == .notMet && (worstMissed == nil || score > worstMissed!.score) { worstMissed = (score, m, c) }
      }
      let w = worstMissed ?? worst!
      return TargetVerdict(TargetVerdict.all(statuses), describe(w.m, w.c, all.count) + _counts(statuses))
    }
  }

  /// A target over every result matching `query`: each result's `value` judged by `meets` on
  /// its `interval` (`TargetVerdict.status`), the target met when every result meets it, not
  /// met when one misses it, else undecided. `describe` states the worst `value` (the largest,
  /// or the smallest; of the results that miss, where some do), the number of results, that
  /// result and its interval; the counts of results missed and undecided follow.
  static func _every(
    _ name: String, _ query: ResultQuery, _ value: @escaping @Sendable (Measurement) -> Double,
    interval: @escaping @Sendable (Measurement) -> Interval?, largestIsWorst: Bool,
    meets: @escaping @Sendable (Double) -> Bool,
    _ describe: @escaping @Sendable (Double, Int, Measurement, Interval?) -> String
  ) -> Target {
    Target(name) { results in
      let all = results.filter(query.matches)
      guard !all.isEmpty else { return .missing(query.label) }
      let statuses = all.map { TargetVerdict.status(value($0), interval($0), meets: meets) }
      // The worst result, or where some miss, the worst of those (as `_everyAgainst`).
      let missed = zip(all, statuses).filter { $0.1 == .notMet }.map(\.0)
      let named = missed.isEmpty ? all : missed
      let worst = (largestIsWorst ? named.max { value($0) < value($1) } : named.min { value($0) < value($1) })!
      return TargetVerdict(
        TargetVerdict.all(statuses), describe(value(worst), all.count, worst, interval(worst)) + _counts(statuses))
    }
  }

  /// How many results missed and were undecided, after a verdict's worst result.
  static func _counts(_ statuses: [TargetVerdict.Status]) -> String {
    let missed = statuses.filter { $0 == .notMet }.count
    let undecided = statuses.filter { $0 == .undecided }.count
    return (missed > 0 ? "; \(missed) not met" : "") + (undecided > 0 ? "; \(undecided) undecided" : "")
  }

  /// How a verdict names its worst result.
  static func _worst(_ m: Measurement) -> String {
    "worst \(m.strategy) (\(m.scene) \(m.layers), Q = \(m.queriesPerFrame))"
  }

  /// At every configuration (scene, size, Q) where both sides ran, the best of `fast` against
  /// the best of `slow`: the worst ratio at least `worstAtLeast` and the geometric mean at least
  /// `geometricMeanAtLeast`. Configurations where one side is missing are named, not skipped.
  /// Each ratio is judged on its interval across runs, and the geometric mean on the interval
  /// its points' give it (their logs' spreads, from each interval's width, added as
  /// independent: the points ran at different moments, and each ratio's own carries its
  /// moment).
  public static func acrossConfigurations(
    _ name: String, _ fast: ResultQuery, over slow: ResultQuery, worstAtLeast: Double,
    geometricMeanAtLeast: Double, metric: Metric = .frameNsMean
  ) -> Target {
    Target(name) { results in
      struct Point: Hashable {
        var scene: String
        var layers: Int
        var queries: Int
      }
      let points = Set(
        results.filter { fast.matches($0) || slow.matches($0) }.map {
          Point(scene: $0.scene, layers: $0.layers, queries: $0.queriesPerFrame)
        })
      guard !points.isEmpty else { return .missing(fast.label) }
      var ratios: [(point: Point, ratio: Double, interval: Interval?)] = []
      // The same pairs by CPU per frame, stated beside a verdict on wall time.
      var cpuRatios: [Double] = []
      for p in points.sorted(by: { ($0.scene, $0.layers, $0.queries) < ($1.scene, $1.layers, $1.queries) }) {
        let here = results.filter { $0.scene == p.scene && $0.layers == p.layers && $0.queriesPerFrame == p.queries }
        guard let f = fast.best(in: here, by: metric) else { return .missing("\(fast.label) at \(p)") }
        guard let s = slow.best(in: here, by: metric) else { return .missing("\(slow.label) at \(p)") }
        ratios.append((p, metric.value(s) / Swift.max(metric.value(f), 1e-9), metric._ratioAcrossRuns(s, over: f)))
        cpuRatios.append(s.cpuNs.mean / Swift.max(f.cpuNs.mean, 1e-9))
      }
      func geometric(_ r: [Double]) -> Double {
        Foundation.exp(r.map { Foundation.log($0) }.reduce(0, +) / Double(r.count))
      }
      let geometricMean = geometric(ratios.map(\.ratio))
      // A point's log spread from its interval's width; a point without one adds nothing.
      let spreads = ratios.map { r -> Double in
        guard let i = r.interval, i.low > 0, i.high > 0 else { return 0 }
        return Foundation.log(i.high / i.low) / (2 * RunSpread.z95)
      }
      let meanSpread = spreads.map { $0 * $0 }.reduce(0, +).squareRoot() / Double(ratios.count)
      let meanInterval =
        meanSpread > 0
        ? Interval(
          low: geometricMean * Foundation.exp(-RunSpread.z95 * meanSpread),
          high: geometricMean * Foundation.exp(RunSpread.z95 * meanSpread)) : nil
      let statuses =
        ratios.map { TargetVerdict.status($0.ratio, $0.interval) { $0 >= worstAtLeast } }
        + [TargetVerdict.status(geometricMean, meanInterval) { $0 >= geometricMeanAtLeast }]
      let undecided = statuses.filter { $0 == .undecided }.count
      let byCPU = metric.isWallFrame ? "; by CPU per frame, geometric mean \(formatRatio(geometric(cpuRatios)))x" : ""
      let worst = ratios.min { $0.ratio < $1.ratio }!
      let x: (Double) -> String = { formatRatio($0) + "x" }
      return TargetVerdict(
        TargetVerdict.all(statuses),
        "geometric mean \(x(geometricMean))\(_formatInterval(meanInterval, x)) over \(ratios.count) points (target "
          + "\(x(geometricMeanAtLeast))); worst \(x(worst.ratio))\(_formatInterval(worst.interval, x)) at "
          + "\(worst.point.scene) \(worst.point.layers), Q = \(worst.point.queries) (target \(x(worstAtLeast)))\(byCPU)"
          + (undecided > 0 ? "; \(undecided) undecided" : ""))
    }
  }
}
