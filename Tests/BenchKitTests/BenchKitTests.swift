import BenchKit
import HitTesting
import LayerModel
import Presentation
import SceneFormat
import Scenes
import Testing

@Suite struct StatisticsTests {
  @Test func handComputedSummary() {
    // Sorted: 1 2 3 4 100. Median 3; p90 at rank 3.6 = 4 + 0.6 * 96 = 61.6; p99 at rank 3.96 =
    // 4 + 0.96 * 96 = 96.16; |x - 3| = 2 1 0 1 97, median 1.
    let s = Summary([4, 100, 1, 3, 2])
    #expect(s.min == 1)
    #expect(s.median == 3)
    #expect(abs(s.p90 - 61.6) < 1e-9)
    #expect(abs(s.p99 - 96.16) < 1e-9)
    #expect(s.mad == 1)
    #expect(s.mean == 22, "(1 + 2 + 3 + 4 + 100) / 5: the one slow frame is in the mean, not the median")
    #expect(s.isNoisy, "p90 more than twice the median")
    let even = Summary([10, 20, 30, 40])
    #expect(even.median == 25)
    #expect(even.mad == 10)
    #expect(Summary([]) == .zero)
    #expect(!Summary([100, 101, 99, 100, 100]).isNoisy)
  }
}

@Suite struct GeneratorTests {
  @Test(arguments: SceneKind.allCases)
  func generatorsMakeExactlyNLayersDeterministically(_ kind: SceneKind) {
    for n in [10, 1000, 4321] {
      let a = SceneGenerator(kind: kind, layers: n, animatedFraction: 0.5, seed: 7).make()
      #expect(a.subtreeInPreorder.count == n, "\(kind) \(n)")
      let b = SceneGenerator(kind: kind, layers: n, animatedFraction: 0.5, seed: 7).make()
      #expect(SceneFile.encode(a) == SceneFile.encode(b))
    }
  }

  @Test func appScenesHaveRealisticDepth() {
    let app = SceneGenerator(kind: .app, layers: 5000).make()
    let builder = PresentationFrameBuilder(root: app)
    let f = builder.build(at: 0)
    var maxDepth = 0
    for r in 0..<f.count {
      var d = 0
      var p = Int(f.parent[r])
      while p >= 0 {
        d += 1
        p = Int(f.parent[p])
      }
      maxDepth = max(maxDepth, d)
    }
    #expect((8...15).contains(maxDepth))
  }

  @Test func deepScenesReachTheirDepth() {
    let deep = SceneGenerator(kind: .deep, layers: 20_000).make()
    var depth = 0
    var node: Layer? = deep
    while let n = node {
      node = n.sublayers.first
      depth += 1
    }
    #expect(depth > 1000)
  }

  @Test func workloadsAreDeterministicAndMissMisses() {
    let model = SceneGenerator(kind: .particles, layers: 2000).make()
    let builder = PresentationFrameBuilder(root: model)
    for w in Workload.allCases {
      var c = RunConfiguration()
      c.workload = w
      c.frames = 2
      c.warmup = 1
      let a = Runner.points(c, model: model, builder: builder, queries: 50)
      let b = Runner.points(c, model: model, builder: builder, queries: 50)
      #expect(a == b && a.count == 150, "\(w)")
      if w == .miss {
        for (f, t) in Runner.times(c).enumerated() {
          let frame = builder.build(at: t)
          for p in a[(f * 50)..<(f * 50 + 50)] {
            let h = frame.topCandidateByScan(p)
            #expect(h == nil || h == LayerID(0))
          }
        }
      }
    }
  }
}

@Suite struct RunnerTests {
  /// A time-aware run goes on past its frames until it holds the windows asked for; a rebuild
  /// strategy beside it runs exactly its frames.
  @Test func aTimeAwareRunGoesOnUntilItHoldsTheWindows() {
    var c = RunConfiguration()
    c.scene = .generated(.particles)
    c.layers = 300
    c.queries = [10]
    c.frames = 12
    c.warmup = 2
    c.pacing = .backToBack
    c.strategies = [.grid, .windowGrid]
    c.windowSeconds = 0.25  // 30 frames at 120 Hz: 3 windows need 90 measured frames
    c.windowsAtLeast = 3
    let results = Runner.run(c, model: try! Runner.scene(c))
    let grid = results.first { $0.strategy == "grid" }
    let timed = results.first { $0.strategy == "window-grid" }
    #expect(grid?.frames == 12)
    #expect((timed?.frames ?? 0) >= 90 && (timed?.frames ?? .max) <= c.longestFrames)
    #expect((timed?.windowsHeld ?? 0) >= 3)
  }

  /// A run asked to hold windows may run as long as that many of the longest windows take
  /// (an idle screen's 4 s windows: 3 need 1,440 frames at 120 Hz, past ten times 120; with
  /// the cap at ten times, idle's stagger-grid held 2.5), and ten times its frames otherwise.
  @Test func aRunMayHoldTheLongestWindows() {
    var c = RunConfiguration()
    c.frames = 120
    #expect(c.longestFrames == 120)
    c.windowsAtLeast = 3
    #expect(c.longestFrames == 120 + 1_440)
    c.frames = 400
    #expect(c.longestFrames == 4_000)
    // A pinned window: as many frames as that many of it take.
    c.frames = 12
    c.windowSeconds = 0.5
    #expect(c.longestFrames == 12 + 180)
  }

  /// (Allocations are checked in a process of their own: `SteadyStateTests`.)
  @Test func aRunMeasuresEveryStrategyWithoutDisagreeing() {
    var c = RunConfiguration()
    c.scene = .generated(.cards)
    c.layers = 500
    c.queries = [20]
    c.frames = 5
    c.warmup = 3
    c.verify = true
    let model = try! Runner.scene(c)
    let results = Runner.run(c, model: model)
    #expect(results.count == StrategyKind.allCases.count)
    for m in results {
      #expect(m.frames == 5 && m.layers == 500 && m.queriesPerFrame == 20)
      #expect(m.verifiedAnswers == 8 * 20)
      #expect(m.disagreements == 0, "\(m.strategy)")
      #expect(m.frameNs.median > 0 && m.updateNs.min <= m.updateNs.median)
      #expect(m.testedPerQuery > 0 && m.queryFloorNs > 0 && m.updateFloorNs > 0)
    }
    let json = RunReport(meta: .current(seed: 1, command: "test"), results: results).json()
    guard case .array(let rs)? = json["results"] else {
      Issue.record("no results")
      return
    }
    let keys = [
      "strategy", "scene", "layers", "animatedFraction", "queriesPerFrame", "workload", "frames", "presentationNs",
      "updateNs", "queriesNs", "frameNs", "nsPerQuery", "allocationsPerFrame", "bytesAllocatedPerFrame", "indexBytes",
      "testedPerQuery", "queryFloorRatio", "updateFloorRatio", "peakResidentBytes",
    ]
    for r in rs {
      for k in keys { #expect(r[k] != nil, "\(k)") }
      for k in ["presentationNs", "updateNs", "queriesNs", "frameNs"] {
        for s in ["min", "median", "p90", "p99", "mad", "mean"] { #expect(r[k]?[s] != nil, "\(k).\(s)") }
      }
    }
    for k in ["toolchain", "buildFlags", "cpuModel", "gitCommit", "seed", "command"] {
      #expect(json["meta"]?[k] != nil)
    }
  }

  @Test func verificationChecksAShareWhereEveryAnswerWouldCostTooMuch() {
    #expect(Runner.checkedAnswersPerFrame(queries: 20, layers: 500, visits: 1 << 25) == 20)
    #expect(Runner.checkedAnswersPerFrame(queries: 1000, layers: 1_000_000, visits: 1 << 25) == 33)
    #expect(Runner.checkedAnswersPerFrame(queries: 1000, layers: 1_000_000, visits: 10) == 1)
    #expect(Runner.checkedAnswersPerFrame(queries: .max, layers: .max, visits: .max) == 1)
    #expect(Runner.checkedAnswersPerFrame(queries: 7, layers: 1_000_000, visits: .max) == 7)
    var c = RunConfiguration()
    c.scene = .generated(.particles)
    c.layers = 500
    c.queries = [100]
    c.frames = 5
    c.warmup = 3
    c.verify = true
    c.strategies = [.grid]
    c.verifyVisitsPerFrame = 25 * 500
    let results = Runner.run(c, model: try! Runner.scene(c))
    #expect(results.map(\.verifiedAnswers) == [8 * 25])
    #expect(results.map(\.disagreements) == [0])
    // A share still catches a wrong strategy.
    c.faults.shrinkHitRegions = 1
    let wrong = Runner.run(c, model: try! Runner.scene(c))
    #expect(wrong.map(\.verifiedAnswers) == [8 * 25])
    #expect(wrong.allSatisfy { $0.disagreements > 0 })
  }

  @Test func badSizesAreRefused() {
    var c = RunConfiguration()
    c.layers = 5
    #expect(throws: Runner.Failure.self) { _ = try Runner.scene(c) }
    c.scene = .file("/nonexistent.json")
    #expect(throws: Runner.Failure.self) { _ = try Runner.scene(c) }
  }
}
