/// A run's metadata, results, and (for a suite) its thresholds and target verdicts, rendered in
/// any format: the table and Markdown show the chosen columns (`ReportColumn`), JSON and CSV
/// every field (docs/results-schema.md).
public struct RunReport: Sendable {
  public var meta: RunMeta
  public var results: [Measurement]
  /// The suite that was run, if any.
  public var suite: String?
  /// What `compare` checks, per metric (the suite's, or `Suite.defaultThresholds`).
  public var thresholds: [Metric: Threshold]
  /// The suite's targets, evaluated on `results`.
  public var targets: [(name: String, verdict: TargetVerdict)]
  /// The table's and Markdown's columns.
  public var columns: [ReportColumn]

  public init(
    meta: RunMeta, results: [Measurement], suite: String? = nil,
    thresholds: [Metric: Threshold] = Suite.defaultThresholds, targets: [(name: String, verdict: TargetVerdict)] = [],
    columns: [ReportColumn] = ReportColumn.defaults
  ) {
    self.meta = meta
    self.results = results
    self.suite = suite
    self.thresholds = thresholds
    self.targets = targets
    self.columns = columns
  }

  public func render(_ format: ReportFormat) -> String {
    switch format {
    case .table: table()
    case .json: json().serialized(indent: 1) + "\n"
    case .csv: csv()
    case .markdown: markdown()
    }
  }

  /// The same configuration's tree-walk result, for the speed-up column.
  func baseline(_ m: Measurement) -> Measurement? {
    results.first {
      $0.strategy == "tree-walk" && $0.configuration == m.configuration && $0.queriesPerFrame == m.queriesPerFrame
    }
  }
}
