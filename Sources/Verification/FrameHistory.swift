import LayerModel
import Scenes

/// A sequence of frames a strategy is driven through, as a run drives it: the clock time of each
/// frame (steady at a frame rate, or jumping forwards, backwards and far past the animations'
/// ends) and the time-aware strategies' window (chosen by cost, or pinned short or long). What a
/// strategy keeps from one frame to the next is only checked by such sequences: a fresh instance
/// at a single time never looks at a window built at an earlier frame.
public struct FrameHistory: Sendable, Equatable, CustomStringConvertible {
  /// A steady run of frames: frame i at `start + i / fps` (as a run's clock computes it, so a
  /// frame lands exactly where a run's would); a negative rate runs the clock backwards.
  public struct Run: Sendable, Equatable {
    public var start: Double
    public var frames: Int
    public var fps: Double

    public init(start: Double, frames: Int = 1, fps: Double = 60) {
      (self.start, self.frames, self.fps) = (start, frames, fps)
    }

    /// Frame i's clock time.
    @inline(__always) public func time(_ i: Int) -> Double { start + Double(i) / fps }
  }

  /// The runs, in order.
  public private(set) var runs: [Run]
  /// Each frame's clock time, in order.
  public private(set) var times: [Double]
  /// The pinned window, in milliseconds as `--window MS` takes it; nil: chosen by cost.
  public var windowMilliseconds: Double?
  /// The pinned window in seconds, as the CLI computes it from `--window MS`.
  public var windowSeconds: Double? { windowMilliseconds.map { $0 / 1000 } }

  public init(runs: [Run], windowMilliseconds: Double? = nil) {
    self.runs = runs.filter { $0.frames > 0 }
    times = self.runs.flatMap { r in (0..<r.frames).map { r.time($0) } }
    self.windowMilliseconds = windowMilliseconds
  }

  /// The first `count` frames.
  public func prefix(_ count: Int) -> FrameHistory {
    var left = count
    var out: [Run] = []
    for var r in runs where left > 0 {
      r.frames = Swift.min(r.frames, left)
      left -= r.frames
      out.append(r)
    }
    return FrameHistory(runs: out, windowMilliseconds: windowMilliseconds)
  }

  /// The runs as `hitbench hittest --replay` reads them: comma-separated, each a time `T` (one
  /// frame) or `START:FRAMES@FPS` (frame i at START + i / FPS); Double's shortest round-trip
  /// digits, so the replay's times are these, bit for bit.
  public var replaySpecification: String {
    runs.map { $0.frames == 1 ? "\($0.start)" : "\($0.start):\($0.frames)@\($0.fps)" }.joined(separator: ",")
  }

  /// Reads `replaySpecification`'s form; nil when malformed (a non-finite time or rate, a rate
  /// of 0, a frame count below 1) or longer than `limit` frames.
  public static func runs(parsing text: String, limit: Int) -> [Run]? {
    var out: [Run] = []
    var total = 0
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = item.split(separator: "@", omittingEmptySubsequences: false)
      let head = parts[0].split(separator: ":", omittingEmptySubsequences: false)
      guard let start = Double(head[0]), start.isFinite else { return nil }
      var run = Run(start: start)
      if parts.count == 2 && head.count == 2 {
        guard let n = Int(head[1]), n >= 1, let fps = Double(parts[1]), fps.isFinite, fps != 0 else { return nil }
        run.frames = n
        run.fps = fps
      } else if parts.count != 1 || head.count != 1 {
        return nil
      }
      total += run.frames
      guard total <= limit else { return nil }
      out.append(run)
    }
    return out
  }

  public var description: String {
    let w = windowMilliseconds.map { ", window \($0) ms" } ?? ""
    guard let first = times.first, let last = times.last else { return "no frames\(w)" }
    return "\(times.count) frames from t=\(first) to t=\(last)\(w)"
  }

  /// A random history of `frames` frames over a scene whose interesting clock times (iteration
  /// ends, key times, the ends of active periods: `boundaryTimes`) are `boundaries`: frames and
  /// window ends land on and next to them far more often than chance would put them there.
  public static func random(frames: Int, fps rate: Double, boundaries: [Double], rng: inout SplitMix64)
    -> FrameHistory
  {
    var fps = rate
    // A period of one of the scene's animations (the distance between two of its boundaries),
    // now and then, so every frame lands on a boundary.
    if boundaries.count >= 2 && rng.chance(0.15) {
      let i = rng.below(boundaries.count - 1)
      let gap = Swift.abs(boundaries[i + 1] - boundaries[i])
      if gap > 1e-3 && gap < 2 { fps = Double(1 + rng.below(4)) / gap }
    }
    let dt = 1 / fps
    func landing() -> Double {
      guard !boundaries.isEmpty, rng.chance(0.8) else { return rng.uniform(-0.5, 4) }
      let b = boundaries[rng.below(boundaries.count)]
      // On the boundary, or an ulp or a hair either side.
      return [b, b, b, b.nextUp, b.nextDown, b - 1e-9, b + 1e-9][rng.below(7)]
    }
    // The history starts at 0 (as a run's clock does), at a boundary, or a few frames before
    // one, so it crosses it; two in five are a run's steady clock from 0.
    let kind = rng.chance(0.4) ? 0 : rng.below(4)
    let rate = kind == 1 ? -fps : fps  // 1: a clock running backwards
    var run = Run(start: rng.chance(0.5) ? 0 : landing(), frames: 0, fps: rate)
    if run.start != 0 && rng.chance(0.5) { run.start -= Double(rng.below(Swift.max(frames / 2, 1))) / rate }
    var runs: [Run] = []
    for _ in 0..<frames {
      run.frames += 1
      guard kind >= 2 else { continue }  // 0 and 1: steady
      // Steady, with jumps: forwards, backwards, far past every end, onto a boundary. A jump
      // starts a new steady run from where it lands.
      let now = run.time(run.frames - 1)
      let next: Double
      switch rng.below(kind == 2 ? 40 : 12) {
      case 0: next = now + rng.uniform(0.05, 3)
      case 1: next = now - rng.uniform(0.01, 2)
      case 2: next = now + [50, 1000, 1e5][rng.below(3)]
      case 3: next = landing()
      default: continue
      }
      runs.append(run)
      run = Run(start: next, frames: 0, fps: rate)
    }
    runs.append(run)
    let window: Double?
    switch rng.below(20) {
    case 0..<7: window = nil
    // A few frames long, as the shortest windows chosen by cost are: window ends on frames.
    case 7..<14: window = Swift.abs(dt) * Double(1 + rng.below(4))
    case 14, 15: window = [0.5, 2][rng.below(2)]
    default:
      // A window whose ends fall on boundaries: a boundary gap, or a third of one.
      if boundaries.count >= 2 {
        let i = rng.below(boundaries.count - 1)
        let gap = Swift.abs(boundaries[i + 1] - boundaries[i]) / Double(1 + 2 * rng.below(2))
        window = gap >= 1e-3 && gap <= 4 ? gap : 0.1
      } else {
        window = 0.1
      }
    }
    // In milliseconds, as the CLI takes it (at least 1 ms, as `run --window` takes it).
    return FrameHistory(runs: runs, windowMilliseconds: window.map { Swift.max($0 * 1000, 1) })
  }

  /// The clock times where `model`'s animations stop being smooth: iteration ends, key times and
  /// the ends of active periods, for animations on layers with the default layer timing all the
  /// way up (elsewhere the mapping through layer timing is not worth restating; those
  /// animations are still in the scene). Sorted, at most `limit`.
  public static func boundaryTimes(_ model: Layer, limit: Int = 64) -> [Double] {
    var out: [Double] = []
    func visit(_ layer: Layer, plain: Bool) {
      let isPlain = plain && layer.timing == MediaTiming()
      if isPlain {
        for key in layer.animationKeys() {
          guard let a = layer.animation(forKey: key), out.count < limit else { continue }
          _boundaries(a.timing, keyTimes: (a as? KeyframeAnimation)?.keyTimes, into: &out)
        }
      }
      for s in layer.sublayers { visit(s, plain: isPlain) }
    }
    visit(model, plain: true)
    return Array(out.filter(\.isFinite).sorted().prefix(limit))
  }

  static func _boundaries(_ t: MediaTiming, keyTimes: [Double]?, into out: inout [Double]) {
    guard t.speed != 0, t.speed.isFinite, t.beginTime.isFinite, t.timeOffset.isFinite else { return }
    let d = t._iterationDuration(isAnimation: true)
    let total = t.activeDuration()
    guard d > 0, d.isFinite else { return }
    // Local time tau = (clock - begin) x speed + offset, so clock = begin + (tau - offset) / speed.
    func clock(_ tau: Double) -> Double { t.beginTime + (tau - t.timeOffset) / t.speed }
    let first = (t.timeOffset / d).rounded(.down)
    for k in 0..<4 {
      let tau = (first + Double(k)) * d
      out.append(clock(tau))
      for kt in keyTimes ?? [] where kt > 0 && kt < 1 { out.append(clock(tau + kt * d)) }
    }
    if total.isFinite { out.append(t.beginTime + total / t.speed) }
    out.append(t.beginTime)
  }
}

/// Random scenes whose animations have their boundaries where frames and windows land: timing
/// functions mostly dropped (piecewise-linear motion gets exact lines), durations near the frame
/// interval, begin times and offsets on frame or iteration multiples, every repeat kind; and a
/// layer under the root moved by one plain repeating animation (the commonest motion there is).
public struct BoundaryScene {
  public var layerCount: ClosedRange<Int> = 2...24
  public var animatedFraction = 0.6

  public init(layerCount: ClosedRange<Int> = 2...24, animatedFraction: Double = 0.6) {
    self.layerCount = layerCount
    self.animatedFraction = animatedFraction
  }

  /// A scene whose animations' durations, begin times and offsets are mostly multiples of
  /// `frameInterval` (a history's, so its frames land on their boundaries).
  public func make(seed: UInt64, frameInterval: Double = 1.0 / 120) -> Layer {
    var rng = SplitMix64(seed: seed ^ 0xB0_0DA5)
    let root = RandomScene(layerCount: layerCount, hostile: rng.chance(0.2), animatedFraction: animatedFraction)
      .make(seed: seed)
    for layer in root.subtreeInPreorder {
      for key in layer.animationKeys() {
        guard let a = layer.animation(forKey: key) else { continue }
        Self.retime(a, frameInterval: frameInterval, &rng)
        layer.add(a, forKey: key)
      }
    }
    let moved = Layer(
      name: "moved", bounds: Rect(x: 0, y: 0, width: rng.uniform(10, 60), height: rng.uniform(10, 60)),
      position: Point(0, 0))
    let a: Animation
    switch rng.below(3) {
    case 0:
      a = BasicAnimation(keyPath: .position, from: .point(Point(0, 0)), to: .point(Point(300, 380)))
    case 1:
      let k = KeyframeAnimation(keyPath: .position)
      k.values = [.point(Point(0, 0)), .point(Point(300, 380)), .point(Point(60, 40))]
      a = k
    default:
      a = BasicAnimation(keyPath: .boundsWidth, from: .scalar(10), to: .scalar(300))
    }
    Self.retime(a, frameInterval: frameInterval, &rng)
    a.timingFunction = nil
    moved.add(a, forKey: "move")
    root.insertSublayer(moved, at: rng.below(root.sublayers.count + 1))
    return root
  }

  /// Timing whose boundaries fall on frame times (mostly multiples of the frame interval).
  static func retime(_ a: Animation, frameInterval: Double, _ rng: inout SplitMix64) {
    let dt = rng.chance(0.7) ? frameInterval : [1.0 / 120, 1.0 / 60, 1.0 / 30][rng.below(3)]
    if rng.chance(0.6) { a.timingFunction = nil }
    let d: Double =
      switch rng.below(8) {
      case 0: dt
      case 1: dt * (1 + [1e-9, -1e-9, 1e-3, -1e-3][rng.below(4)])
      case 2, 3, 4: dt * Double(2 + rng.below(40))
      case 5: 0.3
      default: rng.uniform(0.05, 1)
      }
    a.duration = d
    a.timing.beginTime = rng.chance(0.5) ? 0 : dt * Double(rng.below(60))
    a.timing.timeOffset = rng.chance(0.6) ? 0 : [dt, d / 3, d * 0.5, d][rng.below(4)] * Double(1 + rng.below(3))
    a.timing.speed = rng.chance(0.85) ? 1 : [0.5, 2, -1][rng.below(3)]
    a.timing.repeatCount = [.infinity, .infinity, .infinity, 2, 1.5, 0.5, 1][rng.below(7)]
    a.timing.repeatDuration = 0
    a.timing.autoreverses = rng.chance(0.25)
    a.timing.fillMode = FillMode.allCases[rng.below(FillMode.allCases.count)]
    a.isRemovedOnCompletion = rng.chance(0.5)
  }
}
