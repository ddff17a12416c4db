import Glibc

/// Chooses how long a time window a windowed index uses, from what it trades: longer windows
/// hold more candidates (bounds grow with the window, so queries test more), shorter ones are
/// built more often. After each window it compares what the window costs the queries per frame
/// (their measured time, in the share of candidates beyond one a query: the ones a tighter
/// bound would not propose; at least 60 ns a candidate beyond one a query and 2 ns an index
/// entry scanned) with the builds' per frame (a build on the builder's thread, which runs
/// beside the frames, counted by `WindowCost`: by the wall time, at a tenth of its time, the
/// second core as nearly free; by the CPU, in full; plus all of what it took beyond the wall time of the
/// window's frames: that much the frame crossing into the next window waited). Built in the
/// background (by the wall time or the CPU alike), from the ended window's own length it moves
/// half way (geometrically, at most 2x a step) towards the length where the builds' cost per
/// frame is the queries' growth times theirs, the least of the sum when the queries grow as a
/// power of the length (a full step on one window's costs swings, and a window's costs taken
/// for another's length sent a million particles' windows to seconds: docs/optimisation-log.md,
/// entries 39, 45 and 54). With the build in the frames (`stagger-grid`) it scales the next
/// window by the square root of their ratio (at most 8x either way; unchanged within a factor
/// of 2). A window built
/// in the background is then lengthened to `readyMargin` times the last build, in the wall
/// time its frames take, so the next window is ready before it is needed, but never past the
/// length where the queries (their cost grown as the square of the length, the steepest the
/// balance allows) would fill the frame's interval: a build that cannot keep up below that
/// makes frames wait, and the wait is counted in the balance. Never shorter than 1/60 s nor
/// longer than 4 s. A pinned length (`StrategyOptions.windowSeconds`) is kept whatever it
/// costs.
struct WindowLength {
  var seconds: Double
  let pinned: Double?
  /// Whether the builds run on another thread beside the frames (the windowed strategies) or
  /// in the frames themselves (`stagger-grid`).
  let buildsInBackground: Bool
  var frames = 0
  var candidates = 0
  /// Candidates beyond the one a query's answer needs (all of a query that finds nothing): the
  /// ones a tighter bound would not propose, counted by each query (`WindowSearch`).
  var beyondOne = 0
  /// Index entries scanned by queries, at `nanosecondsPerEntry`.
  var scanned = 0
  /// Wall time and clock time between the updates of this window's frames.
  var wallNanoseconds: UInt64 = 0
  var clockSeconds = 0.0
  var _lastWall: UInt64 = 0
  var _lastClock = Double.nan

  /// How far past its hand-over a window's bounds reach, as a share of its length
  /// (`StrategyOptions.windowOverlap`): a frame that arrives there before the next window is
  /// built answers from this one, exactly, rather than wait (docs/time-aware.md).
  let overlap: Double
  /// How far past its hand-over the bounds of a window of the length in force reach, for a
  /// window that starts at clock time `start` and is built from clock time `now` (`built`: it
  /// is already). The builder starts the next window's build when this one takes over, so this
  /// one's bounds must last until that build is done: the overlap asked for, or more when the
  /// last build (`readyMargin` times over, at the frames' pace) would not be done by the
  /// hand-over, counting from when this window itself is expected to take over (later than its
  /// start when its own build is not done by then). Before any build has been measured (a
  /// restart's first window, built before the restart's build is timed), `maximumOverlap`
  /// lengths. A frame past a hand-over then answers from the window's overlap, exactly,
  /// and counts as late, while the next is built, instead of waiting (docs/time-aware.md).
  /// Never more than `maximumOverlap` lengths: a build that cannot keep up even then makes
  /// frames wait, and the balance counts the wait. A pinned length's windows keep the overlap
  /// asked for.
  func overlapSeconds(from start: Double, now: Double, built: Bool) -> Double {
    let asked = seconds * overlap
    // A pinned length keeps the overlap asked for: its windows are then the same in every run
    // whatever the builds take (`hittest --replay` reproduces a run's windows by it).
    if pinned != nil { return asked }
    guard let build = buildClockSeconds else { return seconds * Swift.max(overlap, Self.maximumOverlap) }
    let takeover = built ? now : now + build
    let needed = Swift.max(takeover - start, 0) + Self.readyMargin * build - seconds
    return Swift.max(asked, Swift.min(needed, seconds * Self.maximumOverlap))
  }
  /// The most a window's bounds reach past its hand-over when its next build is not expected to
  /// be done by then, in lengths.
  static let maximumOverlap = 2.0
  /// The last background build's wall time, in the clock seconds the frames advanced meanwhile
  /// (until a window has ended, a restart's build; nil before).
  var buildClockSeconds: Double?

  static let minimum = 1.0 / 60
  static let maximum = StrategyOptions.longestWindowSeconds
  static let nanosecondsPerCandidate = 60.0
  static let nanosecondsPerEntry = 2.0
  /// What a background build's time counts for against the frames' own work when the cost is
  /// the wall time (`WindowCost.wall`; in full when it is the CPU).
  static let backgroundWeight = 0.1
  /// What the length minimises.
  let cost: WindowCost
  /// The least growth a balance assumes: the optimum puts the builds' cost per frame at the
  /// growth times the queries', and a growth near 0 would take any window as free.
  static let leastGrowth = 0.5
  /// How many times over a background build must fit in its window's wall time: builds of the
  /// same length vary by a fifth from one window to the next on a shared host, and a window
  /// longer than the last is built beside a shorter one (docs/optimisation-log.md, entry 56).
  static let readyMargin = 1.5
  /// The growth the balance's measurement is clamped to at most. The candidates beyond one a
  /// query can grow faster than the area the boxes sweep (a million particles: 0.8, 1.9, 6 and
  /// 14 at 88, 150, 250 and 350 ms windows, about the 2.5th power).
  static let steepestGrowth = 3.0
  /// The growth the readiness floor's cap assumes of the queries' wall time, whatever was
  /// measured (a box swept over a longer window grows in two directions): the cap is a bound,
  /// and the growth of a length not yet run is a guess.
  static let cappedGrowth = 2.0
  /// The queries' cost per frame against the window length, as a power: the least-squares
  /// slope of the logarithm of their cost against the logarithm of the length over the changes
  /// between successive windows (`_growthFit`: sums of squares and products, each window's
  /// weighing `growthMemory` times the next's), starting from a growth of 1 that weighs as one
  /// change of the length by 14% (`growthPriorWeight`). A change weighs as its square, so a
  /// length that moves by a few percent, whose costs' noise would swing a ratio of two windows,
  /// moves the fit little; and one that never moves by a fifth is still measured (a
  /// threshold of a fifth left a cubic growth unmeasured, at 14% above its least:
  /// `WindowLengthTests`; docs/optimisation-log.md, entry 61).
  var growth = 1.0
  var _growthFit = (squares: 0.0, products: 0.0)
  static let growthMemory = 0.9
  static let growthPriorWeight = 0.02
  var _last: (seconds: Double, queryCost: Double)?
  /// The queries' measured wall time over this window's frames, and how many queries.
  var queryNanoseconds: UInt64 = 0
  var queries = 0

  init(pinned: Double?, buildsInBackground: Bool = true, cost: WindowCost = .wall, overlap: Double = 0) {
    self.pinned = pinned
    self.buildsInBackground = buildsInBackground
    self.cost = cost
    self.overlap = overlap
    seconds = pinned ?? 1.0 / 15
  }

  /// Called at each update with the monotonic clock and the frame's clock time: the wall time
  /// frames take against the clock time they advance.
  mutating func frameStarted(wall: UInt64, clock: Double) {
    frames += 1
    if _lastWall > 0 && wall > _lastWall && clock > _lastClock && clock - _lastClock < 1 {
      wallNanoseconds &+= wall &- _lastWall
      clockSeconds += clock - _lastClock
      frameStep = clock - _lastClock
    }
    _lastWall = wall
    _lastClock = clock
  }

  /// The clock time the last frame advanced, and the clock seconds per wall second of the
  /// frames of the last window ended (0: not measured).
  var frameStep = 0.0
  var lastPace = 0.0

  /// When (monotonic nanoseconds) the first frame whose clock reaches `clock` is expected to
  /// start, from the last frame's start and the pace of the last window's frames; 0 where that
  /// is not known (no pace measured, or not ahead).
  func expectedStart(ofClock clock: Double) -> UInt64 {
    guard lastPace > 0, frameStep > 0, _lastWall > 0, clock > _lastClock else { return 0 }
    // Frames advance the clock a step at a time: the first at or past `clock`.
    let reached = _lastClock + ((clock - _lastClock) / frameStep).rounded(.up) * frameStep
    let wall = (reached - _lastClock) / lastPace * 1e9
    guard wall.isFinite, wall < 1e12 else { return 0 }
    return _lastWall &+ UInt64(wall)
  }

  /// Starts counting a window's frames, queries and times afresh.
  mutating func beginCounting() {
    frames = 0
    candidates = 0
    beyondOne = 0
    scanned = 0
    wallNanoseconds = 0
    clockSeconds = 0
    queryNanoseconds = 0
    queries = 0
  }

  /// Called when a window ends, with the wall time of the build of the one after it and (for
  /// windows built in the background) the ended window's own length, which the counts were
  /// taken over, and how far its bounds reached (its length and overlap): adapts the length
  /// and starts counting the next window.
  mutating func windowEnded(
    lastBuild: UInt64, endedSeconds: Double? = nil, endedSpan: Double? = nil, growingAtMost mostGrowth: Double = 8
  ) {
    defer { beginCounting() }
    // Clock seconds per wall second over this window's frames: 1 at real time, more when
    // frames come faster than their clock (back to back, or catching up after a late one),
    // less when they fall behind it. Never less than 1 for what a build takes of the clock:
    // frames that fell behind catch up after, and a window after slow frames, built as if the
    // clock would stay slow, made the next frame wait (docs/optimisation-log.md, entry 56).
    let paced = wallNanoseconds > 0 && clockSeconds > 0
    let pace = paced ? clockSeconds / (Double(wallNanoseconds) / 1e9) : 1
    lastPace = paced ? pace : 0
    let buildClock = Double(lastBuild) / 1e9 * Swift.max(pace, 1)
    if buildsInBackground { buildClockSeconds = buildClock }
    if let pinned {
      seconds = pinned
      return
    }
    guard frames > 0 else { return }
    // The counts are the ended window's, and a background window was posted before the last
    // decision, so its length may not be the one in force.
    let byCPU = buildsInBackground && cost == .cpu
    let measured =
      buildsInBackground ? endedSeconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? seconds : seconds
    // A background build ran beside this window's frames; what it took beyond their wall
    // time, the frame that crossed into the next window waited for. The overlap is not
    // counted here: it is a margin for a build later than the balance expects, and builds
    // that do not keep up with the windows fall further behind each window, overlap or not
    // (counted, linear-bvh on particles 100,000 chose windows of 31-44 ms against 65-84 and
    // waited in 53 and 79 frames of 240 against 9-18: docs/optimisation-log.md, entry 49).
    let waited = buildsInBackground && lastBuild > wallNanoseconds ? Double(lastBuild - wallNanoseconds) : 0
    let weight = buildsInBackground && !byCPU ? Self.backgroundWeight : 1
    let build = (weight * Double(lastBuild) + waited) / Double(frames)
    // The floor counts the candidates beyond the one a query's answer needs too (`beyondOne`,
    // by query): a query whose point is on a layer tests that layer however tight the bounds,
    // so that candidate costs the same at any length, and counted as growing with it they held
    // a still screen's windows at 50 ms (docs/optimisation-log.md, entry 61).
    let estimated = Double(beyondOne) * Self.nanosecondsPerCandidate + Double(scanned) * Self.nanosecondsPerEntry
    // Their share of all candidates: the share of the measured time they took.
    let excess = beyondOne > 0 ? Double(beyondOne) / Double(candidates) : 0
    // The queries read bounds over the ended window's span; the next window's reach its
    // length and the overlap asked for: a window whose overlap was raised is read as one of
    // the span the next will have (in proportion: queries' costs grow at least so with it).
    let span = buildsInBackground ? endedSpan.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } : nil
    let spanShare = span.map { Swift.min(measured * (1 + overlap) / $0, 1) } ?? 1
    // What the queries cost a frame that a longer window adds to (ns).
    let queryCost = Swift.max(estimated, Double(queryNanoseconds) * excess) / Double(frames) * spanShare
    if buildsInBackground {
      // The build's share per frame falls as 1 / length and the queries' grows as length^g: the
      // sum is least where the build's share is g times the queries', at
      // measured x (build / (g x queryCost))^(1 / (1 + g)). Half the way there a window (the
      // geometric mean with the length in force), at most 2x a step: a decision acts a window
      // late, and a full step on a noisy measurement swings (entry 39).
      let g = Swift.max(growth, Self.leastGrowth)
      let ratio = build / Swift.max(g * queryCost, 1)
      if ratio > 1.25 || ratio < 0.8 {
        let optimum = measured * Swift.min(Swift.max(Glibc.pow(ratio, 1 / (1 + g)), 1.0 / 8), 8)
        seconds = Swift.min(Swift.max((seconds * optimum).squareRoot(), seconds / 2), seconds * 2)
      }
    } else {
      // Built in the frames (`stagger-grid`), each frame's share measured on it: the build's
      // share per frame falls as 1 / length, candidates grow with it, and the balance is near
      // length x sqrt(build / queryCost).
      let ratio = build / Swift.max(queryCost, 1)
      if ratio > 2 || ratio < 0.5 {
        seconds *= Swift.min(Swift.max(ratio.squareRoot(), 1.0 / 8), mostGrowth)
      }
    }
    if buildsInBackground {
      // How the queries' cost grows with the length: the fit over the windows' changes.
      if let last = _last, last.queryCost > 0, queryCost > 0 {
        let dx = Glibc.log(measured / last.seconds)
        let dy = Glibc.log(queryCost / last.queryCost)
        _growthFit.squares = Self.growthMemory * _growthFit.squares + dx * dx
        _growthFit.products = Self.growthMemory * _growthFit.products + dx * dy
        let slope = (_growthFit.products + Self.growthPriorWeight) / (_growthFit.squares + Self.growthPriorWeight)
        growth = Swift.min(Swift.max(slope, 0), Self.steepestGrowth)
      }
      _last = (measured, queryCost)
      // Long enough for the builder to finish the next window `readyMargin` times over in the
      // wall time this one's frames take (at their pace): a build that does not fit its
      // window's wall time makes a frame wait for it, and a wait lands whole on one frame, in
      // the p99, whatever its share of the mean. Not past the length where the queries alone
      // (their wall time, grown as the square of the length) would take the frame's whole
      // interval: a longer window's builds take longer too, and a floor priced by waits alone
      // ratcheted a million particles' windows to 2 s and frames to 800 ms
      // (docs/optimisation-log.md, entries 55 and 56).
      let ready = Self.readyMargin * buildClock
      if ready > seconds {
        // The queries' wall time grown by `cappedGrowth`, whatever was measured.
        let queryWall = Double(queryNanoseconds) / Double(frames) * spanShare
        // The clock a frame advanced (frames past a hand-over run into the overlap).
        let interval = (clockSeconds > 0 ? clockSeconds : measured) / Double(frames) * 1e9
        let cap =
          queryWall > 0
          ? measured * Glibc.pow(interval / queryWall, 1 / Self.cappedGrowth) : Self.maximum
        seconds = Swift.max(seconds, Swift.min(ready, cap))
      }
    }
    seconds = Swift.min(Swift.max(seconds, Self.minimum), Self.maximum)
  }
}
