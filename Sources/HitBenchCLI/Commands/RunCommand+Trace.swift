import BenchKit
import FileIO
import Tracing

/// `run --trace FILE.json`: the run's timeline in the trace event format (`Trace`).
enum TraceFile {
  /// Events a frame records at most on average: its frame, build, update and queries slices,
  /// two counters, the build workers' jobs (a few passes a build), a background build and a
  /// held wait now and then.
  static let eventsPerFrame = 24
  /// The buffer's bounds: at least 2^14 events, at most 2^21 (80 MiB; a longer run keeps its
  /// first 2^21 events and notes how many it dropped).
  static let capacityBounds = (1 << 14)...(1 << 21)

  /// The events the run's frames may record, within `capacityBounds`.
  static func capacity(_ configs: [RunConfiguration]) -> Int {
    var frames = 0
    for c in configs {
      let (n, overflow) = (c.warmup + c.longestFrames).multipliedReportingOverflow(
        by: Swift.max(c.repeats, 1) * c.strategies.count * c.queries.count)
      frames = overflow ? Int.max / 2 : Swift.min(frames + n, Int.max / 2)
    }
    let (events, overflow) = frames.multipliedReportingOverflow(by: eventsPerFrame)
    return Swift.min(Swift.max(overflow ? Int.max : events, capacityBounds.lowerBound), capacityBounds.upperBound)
  }

  /// Stops recording and writes what was recorded to `path` (atomically).
  static func write(to path: String) throws(CommandError) {
    let (events, dropped) = Trace.stop()
    let processes = Trace.processNames
    let threads = TraceThreads.names
    do {
      try FileIO.writeAtomically(to: path) { sink in
        Trace.writeChromeFormat(events, dropped: dropped, processes: processes, threads: threads) { sink.write($0) }
      }
    } catch { throw .file(error) }
    if dropped > 0 {
      Output.err("run: the trace kept its first \(events.count) events and dropped \(dropped)\n")
    }
  }
}
