/// Chooses how long a time window a windowed index uses, from what it trades: longer windows
/// hold more candidates (bounds grow with the window, so queries test more), shorter ones are
/// built more often. After each window it compares what the window costs the queries per frame
/// (their measured time, in the share of candidates beyond one a query: the ones a tighter
/// bound would not propose; at least 60 ns a candidate and 2 ns an index entry scanned) with
/// the builds' per frame (a build on the builder's thread, which runs beside the frames, at a
/// tenth of its wall time: its cost is the second core's, reported as CPU time) and scales
/// the next window by the square root of their ratio (at most 8x either way; unchanged within
/// a factor of 2). A window built in the background is never shorter than 2.5 times the last
/// build, in the wall time its frames take (frames that come faster than their clock, as in a
/// back-to-back benchmark, give the builder less time per window), so the next window is
/// ready before it is needed; never shorter than 1/60 s nor longer than 4 s. A pinned length
/// (`StrategyOptions.windowSeconds`) is kept whatever it costs.
struct WindowLength {
  var seconds: Double
  let pinned: Double?
  /// Whether the builds run on another thread beside the frames (the windowed strategies) or
  /// in the frames themselves (`stagger-grid`).
  let buildsInBackground: Bool
  var frames = 0
  var candidates = 0
  /// Index entries scanned by queries, at `nanosecondsPerEntry`.
  var scanned = 0
  /// Wall time and clock time between the updates of this window's frames.
  var wallNanoseconds: UInt64 = 0
  var clockSeconds = 0.0
  var _lastWall: UInt64 = 0
  var _lastClock = Double.nan

  static let minimum = 1.0 / 60
  static let maximum = 4.0
  static let nanosecondsPerCandidate = 60.0
  static let nanosecondsPerEntry = 2.0
  /// What a background build's wall time counts for against the frames' own work.
  static let backgroundWeight = 0.1
  /// The queries' measured wall time over this window's frames, and how many queries.
  var queryNanoseconds: UInt64 = 0
  var queries = 0

  init(pinned: Double?, buildsInBackground: Bool = true) {
    self.pinned = pinned
    self.buildsInBackground = buildsInBackground
    seconds = pinned ?? 1.0 / 15
  }

  /// Called at each update with the monotonic clock and the frame's clock time: the wall time
  /// frames take against the clock time they advance.
  mutating func frameStarted(wall: UInt64, clock: Double) {
    frames += 1
    if _lastWall > 0 && wall > _lastWall && clock > _lastClock && clock - _lastClock < 1 {
      wallNanoseconds &+= wall &- _lastWall
      clockSeconds += clock - _lastClock
    }
    _lastWall = wall
    _lastClock = clock
  }

  /// Called when a window ends, with the wall time of the build of the one after it: adapts
  /// the length and starts counting the next window.
  mutating func windowEnded(lastBuild: UInt64) {
    defer {
      frames = 0
      candidates = 0
      scanned = 0
      wallNanoseconds = 0
      clockSeconds = 0
      queryNanoseconds = 0
      queries = 0
    }
    if let pinned {
      seconds = pinned
      return
    }
    guard frames > 0 else { return }
    let weight = buildsInBackground ? Self.backgroundWeight : 1
    let build = weight * Double(lastBuild) / Double(frames)
    let estimated = Double(candidates) * Self.nanosecondsPerCandidate + Double(scanned) * Self.nanosecondsPerEntry
    let perQuery = queries > 0 ? Double(candidates) / Double(queries) : 0
    let excess = perQuery > 1 ? (perQuery - 1) / perQuery : 0
    let queries = Swift.max(estimated, Double(queryNanoseconds) * excess) / Double(frames)
    // The build's share per frame falls as 1 / length, candidates grow with it: the balance is
    // near length x sqrt(build / queries).
    let ratio = build / Swift.max(queries, 1)
    if ratio > 2 || ratio < 0.5 {
      seconds *= Swift.min(Swift.max(ratio.squareRoot(), 1.0 / 8), 8)
    }
    var ready = 0.0
    if buildsInBackground {
      // Clock seconds per wall second of frames: 1 at real time, more when frames run faster.
      let pace = wallNanoseconds > 0 && clockSeconds > 0 ? clockSeconds / (Double(wallNanoseconds) / 1e9) : 1
      ready = 2.5 * Double(lastBuild) / 1e9 * Swift.max(pace, 1)
    }
    seconds = Swift.min(Swift.max(seconds, ready, Self.minimum), Self.maximum)
  }
}
