import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// stagger-grid re-bounds its groups in its frames, each when its window ends; groups
/// re-bounded in one frame end together a length later, so it also re-bounds the windows
/// ending next, at the rate windows end on average. No steady frame then
/// pays for a bunch of them (the frames' p99: docs/optimisation-log.md entry 75).
@Suite struct StaggerSpreadTests {
  /// stagger-grid attached to a generated scene of `kind` (1,500 or 3,000 layers).
  static func attached(_ kind: SceneKind, _ options: StrategyOptions) -> StaggerGrid {
    let root = SceneGenerator(kind: kind, layers: TestSize.pick(full: 3000, fast: 1500), seed: 5).make()
    let builder = PresentationFrameBuilder(root: root)
    var s = StaggerGrid()
    s.attach(to: builder.scene, semantics: builder.semantics, options: options)
    return s
  }

  @Test(arguments: [SceneKind.app, .particles])
  func noSteadyFrameRebindsABunch(_ kind: SceneKind) {
    // A quarter-second window: 30 frames of 120 Hz.
    var s = Self.attached(kind, StrategyOptions(windowSeconds: 0.25))
    var counts: [Int] = []
    for frame in 0..<240 {
      let t = 1.0 + Double(frame) / 120
      s.update(at: t, animated: true)
      // After the first windows (their ends spread by the restart) have all been replaced.
      if frame >= 60 { counts.append(s.counters.reindexed) }
    }
    let mean = Double(counts.reduce(0, +)) / Double(counts.count)
    let most = counts.max() ?? 0
    #expect(mean > 1, "\(kind): \(mean) groups re-bounded a frame: too few to tell")
    #expect(Double(most) <= 2 * mean + 2, "\(kind): a frame re-bounded \(most) groups, \(mean) on average")
  }

  /// A length that grows leaves the groups re-bounded at the old rate ending together a new
  /// length later, more than the new rate re-bounds ahead: re-bounded windows end over the
  /// last quarter of a length, so that bunch ends spread over frames, less bunched each time
  /// round (app 10k: 230-330 us updates against 60; docs/optimisation-log.md, entry 85).
  /// Without the spread a frame here re-bounds 29x the mean (265 groups against 9).
  @Test func aGrowingLengthLeavesNoBunch() {
    var s = Self.attached(.particles, StrategyOptions())
    var counts: [Int] = []
    for frame in 0..<300 {
      let t = 1.0 + Double(frame) / 120
      // The length doubled by hand as a settling adaptation may (from 8 frames to 256), and
      // not adapted, which follows the host's timings.
      if [2, 6, 14, 30, 46].contains(frame) { s.state?.length.seconds *= 2 }
      s.update(at: t, animated: true)
      s.state?.windows.adaptAfter = .max
      if frame >= 60 { counts.append(s.counters.reindexed) }
    }
    let mean = Double(counts.reduce(0, +)) / Double(counts.count)
    let most = counts.max() ?? 0
    #expect(mean > 1, "\(mean) groups re-bounded a frame: too few to tell")
    #expect(Double(most) <= 8 * mean, "a frame re-bounded \(most) groups, \(mean) on average")
  }

  /// A length that shrinks is followed at once: the windows ending next are re-bounded ahead at
  /// the new rate, though the groups re-bounded first come back to the top of the queue with
  /// windows shorter than every other's. When the loop stopped at them, a frame re-bounded one
  /// group, and the length's balance, reading re-bounds as free, shrank the length to the
  /// shortest (docs/optimisation-log.md, entry 99): this fails then, 4 groups in 4 frames.
  @Test func aShrinkingLengthIsFollowedAtOnce() throws {
    var s = Self.attached(.particles, StrategyOptions())
    var after: [Int] = []
    for frame in 0..<64 {
      // Windows of 2 s from frame 2 (none ends in the run), then of 4 frames from frame 60.
      if frame == 2 { s.state?.length.seconds = 2 }
      if frame == 60 { s.state?.length.seconds = 4.0 / 120 }
      s.update(at: 1.0 + Double(frame) / 120, animated: true)
      s.state?.windows.adaptAfter = .max
      if frame >= 60 { after.append(s.counters.reindexed) }
    }
    let moving = try #require(s.state?.windows.groups.count) - 1
    #expect(moving > 100)
    // A quarter of the groups a frame: every window replaced within the new length.
    #expect(after.reduce(0, +) >= moving, "\(after) re-bounded in the 4 frames after, of \(moving) groups")
    #expect(after.allSatisfy { $0 <= moving / 4 + 1 }, "\(after): more than the rate ahead asks")
  }

  /// The first length after a restart is a guess: it is reconsidered after 2, 4 and 8 frames,
  /// then every 16, and while settling grows at most 2x a step (decided every 16 frames from
  /// the start, app 10k's windows stayed 50x below the balance for 40 frames: entry 85).
  @Test func theLengthSettlesFromTheFirstFrames() {
    var s = Self.attached(.app, StrategyOptions())
    var adapted: [Int] = []
    var last = s.state?.length.seconds ?? 0
    for frame in 0..<64 {
      s.update(at: 1.0 + Double(frame) / 120, animated: true)
      guard let state = s.state else { break }
      // A decision starts counting the next window's frames afresh.
      if frame > 0 && state.length.frames == 0 {
        adapted.append(frame)
        if adapted.count <= 3 {
          #expect(state.length.seconds <= 2 * last * (1 + 1e-12), "frame \(frame): \(last) -> \(state.length.seconds)")
        }
        last = state.length.seconds
      }
    }
    #expect(adapted == [1, 5, 13, 29, 45, 61], "decided at frames \(adapted)")
  }
}
