/// Where a record's local time, over a window [tau0, tau1] of it, passes an iteration boundary
/// or a key time: what `FrozenAnimationProgram.breakpoints` and `positionKnots` both walk, in
/// ascending local time, telling a sink (`_BreakpointSink`) each one. A generic sink, not a
/// closure: it is specialised and inlined, and a closure capturing the sink's count could box it.
struct _LocalTimeWalk {
  let tau0: Double
  let tau1: Double
  let duration: Double
  let begin: Double
  let offset: Double
  let speed: Double
  let autoreverses: Bool
  /// The iterations the window's ends fall in, by the evaluation's floor(tau / d).
  let first: Double
  let last: Double

  /// nil when the iterations are more than `capacity` or too many for Double to count by ones.
  @inline(__always) init?(
    tau0: Double, tau1: Double, duration d: Double, timing: MediaTiming, capacity: Int
  ) {
    (self.tau0, self.tau1, duration) = (tau0, tau1, d)
    (begin, offset, speed, autoreverses) = (timing.beginTime, timing.timeOffset, timing.speed, timing.autoreverses)
    first = (tau0 / d).rounded(.down)
    last = (tau1 / d).rounded(.down)
    guard first.magnitude < 0x1p40, last.magnitude < 0x1p40, last - first < Double(capacity) else { return nil }
  }

  /// The clock time of local time tau.
  @inline(__always) func clock(_ tau: Double) -> Double { begin + (tau - offset) / speed }

  /// Whether iteration i runs backwards (an odd one, with autoreverses).
  @inline(__always) func mirrored(_ i: Double) -> Bool { autoreverses && i.truncatingRemainder(dividingBy: 2) != 0 }

  /// Tells `sink` the boundary before every iteration after the first, at the clock time of
  /// i x d clamped into the window: the evaluation decides the iteration by floor(tau / d), not
  /// by comparing tau with the product, so a window whose end rounds onto the next iteration
  /// crosses that boundary even when i x d is not below the end's local time (docs/time-aware.md,
  /// "Iteration boundaries"); and every inner key j of `keyTimes` (1 to count - 2) strictly
  /// inside the window, ascending in local time (in a mirrored iteration, from the last key).
  /// false as soon as the sink is full.
  @inline(__always) func walk<Sink: _BreakpointSink>(keyTimes kt: UnsafeBufferPointer<Double>, _ sink: inout Sink)
    -> Bool
  {
    var i = first
    while i <= last {
      let mirrored = mirrored(i)
      if i > first {
        let at = clock(Swift.min(Swift.max(i * duration, tau0), tau1))
        // With autoreverses, iterations alternate: the one before runs the other way.
        guard sink.boundary(at: at, mirrored: mirrored, previousMirrored: autoreverses && !mirrored) else {
          return false
        }
      }
      if kt.count > 2 {
        let origin = i * duration
        for step in 1..<(kt.count - 1) {
          let j = mirrored ? kt.count - 1 - step : step
          let tau = origin + (mirrored ? 1 - kt[j] : kt[j]) * duration
          guard tau > tau0 && tau < tau1 else { continue }
          guard sink.key(j, keyTime: kt[j], at: clock(tau)) else { return false }
        }
      }
      i += 1
    }
    return true
  }
}

/// What `_LocalTimeWalk.walk` tells: an iteration boundary (the previous iteration's end and
/// this one's start, at one clock time; `mirrored`, `previousMirrored`: whether this one and
/// the one before run backwards) and key j (at key time `keyTime`, a progress). Each answers
/// false when full.
protocol _BreakpointSink {
  mutating func boundary(at clock: Double, mirrored: Bool, previousMirrored: Bool) -> Bool
  mutating func key(_ j: Int, keyTime: Double, at clock: Double) -> Bool
}

/// Breakpoints with their progress: a boundary as both progress values (the value may jump
/// there), a key time as its own.
struct _ProgressBreakpoints: _BreakpointSink {
  let out: UnsafeMutablePointer<Double>
  let progress: UnsafeMutablePointer<Double>
  let capacity: Int
  var count = 0

  @inline(__always) mutating func boundary(at clock: Double, mirrored: Bool, previousMirrored: Bool) -> Bool {
    guard count + 2 <= capacity else { return false }
    out[count] = clock
    progress[count] = 0
    out[count + 1] = clock
    progress[count + 1] = 1
    count += 2
    return true
  }

  @inline(__always) mutating func key(_ j: Int, keyTime: Double, at clock: Double) -> Bool {
    guard count < capacity else { return false }
    out[count] = clock
    progress[count] = keyTime
    count += 1
    return true
  }
}
