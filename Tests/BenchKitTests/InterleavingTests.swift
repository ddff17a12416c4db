import HitTesting
import LayerModel
import Presentation
import Scenes
import Testing

@testable import BenchKit

/// An interleaved run (strategies taking turns in blocks of frames) runs each strategy through
/// the same frames, at the same times, on the same points, with the same answers as a
/// sequential one, and holds a strategy's background work while another's block runs.
@Suite struct InterleavingTests {
  /// Every frame a strategy ran: its index, time, points and answers.
  final class Frames: FrameLoopHooks {
    var frames: [(index: Int, time: Double, points: [Point], answers: [LayerID?])] = []
    /// Where each block ended: one past its last frame.
    var blockEnds: [Int] = []
    func frameWillStart(_ index: Int) {}
    func blockDidEnd() { blockEnds.append((frames.last?.index ?? -1) + 1) }
    func frameDidEnd(
      _ index: Int, time: Double, timing: FrameTiming, points: UnsafeBufferPointer<Point>,
      answers: UnsafeBufferPointer<LayerID?>
    ) {
      frames.append((index, time, Array(points), Array(answers)))
    }
  }

  static let kinds: [StrategyKind] = [.treeWalk, .grid, .bvhRefit, .lazyWalk, .windowGrid, .staggerGrid, .linearBVH]

  /// A loop over a particle scene with a fixed window (answers must not depend on how the
  /// time-aware strategies chose theirs), frames back to back.
  static func loop(frames: Int, queries: Int, layers: Int = 600) -> FrameLoop {
    var c = RunConfiguration(scene: .generated(.particles), layers: layers, queries: [queries])
    c.seed = 5
    let model = try! Runner.scene(c)
    let builder = PresentationFrameBuilder(root: model, threads: 2)
    let times = Runner.times(c, measured: frames - c.warmup)
    var loop = FrameLoop(
      builder: builder, times: times,
      points: Runner.points(c, model: model, builder: builder, queries: queries, times: times), queries: queries)
    loop.warmup = c.warmup
    loop.realTime = false
    loop.options = StrategyOptions(windowSeconds: 0.1)
    return loop
  }

  @Test func interleavedTurnsRunTheFramesOfASequentialRun() {
    let loop = Self.loop(frames: 47, queries: 30)
    var sequential: [Frames] = []
    for kind in Self.kinds {
      let hooks = Frames()
      _ = loop.run(kind, hooks: hooks)
      sequential.append(hooks)
    }
    let turns = Self.kinds.map { _Turn(kind: $0, loop: loop, hooks: Frames()) }
    var rounds = 0
    Runner._takeTurns(turns, warmup: loop.warmup, roundWillStart: { _ in rounds += 1 })
    #expect(rounds == 5, "47 frames: a warm-up of \(loop.warmup), then blocks of \(Runner.blockFrames)")
    for (turn, expected) in zip(turns, sequential) {
      let hooks = turn.hooks as! Frames
      let got = hooks.frames
      #expect(turn.isFinished && hooks.blockEnds.last == 47 && hooks.blockEnds.count == 5, "\(turn.kind.rawValue)")
      #expect(got.count == expected.frames.count, "\(turn.kind.rawValue)")
      for (g, e) in zip(got, expected.frames) {
        #expect(
          g.index == e.index && g.time == e.time && g.points == e.points, "\(turn.kind.rawValue) frame \(g.index)")
        #expect(g.answers == e.answers, "\(turn.kind.rawValue): frame \(g.index) answers differ")
      }
    }
  }

  /// A time-aware strategy's window builds pass checkpoints during its own blocks and none
  /// during another strategy's: its gate holds them (counted by the gate, which sees every
  /// checkpoint its thread passes).
  @Test func heldBackgroundWorkNeverRunsDuringAnotherBlock() {
    // Window builds of a few milliseconds, and blocks of tree-walk about as long.
    let loop = Self.loop(frames: 200, queries: 50, layers: 5000)
    let turns = [
      _Turn(kind: .windowGrid, loop: loop, hooks: Frames()), _Turn(kind: .treeWalk, loop: loop, hooks: Frames()),
    ]
    let timeAware = turns[0]
    var passedBefore = 0
    var during = 0
    var own = 0
    Runner._takeTurns(
      turns, warmup: loop.warmup,
      afterBlock: { turn in
        let passed = timeAware.gate.checkpointsPassed
        if turn === timeAware { own += passed - passedBefore } else { during += passed - passedBefore }
        passedBefore = passed
      })
    #expect(own > 0, "the window builds passed no checkpoint in their own blocks: the count is not live")
    #expect(during == 0, "\(during) checkpoints passed while tree-walk's blocks ran")
  }

  /// A run on several thread counts runs every frame strategy on a builder of each count and a
  /// scene strategy once, in one run: each result says its threads, the frame strategies' runs
  /// take turns like any two strategies (the same blocks), and every one answers as the
  /// reference does (a threaded build equals one thread's bit for bit).
  @Test func threadCountsRunSideBySide() {
    // Large enough that two threads split the build's passes (`BuildWorkers.minimumRowsToSplit`).
    var c = RunConfiguration(
      scene: .generated(.app), layers: 5000, strategies: [.grid, .windowGrid], queries: [20], frames: 25, warmup: 3)
    c.pacing = .backToBack
    c.threads = [1, 2]
    c.verify = true
    let results = Runner.run(c, model: try! Runner.scene(c))
    #expect(results.map { "\($0.strategy) \($0.threads)" } == ["grid 1", "window-grid 1", "grid 2"])
    for m in results {
      // Every answer checked, the warm-up's too.
      #expect(m.verifiedAnswers == (3 + 25) * 20 && m.disagreements == 0, "\(m.strategy) on \(m.threads)")
      #expect(m.blocks.map(\.firstFrame) == [0, 10, 20], "\(m.strategy) on \(m.threads): not interleaved")
    }
  }

  /// A run's results say how they were run, with their measured frames' blocks in order.
  @Test func aRunKeepsItsBlocks() {
    var c = RunConfiguration(
      scene: .generated(.app), layers: 300, strategies: [.treeWalk, .windowGrid], queries: [5], frames: 25, warmup: 3)
    c.pacing = .backToBack
    for interleave in [true, false] {
      c.interleave = interleave
      for m in Runner.run(c, model: try! Runner.scene(c)) {
        #expect(m.interleaved == interleave)
        let expected = interleave ? [0, 10, 20] : [0]
        #expect(m.blocks.map(\.firstFrame) == expected, "\(m.strategy)")
        #expect(m.blocks.reduce(0) { $0 + $1.frames } == m.frames)
        #expect(m.blocks.allSatisfy { $0.meanFrameNs > 0 && $0.maxFrameNs >= $0.meanFrameNs })
      }
    }
  }

  /// `--repeat N`: every repetition runs each strategy afresh, warm-up included and checked,
  /// and one result holds the measured frames of all of them, its blocks spanning them.
  @Test func repetitionsMakeOneResult() {
    var c = RunConfiguration(
      scene: .generated(.particles), layers: 300, strategies: [.grid, .windowGrid], queries: [4], frames: 25, warmup: 3)
    c.repeats = 3
    c.verify = true
    c.pacing = .backToBack
    for interleave in [true, false] {
      c.interleave = interleave
      for m in Runner.run(c, model: try! Runner.scene(c)) {
        #expect(m.frames == 75 && m.repeats == 3, "\(m.strategy)")
        let expected = interleave ? [0, 10, 20, 25, 35, 45, 50, 60, 70] : [0, 25, 50]
        #expect(m.blocks.map(\.firstFrame) == expected, "\(m.strategy) interleaved \(interleave)")
        #expect(m.verifiedAnswers == 3 * 28 * 4 && m.disagreements == 0, "\(m.strategy)")
        #expect(m.intervals[.frameNsMean] != nil)
      }
    }
  }
}
