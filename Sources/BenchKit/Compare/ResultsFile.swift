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
    self.meta = meta
    thresholds = try Self.thresholds(doc["thresholds"])
    var seen = Set<Key>()
    results = []
    for (i, r) in list.enumerated() {
      guard case .object = r else { throw Problem(description: "results[\(i)] is \(r.typeName), not an object") }
      try Self.checkFinite(r, "results[\(i)]")
      var fields: [String] = []
      for k in Self.keyFields {
        switch r[k] {
        case .string(let s)?: fields.append(s)
        case .number(let n)?: fields.append(_keyNumber(n))
        case let v?: throw Problem(description: "results[\(i)].\(k) is \(v.typeName)")
        case nil: throw Problem(description: "results[\(i)] has no '\(k)'")
        }
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

/// A number as a key prints it: integers without a fraction.
func _keyNumber(_ d: Double) -> String {
  d.rounded() == d && Swift.abs(d) < 9.0e15 ? String(Int64(d)) : "\(d)"
}
