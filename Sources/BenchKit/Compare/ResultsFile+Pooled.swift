import JSON

extension ResultsFile {
  /// The results of several runs of one command as one file (`hitbench compare A1,A2 B1,B2`):
  /// each configuration's frames pooled. Runs of the base and the new binary taken in turns
  /// (A B A B ...) share the host's slow and fast stretches, which a single run of each does
  /// not (docs/measuring.md). Per result: the blocks concatenated; the series concatenated when
  /// every run kept every frame, and then the frame's summary and its mean and p99 intervals
  /// recomputed from all frames; every other summary's mean, and every other number, weighted
  /// by frames; each block tagged with its run (`run`, from 0); the configuration, its
  /// thresholds and the first run's meta kept. A
  /// configuration missing from one of the runs is left out.
  public static func pooled(_ runs: [ResultsFile]) throws(Problem) -> ResultsFile {
    guard var out = runs.first else { throw Problem(description: "nothing to pool") }
    guard runs.count > 1 else { return out }
    let byKey = runs.map { Dictionary(uniqueKeysWithValues: $0.results.map { ($0.key, $0.value) }) }
    out.results = out.results.compactMap { first in
      let all = byKey.compactMap { $0[first.key] }
      guard all.count == runs.count else { return nil }
      return Result(key: first.key, value: _pool(all))
    }
    guard !out.results.isEmpty else { throw Problem(description: "no configuration is in every pooled file") }
    return out
  }

  /// One configuration's results of several runs as one.
  static func _pool(_ results: [JSONValue]) -> JSONValue {
    // A run's weight: its measured frames (its frame summary's count in a file without them).
    func frames(_ r: JSONValue) -> Double {
      if case .number(let f)? = r["frames"] { return Swift.max(f, 0) }
      if case .number(let n)? = r["frameNs"]?["count"] { return Swift.max(n, 0) }
      return 1
    }
    let weights = results.map(frames)
    let total = Swift.max(weights.reduce(0, +), 1)
    // A number every run may hold (read by `value`; a run without it adds nothing): its sum,
    // and its mean weighted by frames.
    func sum(_ value: (JSONValue) -> JSONValue?) -> Double {
      results.reduce(0.0) { s, r in if case .number(let d)? = value(r) { s + d } else { s } }
    }
    func weightedMean(_ value: (JSONValue) -> JSONValue?) -> Double {
      zip(results, weights).reduce(0.0) { s, p in if case .number(let d)? = value(p.0) { s + d * p.1 } else { s } }
        / total
    }
    guard case .object(let firstMembers) = results[0] else { return results[0] }
    // Every frame of every run, when each kept them all (stride 1).
    var series: [String: [Double]]? = [:]
    for r in results {
      guard case .number(1)? = r["series"]?["stride"], case .object(let columns)? = r["series"] else {
        series = nil
        break
      }
      for (name, v) in columns where name != "stride" {
        guard case .array(let list) = v else { continue }
        series?[name, default: []] += list.compactMap { if case .number(let d) = $0 { d } else { nil } }
      }
    }
    var members: [(String, JSONValue)] = []
    for (key, value) in firstMembers {
      switch value {
      case .number:
        if key == "layers" || key == "queriesPerFrame" || key == "threads" || key == "animatedFraction"
          || key == "budgetNs"
        {
          members.append((key, value))
        } else if key == "frames" || key == "framesOverBudget" || key == "verifiedAnswers"
          || key == "toleratedAnswers" || key == "disagreements" || key == "repeats"
        {
          members.append((key, .number(sum { $0[key] })))
        } else {
          members.append((key, .number(weightedMean { $0[key] })))
        }
      case .object where key == "frameNs" && series?["frameNs"] != nil:
        members.append((key, _summary(Summary(series!["frameNs"]!))))
      case .object(let stats) where stats.contains(where: { $0.0 == "count" }):
        // Another summary: its mean by frames, the rest from the first run, the count summed.
        var pooled: [(String, JSONValue)] = []
        for (stat, v) in stats {
          if stat == "mean" {
            pooled.append((stat, .number(weightedMean { $0[key]?["mean"] })))
          } else if stat == "count" {
            pooled.append((stat, .number(sum { $0[key]?["count"] })))
          } else {
            pooled.append((stat, v))
          }
        }
        // Extremes stay in order around the pooled mean.
        members.append((key, .object(_ordered(pooled))))
      case .array where key == "blocks":
        // Each block says which run it came from (`compare` draws runs, then their blocks).
        var blocks: [JSONValue] = []
        for (run, r) in results.enumerated() {
          guard case .array(let b)? = r["blocks"] else { continue }
          blocks += b.map { block in
            guard case .object(let fields) = block else { return block }
            return .object(fields.filter { $0.0 != "run" } + [("run", .number(Double(run)))])
          }
        }
        members.append((key, .array(blocks)))
      case .object where key == "series":
        if let series {
          members.append(
            (
              key,
              .object(
                [("stride", .number(1))]
                  + series.sorted { $0.key < $1.key }.map { name, values in
                    (name, JSONValue.array(values.map { JSONValue.number($0) }))
                  })
            ))
        }
      default:
        members.append((key, value))
      }
    }
    // The frame's intervals from every frame, or none.
    let intervalKeys = Measurement.intervalMetrics.flatMap { m in
      [Measurement.intervalKeys(m).low, Measurement.intervalKeys(m).high]
    }
    members = members.map { k, v in intervalKeys.contains(k) ? (k, .null) : (k, v) }
    if let frameNs = series?["frameNs"] {
      for (metric, statistic) in [
        (Metric.frameNsMean, BlockBootstrap.mean), (.frameNsP99, BlockBootstrap.quantile(0.99)),
      ] {
        guard let i = BlockBootstrap.interval(frameNs, length: Runner.blockFrames, statistic: statistic) else {
          continue
        }
        let keys = Measurement.intervalKeys(metric)
        members = members.map { k, v in
          k == keys.low ? (k, .number(i.low)) : k == keys.high ? (k, .number(i.high)) : (k, v)
        }
      }
    }
    return .object(members)
  }

  static func _summary(_ s: Summary) -> JSONValue {
    .object([
      ("min", .number(s.min)), ("median", .number(s.median)), ("p90", .number(s.p90)), ("p99", .number(s.p99)),
      ("max", .number(s.max)), ("mad", .number(s.mad)), ("mean", .number(s.mean)), ("stddev", .number(s.stddev)),
      ("count", .number(Double(s.count))),
    ])
  }

  /// A summary whose min and max are widened, if needed, to hold its pooled mean.
  static func _ordered(_ stats: [(String, JSONValue)]) -> [(String, JSONValue)] {
    guard
      let mean = stats.first(where: { $0.0 == "mean" }).flatMap({ if case .number(let d) = $0.1 { d } else { nil } })
    else { return stats }
    return stats.map { k, v in
      guard case .number(let d) = v else { return (k, v) }
      if k == "min" { return (k, .number(Swift.min(d, mean))) }
      if k == "max" { return (k, .number(Swift.max(d, mean))) }
      return (k, v)
    }
  }
}
