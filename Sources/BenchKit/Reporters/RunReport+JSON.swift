import JSON

extension RunReport {
  /// The schema's name, in `meta.schema`: `compare` reads only files of this schema.
  public static let schema = "hitbench-results/3"

  /// A summary's statistics, in schema order.
  static func statistics(_ s: Summary) -> [(String, Double)] {
    [
      ("min", s.min), ("median", s.median), ("p90", s.p90), ("p99", s.p99), ("max", s.max), ("mad", s.mad),
      ("mean", s.mean), ("stddev", s.stddev), ("count", Double(s.count)),
    ]
  }

  /// Every result field with its value, in schema order (JSON and CSV share it).
  static func fields(_ m: Measurement) -> [(String, JSONValue)] {
    func summary(_ s: Summary) -> JSONValue { .object(statistics(s).map { ($0.0, .number($0.1)) }) }
    return [
      ("strategy", .string(m.strategy)), ("family", .string(m.family)), ("scene", .string(m.scene)),
      ("layers", .number(Double(m.layers))), ("animatedFraction", .number(m.animatedFraction)),
      ("queriesPerFrame", .number(Double(m.queriesPerFrame))), ("workload", .string(m.workload)),
      ("semantics", .string(m.semantics)), ("tree", .string(m.tree)), ("frames", .number(Double(m.frames))),
      ("pacing", .string(m.pacing)), ("interleaved", .bool(m.interleaved)),
      ("turns", .number(Double(m.turns))), ("hostOtherCores", m.hostOtherCores.map { .number($0) } ?? .null),
      ("repeats", .number(Double(m.repeats))),
      ("threads", .number(Double(m.threads))),
      ("frameNs", summary(m.frameNs)), ("hitTestNs", summary(m.hitTestNs)),
    ] + intervals(m) + [
      ("presentationNs", summary(m.presentationNs)), ("buildTimingNs", summary(m.buildTimingNs)),
      ("buildOrderNs", summary(m.buildOrderNs)), ("buildComposeNs", summary(m.buildComposeNs)),
      ("updateNs", summary(m.updateNs)), ("queriesNs", summary(m.queriesNs)), ("cpuNs", summary(m.cpuNs)),
      ("cpuThreadNs", summary(m.cpuThreadNs)), ("cpuBuildWorkersNs", summary(m.cpuBuildWorkersNs)),
      ("cpuBackgroundNs", summary(m.cpuBackgroundNs)),
      ("budgetNs", .number(m.budgetNs)), ("framesOverBudget", .number(Double(m.framesOverBudget))),
      ("nsPerQuery", .number(m.nsPerQuery)), ("nsPerCandidate", .number(m.nsPerCandidate)),
      ("rowsRecomputedPerFrame", .number(m.rowsRecomputedPerFrame)), ("splitBuilds", .number(m.splitBuilds)),
      ("presentationsPerQuery", .number(m.presentationsPerQuery)),
      ("candidatesPerQuery", .number(m.candidatesPerQuery)), ("reindexedPerFrame", .number(m.reindexedPerFrame)),
      ("unboundedLayers", .number(m.unboundedLayers)), ("windowMs", .number(m.windowMs)),
      ("windowsHeld", .number(m.windowsHeld)), ("windowsWanted", .number(m.windowsWanted)),
      ("lateFrames", .number(Double(m.lateFrames))), ("waitedFrames", .number(Double(m.waitedFrames))),
      ("windowCost", .string(m.windowCost)), ("windowOverlap", .number(m.windowOverlap)),
      ("cpuClockCostNs", .number(m.cpuClockCostNs)),
      ("comparable", .bool(!m.holdsTooFewWindows)), ("windowPinned", .bool(m.windowPinned)),
      ("allocationsPerFrame", .number(m.allocationsPerFrame)),
      ("bytesAllocatedPerFrame", .number(m.bytesAllocatedPerFrame)),
      ("peakResidentBytes", .number(Double(m.peakResidentBytes))), ("indexBytes", .number(Double(m.indexBytes))),
      ("modelBytes", .number(Double(m.memory.modelBytes))),
      ("compiledSceneBytes", .number(Double(m.memory.compiledSceneBytes))),
      ("frameBytes", .number(Double(m.memory.frameBytes))), ("strategyBytes", .number(Double(m.memory.strategyBytes))),
      ("testedPerQuery", .number(m.testedPerQuery)), ("queryFloorNs", .number(m.queryFloorNs)),
      ("updateFloorNs", .number(m.updateFloorNs)), ("queryFloorRatio", .number(m.queryFloorRatio)),
      ("updateFloorRatio", .number(m.updateFloorRatio)), ("noisy", .bool(m.noisy)),
      ("verifiedAnswers", .number(Double(m.verifiedAnswers))),
      ("toleratedAnswers", .number(Double(m.toleratedAnswers))), ("disagreements", .number(Double(m.disagreements))),
    ] + instructions(m)
  }

  /// A result's instruction counts (`--instructions`), as one object; nothing without them.
  static func instructions(_ m: Measurement) -> [(String, JSONValue)] {
    guard let i = m.instructions else { return [] }
    return [
      (
        Metric.instructionsKey,
        .object([
          ("frames", .number(Double(i.frames))), ("buildPerFrame", .number(i.buildPerFrame)),
          ("updatePerFrame", .number(i.updatePerFrame)), ("queriesPerFrame", .number(i.queriesPerFrame)),
          ("framePerFrame", .number(i.framePerFrame)), ("backgroundPerFrame", .number(i.backgroundPerFrame)),
          ("backgroundBuilds", .number(Double(i.backgroundBuilds))),
          ("perBackgroundBuild", .number(i.perBackgroundBuild)),
          ("perQuery", .number(i.perQuery)), ("perCandidate", .number(i.perCandidate)),
          ("candidateBatch", .number(i.candidateBatch)), ("candidateIndex", .number(i.candidateIndex)),
          ("candidatesCounted", .number(Double(i.candidatesCounted))),
          ("perRowBuilt", .number(i.perRowBuilt)), ("perEntryReindexed", .number(i.perEntryReindexed)),
          ("candidatesPerQuery", .number(i.candidatesPerQuery)),
          ("rowsRecomputedPerFrame", .number(i.rowsRecomputedPerFrame)),
          ("reindexedPerFrame", .number(i.reindexedPerFrame)), ("windowMs", .number(i.windowMs)),
        ])
      )
    ]
  }

  /// The ends of a result's 95% intervals (`Measurement.intervalMetrics`: `frameNsMeanLow`,
  /// `frameNsMeanHigh`...), null when the run had fewer than two blocks.
  static func intervals(_ m: Measurement) -> [(String, JSONValue)] {
    Measurement.intervalMetrics.flatMap { metric -> [(String, JSONValue)] in
      let i = m.intervals[metric]
      let keys = Measurement.intervalKeys(metric)
      return [(keys.low, i.map { .number($0.low) } ?? .null), (keys.high, i.map { .number($0.high) } ?? .null)]
    }
  }

  /// A result's frames one by one, binned by their slowest (`FrameSeries`; JSON only).
  static func series(_ m: Measurement) -> JSONValue {
    let s = FrameSeries(m.frameTimings)
    return .object(
      [("stride", .number(Double(s.stride))), ("firstFrame", .array(s.firstFrame.map { .number(Double($0)) }))]
        + s.columns.map { name, values in (name, .array(values.map { .number($0) })) })
  }

  /// A result's blocks (JSON only: CSV has one row per result).
  static func blocks(_ m: Measurement) -> JSONValue {
    .array(
      m.blocks.map { b in
        .object([
          ("firstFrame", .number(Double(b.firstFrame))), ("frames", .number(Double(b.frames))),
          ("meanFrameNs", .number(b.meanFrameNs)), ("meanHitTestNs", .number(b.meanHitTestNs)),
          ("meanCpuNs", .number(b.meanCpuNs)),
          ("maxFrameNs", .number(b.maxFrameNs)), ("allocationsPerFrame", .number(b.allocationsPerFrame)),
        ])
      })
  }

  public func json() -> JSONValue {
    var metaFields: [(String, JSONValue)] = [
      ("schema", .string(Self.schema)), ("toolchain", .string(meta.toolchain)),
      ("buildFlags", .string(meta.buildFlags)), ("cpuModel", .string(meta.cpuModel)),
      ("cores", .number(Double(meta.cores))), ("memoryBytes", .number(Double(meta.memoryBytes))),
      ("gitCommit", .string(meta.gitCommit)), ("seed", .number(Double(meta.seed))), ("command", .string(meta.command)),
      ("date", .string(meta.date)),
    ]
    if let suite { metaFields.append(("suite", .string(suite))) }
    let thresholdValues: [(String, JSONValue)] = Metric.allCases.compactMap { metric in
      thresholds[metric].map {
        (metric.rawValue, .object([("relative", .number($0.relative)), ("absolute", .number($0.absolute))]))
      }
    }
    let targetValues: [JSONValue] = targets.map {
      .object([
        ("name", .string($0.name)), ("status", .string($0.verdict.status.rawValue)),
        ("measured", .string($0.verdict.measured)),
      ])
    }
    return .object([
      ("meta", .object(metaFields)), ("thresholds", .object(thresholdValues)), ("targets", .array(targetValues)),
      (
        "results",
        .array(
          results.map { .object(Self.fields($0) + [("blocks", Self.blocks($0)), ("series", Self.series($0))]) })
      ),
    ])
  }
}
