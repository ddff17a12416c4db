/// Chooses how long a time window a windowed index uses, from what it trades: longer windows
/// hold more candidates (bounds grow with the window, so queries test more), shorter ones are
/// built more often (on the builder's thread, which must finish a window before the window it
/// answers for ends). After each window it compares the queries' work per frame (candidates at
/// an estimated 60 ns each, index entries at 2 ns) with the build's per frame and scales the
/// next window by the square root of their ratio (at most 8x either way; unchanged within a
/// factor of 2), but never below 2.5 times the last build's wall time (so the next window is
/// ready in time) or 1/60 s, nor above 4 s. A pinned length (`StrategyOptions.windowSeconds`)
/// is kept whatever it costs.
struct WindowLength {
  var seconds: Double
  let pinned: Double?
  var frames = 0
  var candidates = 0
  /// Index entries scanned by queries, at `nanosecondsPerEntry`.
  var scanned = 0
  var buildNanoseconds: UInt64 = 0

  static let minimum = 1.0 / 60
  static let maximum = 4.0
  static let nanosecondsPerCandidate = 60.0
  static let nanosecondsPerEntry = 2.0

  init(pinned: Double?) {
    self.pinned = pinned
    seconds = pinned ?? 1.0 / 15
  }

  /// Called when a window ends, with the wall time of the build of the one after it: adapts
  /// the length and starts counting the next window.
  mutating func windowEnded(lastBuild: UInt64) {
    defer {
      frames = 0
      candidates = 0
      scanned = 0
    }
    if let pinned {
      seconds = pinned
      return
    }
    guard frames > 0 else { return }
    let build = Double(lastBuild) / Double(frames)
    let queries =
      (Double(candidates) * Self.nanosecondsPerCandidate + Double(scanned) * Self.nanosecondsPerEntry) / Double(frames)
    // The build's share per frame falls as 1 / length, candidates grow with it: the balance is
    // near length x sqrt(build / queries).
    let ratio = build / Swift.max(queries, 1)
    if ratio > 2 || ratio < 0.5 {
      seconds *= Swift.min(Swift.max(ratio.squareRoot(), 1.0 / 8), 8)
    }
    let ready = 2.5 * Double(lastBuild) / 1e9
    seconds = Swift.min(Swift.max(seconds, ready, Self.minimum), Self.maximum)
  }
}
