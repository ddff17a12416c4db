/// Chooses how long a time window (or segment) an index over motion bounds uses, from the two
/// costs it trades: re-indexing (paid once per window, so less per frame when windows are
/// long) against candidates (boxes grow with the window, so queries test more). After each
/// window it compares the measured re-index time per frame with the candidates per frame at
/// an estimated 100 ns each: the next window is twice as long when re-indexing costs more, half
/// as long when it costs less than a quarter of the candidates. Between 1/120 s and 4 s.
struct WindowLength {
  var seconds = 1.0 / 15
  var frames = 0
  var candidates = 0
  var reindexNs: UInt64 = 0

  static let minimum = 1.0 / 120
  static let maximum = 4.0
  static let nanosecondsPerCandidate = 100.0

  /// Called when a window ends: adapts the length from the window's costs and starts counting
  /// the next one.
  mutating func windowEnded() {
    if frames > 0 {
      let reindex = Double(reindexNs) / Double(frames)
      let queries = Double(candidates) * Self.nanosecondsPerCandidate / Double(frames)
      if reindex > queries {
        seconds = Swift.min(seconds * 2, Self.maximum)
      } else if reindex * 4 < queries {
        seconds = Swift.max(seconds / 2, Self.minimum)
      }
    }
    frames = 0
    candidates = 0
    reindexNs = 0
  }
}
