/// The output formats of `hitbench run`.
public enum ReportFormat: String, CaseIterable, Sendable {
  case table, json, csv, markdown
}
