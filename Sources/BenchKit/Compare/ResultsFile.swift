import JSON

/// A results file (`hitbench run --format json`) read for `compare`: checked against
/// `RunReport.schema` before anything is compared, so a file of another schema, a result that
/// names no configuration, two results of one configuration, a threshold that could never fire
/// or a number that is not finite is refused with one line naming it, instead of comparing
/// less than it seems to.
public struct ResultsFile: Sendable {
  /// One result: the configuration that identifies it, and the document.
  public struct Result: Sendable {
    public var key: Key
    public var value: JSONValue
  }

  /// What identifies a result across runs: every configuration field and Q.
  public struct Key: Hashable, Sendable, CustomStringConvertible, Comparable {
    public var fields: [String]
    public var description: String { fields.joined(separator: " ") }
    public static func < (a: Key, b: Key) -> Bool { a.description < b.description }

    /// The configuration whose strategies took turns in one run: every field but the
    /// strategy's and the threads' (a scene strategy's frames are built on one).
    public var configurationFields: [String] {
      fields.enumerated().filter {
        !ResultsFile.keyFields.indices.contains($0.offset)
          || !["strategy", "threads"].contains(ResultsFile.keyFields[$0.offset])
      }.map(\.element)
    }
  }

  /// The fields of a result that make its key, in the key's order.
  public static let keyFields = [
    "strategy", "scene", "layers", "animatedFraction", "queriesPerFrame", "workload", "semantics", "tree", "threads",
    "pacing",
  ]

  public var results: [Result]
  /// What the file's suite declares (`thresholds`); `Suite.defaultThresholds` when it declares
  /// none.
  public var thresholds: [Metric: Threshold]
  public var meta: JSONValue

  /// Why a document is not a results file to compare: one line.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  public init(_ doc: JSONValue) throws(Problem) {
    guard case .object? = doc["meta"] as JSONValue?, let meta = doc["meta"] else {
      throw Problem(description: "not a hitbench results file (no 'meta' object)")
    }
    guard case .string(let schema)? = meta["schema"] else {
      throw Problem(description: "meta.schema is missing (not a hitbench results file)")
    }
    guard schema == RunReport.schema else {
      throw Problem(description: "schema '\(schema)' is not \(RunReport.schema) (rerun hitbench run with this build)")
    }
    guard case .array(let list)? = doc["results"] else { throw Problem(description: "no 'results' array") }
    // An empty file compares nothing, whichever side it is on.
    guard !list.isEmpty else { throw Problem(description: "'results' is empty: nothing to compare") }
    try Self.checkMeta(meta)
    try Self.checkTargets(doc["targets"])
    self.meta = meta
    thresholds = try Self.thresholds(doc["thresholds"])
    var seen = Set<Key>()
    results = []
    for (i, r) in list.enumerated() {
      guard case .object = r else { throw Problem(description: "results[\(i)] is \(r.typeName), not an object") }
      try Self.checkFinite(r, "results[\(i)]")
      try Self.checkValues(r, "results[\(i)]")
      var fields: [String] = []
      for k in Self.keyFields {
        switch r[k] {
        case .string(let s)?: fields.append(s)
        case .number(let n)?: fields.append(_keyNumber(n))
        case let v?: throw Problem(description: "results[\(i)].\(k) is \(v.typeName)")
        case nil: throw Problem(description: "results[\(i)] has no '\(k)'")
        }
      }
      // A pinned window is part of the configuration (the windows suite sweeps it).
      if case .bool(true)? = r["windowPinned"], case .number(let w)? = r["windowMs"] {
        fields.append("window \(_keyNumber(w)) ms")
      }
      let key = Key(fields: fields)
      guard seen.insert(key).inserted else { throw Problem(description: "results[\(i)] repeats the result \(key)") }
      results.append(Result(key: key, value: r))
    }
  }

  /// A suite's declared thresholds: every name a metric, every threshold sound.
  static func thresholds(_ v: JSONValue?) throws(Problem) -> [Metric: Threshold] {
    guard let v else { return Suite.defaultThresholds }
    guard case .object(let members) = v else { throw Problem(description: "thresholds is \(v.typeName)") }
    guard !members.isEmpty else { return Suite.defaultThresholds }
    var out: [Metric: Threshold] = [:]
    for (name, t) in members {
      guard let metric = Metric(rawValue: name) else {
        throw Problem(
          description: "thresholds.\(name) is not a metric (\(Metric.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      guard case .number(let r)? = t["relative"], case .number(let a)? = t["absolute"] else {
        throw Problem(description: "thresholds.\(name) needs numbers 'relative' and 'absolute'")
      }
      let threshold = Threshold(relative: r, absolute: a)
      if let problem = threshold.problem { throw Problem(description: "thresholds.\(name): \(problem)") }
      out[metric] = threshold
    }
    return out
  }

  /// The run's description: `cores` a positive integer, `seed` an integer from 0 to 2^64 - 1.
  static func checkMeta(_ meta: JSONValue) throws(Problem) {
    guard case .number(let cores)? = meta["cores"], cores >= 1, cores <= 65536, cores.rounded() == cores else {
      throw Problem(description: "meta.cores is \(_shown(meta["cores"])), not a positive integer")
    }
    guard case .number(let seed)? = meta["seed"], seed >= 0, seed < 0x1p64, seed.rounded() == seed else {
      throw Problem(description: "meta.seed is \(_shown(meta["seed"])), not an integer from 0 to 2^64 - 1")
    }
  }

  /// The suite's verdicts, as a run writes them: objects with a name, a status and what was
  /// measured (strings).
  static func checkTargets(_ v: JSONValue?) throws(Problem) {
    guard let v else { return }
    guard case .array(let list) = v else { throw Problem(description: "targets is \(v.typeName), not an array") }
    let statuses = TargetVerdict.Status.allCases.map(\.rawValue)
    for (i, t) in list.enumerated() {
      guard case .object = t, case .string? = t["name"], case .string? = t["measured"],
        case .string(let status)? = t["status"], statuses.contains(status)
      else {
        throw Problem(
          description:
            "targets[\(i)] is not an object with string 'name' and 'measured' and a 'status' of \(statuses.joined(separator: ", "))"
        )
      }
    }
  }

  /// What a measurement can be: every number of a result at least 0 and not subnormal (no time
  /// is 1e-310 ns: such a value is a corrupted file, and ratios of it are meaningless); every
  /// summary a count (an integer) and statistics in order (min <= median, mean, p90 <= p99 <=
  /// max); a frame that takes no time, or none, is no frame; the animated fraction within [0, 1].
  static func checkValues(_ r: JSONValue, _ path: String) throws(Problem) {
    guard case .object(let members) = r else { return }
    for (k, v) in members {
      switch v {
      case .number(let d):
        guard d >= 0, !d.isSubnormal else {
          throw Problem(description: "\(path).\(k) is \(d): a measurement is at least 0 and not subnormal")
        }
      case .object(let stats):
        for (s, x) in stats {
          // A series' columns: arrays of measurements.
          let values: [JSONValue]
          if k == "series", case .array(let list) = x { values = list } else { values = [x] }
          for x in values {
            guard case .number(let d) = x, d >= 0, !d.isSubnormal else {
              throw Problem(
                description: "\(path).\(k).\(s) is \(_shown(x)): a statistic is a number at least 0, not subnormal")
            }
          }
        }
        // Every other object is a summary of frames.
        if k != Metric.instructionsKey && k != "series" {
          try checkSummary(v, "\(path).\(k)", isFrame: k == "frameNs")
        }
      default: break
      }
    }
    if case .number(let f)? = r["animatedFraction"], f > 1 {
      throw Problem(description: "\(path).animatedFraction is \(f), not within [0, 1]")
    }
  }

  static func checkSummary(_ v: JSONValue, _ path: String, isFrame: Bool) throws(Problem) {
    func stat(_ name: String) throws(Problem) -> Double {
      guard case .number(let d)? = v[name] else { throw Problem(description: "\(path) has no number '\(name)'") }
      return d
    }
    let count = try stat("count")
    guard count.rounded() == count else { throw Problem(description: "\(path).count is \(count), not an integer") }
    guard count > 0 else {
      if isFrame { throw Problem(description: "\(path).count is 0: a result of no frames") }
      return
    }
    let (lo, median, mean, p90, p99, hi) = (
      try stat("min"), try stat("median"), try stat("mean"), try stat("p90"), try stat("p99"), try stat("max")
    )
    // The mean of Double samples can pass an extreme by rounding: a relative hair of slack.
    let slack = hi * 1e-12
    guard lo <= median, median <= p90, p90 <= p99, p99 <= hi, mean >= lo - slack, mean <= hi + slack else {
      throw Problem(
        description:
          "\(path): min \(lo), median \(median), mean \(mean), p90 \(p90), p99 \(p99), max \(hi) are not in order"
      )
    }
    if isFrame && mean <= 0 { throw Problem(description: "\(path).mean is \(mean): a frame takes time") }
  }

  /// Every number in `v` is finite (a parser may read 1e999 as infinity).
  static func checkFinite(_ v: JSONValue, _ path: String) throws(Problem) {
    switch v {
    case .number(let d): if !d.isFinite { throw Problem(description: "\(path) is not a finite number") }
    case .array(let a): for (i, x) in a.enumerated() { try checkFinite(x, "\(path)[\(i)]") }
    case .object(let m): for (k, x) in m { try checkFinite(x, "\(path).\(k)") }
    default: break
    }
  }
}

/// A value as a problem names it: the number, or its type.
func _shown(_ v: JSONValue?) -> String {
  switch v {
  case .number(let d)?: "\(d)"
  case .string(let s)?: "\"\(s.prefix(40))\""
  case let v?: v.typeName
  case nil: "missing"
  }
}

/// A number as a key prints it: integers without a fraction.
func _keyNumber(_ d: Double) -> String {
  d.rounded() == d && Swift.abs(d) < 9.0e15 ? String(Int64(d)) : "\(d)"
}
