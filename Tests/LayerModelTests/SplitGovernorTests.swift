import Scenes
import TestSupport
import Testing

@testable import Presentation

/// The split governor's decisions from the costs it is given (no clock read: the costs are
/// the test's), and a two-thread builder whose builds change way from one to the next.
@Suite struct SplitGovernorTests {
  /// Feeds `governor` `builds` decisions, each costing what `cost` says for its way, and
  /// answers how many of them split.
  func drive(
    _ governor: inout SplitGovernor, builds: Int, cost: (_ split: Bool) -> (wall: Double, cpu: Double)
  ) -> Int {
    var splits = 0
    for _ in 0..<builds {
      let split = governor.decide()
      if split { splits += 1 }
      let c = cost(split)
      governor.record(split: split, wall: c.wall, cpu: c.cpu)
    }
    return splits
  }

  /// A split that saves no wall time and costs 1.6x the CPU (a second core busy elsewhere) is
  /// given up once a probe has measured one thread, but tried again at every probe: about `probeLength` builds in
  /// `probeInterval`.
  @Test func aSplitThatDoesNotPayIsGivenUpAndProbed() {
    var g = SplitGovernor()
    // Up to the end of the second probe (the first measures one thread).
    _ = drive(&g, builds: 2 * g.probeInterval + g.probeLength - 1) { $0 ? (300e3, 480e3) : (300e3, 300e3) }
    #expect(!g.prefersSplit)
    let builds = 960
    let splits = drive(&g, builds: builds) { $0 ? (300e3, 480e3) : (300e3, 300e3) }
    let probes = builds / g.probeInterval * g.probeLength
    #expect(splits == probes, "\(splits) split builds in \(builds), expected the probes' \(probes)")
  }

  /// A split that saves 40% of the wall time for 1.15x the CPU is kept, with probes of one
  /// thread; a split that costs 1.4x the CPU for the same saving is not (the CPU budget).
  @Test func aSplitIsKeptWithinItsCPUBudget() {
    var cheap = SplitGovernor()
    let kept = drive(&cheap, builds: 960) { $0 ? (300e3, 575e3) : (500e3, 500e3) }
    #expect(cheap.prefersSplit)
    #expect(kept >= 960 - 960 / cheap.probeInterval * cheap.probeLength - 2 * cheap.warmup)
    var dear = SplitGovernor()
    _ = drive(&dear, builds: 960) { $0 ? (300e3, 700e3) : (500e3, 500e3) }
    #expect(!dear.prefersSplit)
  }

  /// A build longer than half the frame on one thread splits whenever that saves wall time,
  /// whatever the CPU (a million particles: 58 ms split for 115 ms of CPU against 75 ms); the
  /// same ratios on a 300 us build stay on one thread.
  @Test func aBuildLateForItsFrameSplitsWhateverItCosts() {
    var late = SplitGovernor()
    _ = drive(&late, builds: 200) { $0 ? (58e6, 115e6) : (75e6, 75e6) }
    #expect(late.prefersSplit)
    // And one thread, late, is probed a fraction as often: each probe is a run of late frames.
    let builds = 3840
    let unsplit = builds - drive(&late, builds: builds) { $0 ? (58e6, 115e6) : (75e6, 75e6) }
    let rare = (builds / (late.probeInterval * late.lateProbeFactor) + 1) * late.probeLength
    #expect(unsplit <= rare, "\(unsplit) builds on one thread in \(builds), at most \(rare) expected")
    var early = SplitGovernor()
    _ = drive(&early, builds: 200) { $0 ? (232e3, 460e3) : (300e3, 300e3) }
    #expect(!early.prefersSplit)
    // A frame budget of a second makes 75 ms early.
    var relaxed = SplitGovernor()
    relaxed.latencyBound = 0.5e9
    _ = drive(&relaxed, builds: 200) { $0 ? (58e6, 115e6) : (75e6, 75e6) }
    #expect(!relaxed.prefersSplit)
  }

  /// A split near the CPU budget (1.3x for 30% of the wall time) keeps the way already taken:
  /// a builder that splits goes on splitting, one that builds on one thread goes on with one.
  @Test func aSplitNearTheBudgetKeepsTheWayTaken() {
    var splitting = SplitGovernor()
    _ = drive(&splitting, builds: 400) { $0 ? (210e3, 390e3) : (300e3, 300e3) }
    #expect(splitting.prefersSplit)
    var single = SplitGovernor()
    _ = drive(&single, builds: 200) { $0 ? (300e3, 480e3) : (300e3, 300e3) }
    #expect(!single.prefersSplit)
    _ = drive(&single, builds: 400) { $0 ? (210e3, 390e3) : (300e3, 300e3) }
    #expect(!single.prefersSplit)
  }

  /// When the host frees the second core (a split that did not pay starts paying), the probes
  /// notice it within a few probe intervals; and back again.
  @Test func theGovernorFollowsTheHost() {
    var g = SplitGovernor()
    _ = drive(&g, builds: 200) { $0 ? (300e3, 480e3) : (300e3, 300e3) }
    #expect(!g.prefersSplit)
    _ = drive(&g, builds: 3 * g.probeInterval) { $0 ? (180e3, 330e3) : (300e3, 300e3) }
    #expect(g.prefersSplit, "split estimate \(g.split), serial \(g.serial)")
    _ = drive(&g, builds: 3 * g.probeInterval) { $0 ? (300e3, 480e3) : (300e3, 300e3) }
    #expect(!g.prefersSplit, "split estimate \(g.split), serial \(g.serial)")
  }

  /// One slow build (a worker descheduled by the host) does not turn a paying split away.
  @Test func oneSlowBuildDoesNotDecide() {
    var g = SplitGovernor()
    _ = drive(&g, builds: 200) { $0 ? (300e3, 575e3) : (500e3, 500e3) }
    #expect(g.prefersSplit)
    _ = g.decide()
    g.record(split: true, wall: 5e6, cpu: 10e6)
    #expect(g.prefersSplit, "one 5 ms build moved the estimate to \(g.split)")
  }

  /// The builds just after a change of way (a parked worker waking late) are not taken as that
  /// way's cost: a split that pays once its worker is in step is found by probes whose first
  /// builds are slow. (Recorded, two of each probe's three builds would be slow and the split
  /// never chosen.)
  @Test func theBuildsAfterASwitchAreNotItsCost() {
    var g = SplitGovernor()
    g.probeLength = 3
    _ = drive(&g, builds: 200) { $0 ? (300e3, 480e3) : (300e3, 300e3) }
    #expect(!g.prefersSplit)
    var sinceSwitch = 0
    var last = false
    for _ in 0..<(8 * g.probeInterval) {
      let split = g.decide()
      sinceSwitch = split == last ? sinceSwitch + 1 : 0
      last = split
      // This host makes the first two builds after a switch slow.
      let settled = sinceSwitch >= 2
      g.record(
        split: split, wall: split ? (settled ? 180e3 : 600e3) : 300e3,
        cpu: split ? (settled ? 330e3 : 900e3) : 300e3)
    }
    #expect(g.prefersSplit, "split estimate \(g.split), serial \(g.serial)")
  }
}

extension SplitGovernorTests {
  /// A governed two-thread builder whose every other build splits (its governors probe at
  /// every second decision): across incremental builds that change way, each frame equals one
  /// thread's bit for bit, and the rows listed as changed cover every row whose world box
  /// changed (a strategy that updates from them would otherwise keep a stale box).
  @Test func buildsThatChangeWayKeepTheirFramesAndChanges() {
    let (one, two) = splitBuilderPair(animatedFraction: 0.5, seed: 5, policy: .adaptive)
    for g in two._governors.indices {
      two._governors[g].warmup = 0
      two._governors[g].probeInterval = 2
      two._governors[g].probeLength = 1
    }
    var ways: Set<Bool> = []
    var previous: [Box] = []
    var t = 0.25
    for b in 0..<TestSize.pick(full: 240, fast: 80) {
      // Mostly the next frame; a jump now and then (a full build, never governed).
      t += b % 37 == 36 ? 1.5 : 1.0 / 120
      let frame = two.build(at: t)
      if let d = firstDifference(one.build(at: t), frame) {
        Issue.record("build \(b) t \(t) (split \(two.stats.split)): \(d)")
        return
      }
      if !two.stats.full { ways.insert(two.stats.split) }
      if !frame.recomputedEveryRow && previous.count == frame.count {
        var listed = [Bool](repeating: false, count: frame.count)
        let runs = frame.changedRuns()
        for i in runs.indices { for r in runs[i].rows { listed[r] = true } }
        for r in 0..<frame.count where !listed[r] && !_same(previous[r], frame.worldBox[r]) {
          Issue.record("build \(b) (split \(two.stats.split)): row \(r)'s box changed and is not listed")
          return
        }
      }
      previous = (0..<frame.count).map { frame.worldBox[$0] }
    }
    #expect(ways == [true, false], "the governed builds took only \(ways): the test did not change way")
  }
}
