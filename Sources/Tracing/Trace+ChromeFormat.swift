/// The trace event format that Perfetto and chrome://tracing open: one JSON object with a
/// `traceEvents` array. Times are in microseconds (with the nanoseconds as decimals), from
/// the first event.
extension Trace {
  /// Writes `events` as a trace document through `write`, in pieces: processes and threads
  /// named first, then the events by start time. `dropped` events that did not fit are noted
  /// in `otherData`.
  public static func writeChromeFormat(
    _ events: [Event], dropped: Int, processes: [String], threads: [(id: Int, name: String)],
    _ write: (String) -> Void
  ) {
    let origin = events.map(\.start).min() ?? 0
    write("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"droppedEvents\": \(dropped)},\n\"traceEvents\": [\n")
    var first = true
    func emit(_ line: String) {
      write(first ? line : ",\n" + line)
      first = false
    }
    let used = Set(events.map { Int($0.process) })
    // Process 0: work before any strategy's first block (the untimed builds of the setup).
    for (pid, name) in [(0, "setup (untimed)")] + processes.enumerated().map({ ($0 + 1, $1) })
    where used.contains(pid) {
      emit("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": \(pid), \"args\": {\"name\": \(_quoted(name))}}")
      for t in threads {
        emit(
          "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": \(pid), \"tid\": \(t.id), "
            + "\"args\": {\"name\": \(_quoted(t.name))}}")
      }
    }
    for e in events.sorted(by: { ($0.start, $0.duration) < ($1.start, $1.duration) }) {
      let ts = _microseconds(e.start &- origin)
      var line = "{\"name\": \"\(e.name.label)\", \"ph\": \"\(e.name.phase)\", \"ts\": \(ts), "
      line += "\"pid\": \(e.process), \"tid\": \(e.thread)"
      switch e.name.phase {
      case "X":
        line += ", \"dur\": \(_microseconds(e.duration))"
        if e.frame >= 0 { line += ", \"args\": {\"frame\": \(e.frame), \"measured\": \(e.measured)}" }
      case "C": line += ", \"args\": {\"value\": \(e.value.isFinite ? "\(e.value)" : "0")}"
      default: line += ", \"s\": \"t\""
      }
      emit(line + "}")
    }
    write("\n]}\n")
  }
}

/// Nanoseconds as microseconds with three decimals, exactly ("1234.567").
func _microseconds(_ ns: UInt64) -> String {
  let frac = ns % 1000
  return "\(ns / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
}

/// A JSON string literal.
func _quoted(_ s: String) -> String {
  var out = "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case _ where u.value < 0x20: out += "\\u00" + (u.value < 16 ? "0" : "") + String(u.value, radix: 16)
    default: out.unicodeScalars.append(u)
    }
  }
  return out + "\""
}
