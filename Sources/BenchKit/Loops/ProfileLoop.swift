import Clocks
import HitTesting
import LayerModel
import Presentation

/// Which phase `ProfileLoop` repeats.
public enum ProfilePhase: String, CaseIterable, Sendable {
  /// The strategy's update on the same frame (or, for a scene strategy, at successive times),
  /// again and again.
  case update
  /// The frame's queries, again and again, after one update.
  case queries
  /// Building the presentation frame at successive times (the columns the strategy reads).
  case presentation
  /// Whole frames at successive times: build, update, queries.
  case frame
}

/// Runs one phase of one strategy in a loop for perf, specialised per strategy like the timed
/// frames. `enable` and `disable` are called around the repeated phase only (perf's control
/// FIFO).
public struct ProfileLoop {
  public var builder: PresentationFrameBuilder
  public var points: [Point]
  public var phase: ProfilePhase
  public var seconds: Double
  public var options = StrategyOptions()

  public init(builder: PresentationFrameBuilder, points: [Point], phase: ProfilePhase, seconds: Double) {
    self.builder = builder
    self.points = points
    self.phase = phase
    self.seconds = seconds
  }

  /// Runs; answers how many times the phase ran.
  public func run(_ kind: StrategyKind, enable: () -> Void, disable: () -> Void) -> Int {
    withoutActuallyEscaping(enable) { enable in
      withoutActuallyEscaping(disable) { disable in Strategies.loops(kind).profile(self, enable, disable) }
    }
  }
}

/// The profile loops, specialised per strategy (see `TimedFrames`).
public enum ProfiledPhases {
  @inlinable @inline(never)
  public static func run<S: FrameStrategy>(
    _ type: S.Type, _ loop: ProfileLoop, _ enable: () -> Void, _ disable: () -> Void
  ) -> Int {
    var s = S()
    s.update(with: loop.builder.build(at: 0.5, columns: S.columns))
    return _loop(&s, loop, enable, disable) { s, t, phase in
      switch phase {
      case .update:
        s.update(with: loop.builder.frame)
      case .presentation:
        _ = loop.builder.build(at: t, columns: S.columns)
      default:
        s.update(with: loop.builder.build(at: t, columns: S.columns))
      }
    }
  }

  @inlinable @inline(never)
  public static func run<S: SceneStrategy>(
    _ type: S.Type, _ loop: ProfileLoop, _ enable: () -> Void, _ disable: () -> Void
  ) -> Int {
    var s = S()
    s.attach(to: loop.builder.scene, semantics: loop.builder.semantics, options: loop.options)
    s.update(at: 0.5, animated: true)
    return _loop(&s, loop, enable, disable) { s, t, phase in
      if phase != .presentation { s.update(at: t, animated: true) }
    }
  }

  @inlinable @inline(__always)
  static func _loop<S: HitTestStrategy>(
    _ s: inout S, _ loop: ProfileLoop, _ enable: () -> Void, _ disable: () -> Void,
    _ step: (inout S, Double, ProfilePhase) -> Void
  ) -> Int {
    let answers = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(loop.points.count, 1))
    answers.initialize(repeating: nil)
    defer { answers.deallocate() }
    let deadline = Clocks.monotonicNanoseconds() + UInt64(loop.seconds * 1e9)
    var runs = 0
    var t = 0.5
    enable()
    loop.points.withUnsafeBufferPointer { pts in
      repeat {
        for _ in 0..<8 {
          t += 1.0 / 120
          switch loop.phase {
          case .queries: s.answer(pts, into: answers)
          case .update, .presentation: step(&s, t, loop.phase)
          case .frame:
            step(&s, t, .frame)
            s.answer(pts, into: answers)
          }
          runs += 1
        }
      } while Clocks.monotonicNanoseconds() < deadline
    }
    disable()
    return runs
  }
}
