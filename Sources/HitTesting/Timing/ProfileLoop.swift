import LayerModel
import Presentation

/// Which phase `ProfileLoop` repeats.
public enum ProfilePhase: String, CaseIterable, Sendable {
  /// `update` on the same presentation frame, again and again.
  case update
  /// The frame's queries, again and again, after one update.
  case queries
  /// Building the presentation frame at successive times.
  case presentation
}

/// Runs one phase of one strategy in a loop for perf: specialised per strategy like `FrameLoop`.
/// `enable` and `disable` are called around the repeated phase only (perf's control FIFO).
public struct ProfileLoop {
  public var builder: PresentationFrameBuilder
  public var points: [Point]
  public var phase: ProfilePhase
  public var seconds: Double

  public init(builder: PresentationFrameBuilder, points: [Point], phase: ProfilePhase, seconds: Double) {
    self.builder = builder
    self.points = points
    self.phase = phase
    self.seconds = seconds
  }

  /// Runs; answers how many times the phase ran.
  public func run(_ kind: StrategyKind, enable: () -> Void, disable: () -> Void) -> Int {
    withoutActuallyEscaping(enable) { enable in
      withoutActuallyEscaping(disable) { disable in
        kind.dispatch(_Profile(loop: self, enable: enable, disable: disable))
      }
    }
  }
}

struct _Profile: StrategyVisitor {
  let loop: ProfileLoop
  let enable: () -> Void
  let disable: () -> Void

  func visit<S: HitTestStrategy>(_ type: S.Type) -> Int {
    var s = S()
    let frame = loop.builder.build(at: 0.5)
    s.update(with: frame)
    let answers = UnsafeMutableBufferPointer<LayerID?>.allocate(capacity: Swift.max(loop.points.count, 1))
    answers.initialize(repeating: nil)
    defer { answers.deallocate() }
    let deadline = monotonicNanoseconds() + UInt64(loop.seconds * 1e9)
    var runs = 0
    var t = 0.5
    enable()
    loop.points.withUnsafeBufferPointer { pts in
      repeat {
        for _ in 0..<8 {
          switch loop.phase {
          case .update: s.update(with: frame)
          case .queries: QueryLoop.answer(s, pts, into: answers)
          case .presentation:
            t += 1.0 / 120
            _ = loop.builder.build(at: t)
          }
          runs += 1
        }
      } while monotonicNanoseconds() < deadline
    }
    disable()
    return runs
  }
}
