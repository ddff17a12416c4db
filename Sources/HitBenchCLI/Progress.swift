/// Progress on stderr, only when stderr is a terminal (stdout holds only results).
final class Progress {
  let total: Int
  let label: String
  let enabled: Bool
  var last = -1

  init(total: Int, label: String) {
    self.total = total
    self.label = label
    self.enabled = Output.stderrIsTerminal
  }

  func update(_ done: Int) {
    guard enabled, total > 0 else { return }
    let percent = done * 100 / total
    if percent != last {
      last = percent
      Output.err("\r\(label): \(percent)%")
    }
  }

  func finish() {
    if enabled && last >= 0 { Output.err("\r\u{1B}[K") }
  }
}
