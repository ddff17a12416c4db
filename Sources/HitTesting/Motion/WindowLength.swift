/// Chooses how long a time window (or segment) an index over motion bounds uses, from the two
/// costs it trades: re-indexing (paid once per window, so less per frame when windows are
/// long) against candidates (boxes grow with the window, so queries test more). After each
/// window it compares the measured re-index time per frame with the queries' work per frame
/// (candidates at an estimated 100 ns each, index entries scanned at 2 ns) and moves toward where they balance: the next window's length is
/// scaled by the square root of their ratio (at most 8x either way; unchanged within a factor
/// of 2), so a scene whose first window is far off (a million fast particles) converges in a
/// window or two. Between 1/120 s and 4 s.
public struct WindowLength {
  var seconds = WindowLength.pinnedSeconds ?? 1.0 / 15
  var frames = 0
  var candidates = 0
  /// Index entries scanned by queries (cell and overflow lists), at `nanosecondsPerEntry`.
  var scanned = 0
  var reindexNs: UInt64 = 0

  static let minimum = 1.0 / 120
  static let maximum = 4.0
  static let nanosecondsPerCandidate = 100.0
  static let nanosecondsPerEntry = 2.0

  /// A fixed window length for every time-aware strategy created from now on (nil: chosen by
  /// cost). For measuring how the length trades bound size against re-index cost
  /// (`hitbench run --window`); set between runs, never while strategies update.
  nonisolated(unsafe) public static var pinnedSeconds: Double?

  /// Called when a window ends: adapts the length from the window's costs and starts counting
  /// the next one.
  mutating func windowEnded() {
    if let pinned = Self.pinnedSeconds {
      seconds = pinned
    } else if frames > 0 {
      let reindex = Double(reindexNs) / Double(frames)
      let queries =
        (Double(candidates) * Self.nanosecondsPerCandidate + Double(scanned) * Self.nanosecondsPerEntry)
        / Double(frames)
      // Re-index cost per frame falls as 1/length, candidates grow with it: the balance is
      // near length * sqrt(reindex / queries).
      let ratio = reindex / Swift.max(queries, 1)
      if ratio > 2 || ratio < 0.5 {
        let scale = Swift.min(Swift.max(ratio.squareRoot(), 1.0 / 8), 8)
        seconds = Swift.min(Swift.max(seconds * scale, Self.minimum), Self.maximum)
      }
    }
    frames = 0
    candidates = 0
    scanned = 0
    reindexNs = 0
  }
}
