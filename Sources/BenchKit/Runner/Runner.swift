import Allocations
import CCallgrind
import Clocks
import FileIO
import HitTesting
import JSON
import LayerModel
@_spi(FaultInjection) import Presentation
import SceneFormat
import Scenes
import Tracing
import Verification

#if canImport(Glibc)
  import Glibc
#endif

/// Runs configurations: builds the scene once, computes every frame's time and points once
/// (the same for every strategy), then runs each strategy through `FrameLoop`, recording
/// phase timings, allocations per frame (jemalloc, around the timed phases only) and, with
/// `verify`, every answer against tree-walk (outside the timed regions).
public enum Runner {
  /// Why a run could not start.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The model tree of a configuration's scene.
  public static func scene(_ c: RunConfiguration) throws(Failure) -> Layer {
    switch c.scene {
    case .generated(let kind):
      return try _generator(c, kind).make()
    case .file(let path):
      do { return try SceneFile.read(path: path) } catch { throw Failure(description: error.description) }
    }
  }

  /// The generator of a configuration's generated scene, its size checked.
  static func _generator(_ c: RunConfiguration, _ kind: SceneKind) throws(Failure) -> SceneGenerator {
    guard SceneGenerator.layerRange.contains(c.layers) else {
      throw Failure(description: "--layers must be within \(SceneGenerator.layerRange), got \(c.layers)")
    }
    return SceneGenerator(kind: kind, layers: c.layers, animatedFraction: c.animatedFraction, seed: c.seed)
  }

  /// Where a scene's points fall: its root's frame, or its bounds when the frame is null.
  static func _pointArea(_ root: Layer) -> Rect { root.frame.isNull ? root.bounds : root.frame }

  /// Every frame's clock time: warm-up frames first, 1/fps apart from t = 0 (`measured`
  /// frames after the warm-up: `c.frames` unless given).
  public static func times(_ c: RunConfiguration, measured: Int? = nil) -> [Double] {
    (0..<(c.warmup + (measured ?? c.frames))).map { Double($0) / c.fps }
  }

  /// Every frame's points for `queries` per frame, at the configuration's frame times or at
  /// `times` when given (frame k at times[k]).
  public static func points(
    _ c: RunConfiguration, model: Layer, builder: PresentationFrameBuilder, queries: Int, times: [Double]? = nil
  ) -> [Point] {
    points(c, area: _pointArea(model), builder: builder, queries: queries, times: times)
  }

  /// `points(_:model:...)` over `area` (`_pointArea`).
  static func points(
    _ c: RunConfiguration, area: Rect, builder: PresentationFrameBuilder, queries: Int, times: [Double]? = nil
  ) -> [Point] {
    let ts = times ?? Self.times(c)
    let gen = WorkloadGenerator(c.workload, area: area, seed: c.seed)
    var out = [Point](repeating: .zero, count: ts.count * queries)
    out.withUnsafeMutableBufferPointer { all in
      for (f, t) in ts.enumerated() {
        let slice = UnsafeMutableBufferPointer(rebasing: all[(f * queries)..<(f * queries + queries)])
        if c.workload == .miss {
          // The workload's own conservative test (world boxes), not a strategy under test.
          let filter = MissFilter(frame: builder.build(at: t, animated: !c.modelTree))
          gen.fill(slice, frame: f, time: t) { filter.hitsOnlyRoot($0) }
        } else {
          gen.fill(slice, frame: f, time: t)
        }
      }
    }
    return out
  }

  /// The model tree of a configuration's scene and the live heap it holds (`MemoryBreakdown`).
  public static func measuredScene(_ c: RunConfiguration) throws(Failure) -> (model: Layer, bytes: Int) {
    try AllocationCounter.retained { () throws(Failure) in try scene(c) }
  }

  /// Runs one configuration over every strategy and query count. `modelBytes`: what the model
  /// holds (`measuredScene`), for the results' memory breakdown. Without `verify` the run
  /// never needs the model once compiled: it is compiled releasing it
  /// (`CompiledScene(releasing:)`), so a caller that hands it over (`consume`) gets its memory
  /// back before the frames. The caller must not use the model afterwards.
  public static func run(
    _ c: RunConfiguration, model: consuming Layer, modelBytes: Int = 0, progress: ((String) -> Void)? = nil
  ) -> [Measurement] {
    let root = consume model
    let area = _pointArea(root)
    // --verify's reference is built by a builder of its own, untimed and single-threaded, so a
    // fault in the measured builder's incremental or threaded passes cannot hide itself.
    let reference = c.verify ? PresentationFrameBuilder(root: root, semantics: c.semantics) : nil
    let scene: CompiledScene
    let sceneBytes: Int
    if c.verify {
      (scene, sceneBytes) = AllocationCounter.retained { CompiledScene(root: root) }
    } else {
      // The compile frees the whole model as it goes: what the heap gained, plus what the
      // model held, is what the compiled scene holds.
      let before = AllocationCounter.liveBytes()
      let pages = AllocationCounter.ImmediatePageReturn()
      scene = CompiledScene(releasing: consume root)
      pages.end()
      sceneBytes = before > 0 ? AllocationCounter.liveBytes() - before + modelBytes : 0
    }
    return _run(
      c, scene: scene, sceneBytes: sceneBytes, area: area, reference: reference, modelBytes: modelBytes,
      progress: progress)
  }

  /// Whether a run of `c` compiles its scene while generating it
  /// (`runCompilingWhileGenerating`): a generated kind that seals its top-level layers, not
  /// verified (verification compares with a model of its own).
  public static func compilesWhileGenerating(_ c: RunConfiguration) -> Bool {
    guard !c.verify, case .generated(let kind) = c.scene else { return false }
    return SceneGenerator(kind: kind, layers: c.layers).sealsTopLevelLayers
  }

  /// Runs a configuration whose scene is compiled as it is generated
  /// (`CompiledScene(layers:generating:)`): the model is never held whole, so its bytes in the
  /// results are 0, and the compile is bit for bit the whole tree's (tested).
  public static func runCompilingWhileGenerating(
    _ c: RunConfiguration, progress: ((String) -> Void)? = nil
  ) throws(Failure) -> [Measurement] {
    guard case .generated(let kind) = c.scene else { preconditionFailure("not a generated scene") }
    let generator = try _generator(c, kind)
    let (scene, sceneBytes) = AllocationCounter.retained {
      CompiledScene(layers: c.layers, generating: { generator.make(sealing: $0) })
    }
    return _run(
      c, scene: scene, sceneBytes: sceneBytes, area: _pointArea(scene.root), reference: nil, modelBytes: 0,
      progress: progress)
  }

  /// The frames of every strategy and query count over a compiled scene.
  static func _run(
    _ c: RunConfiguration, scene: CompiledScene, sceneBytes: Int, area: Rect, reference: PresentationFrameBuilder?,
    modelBytes: Int, progress: ((String) -> Void)?
  ) -> [Measurement] {
    scene._faults = c.faults
    // A builder for each thread count, its frame grown to the whole scene by one build of every
    // column.
    let builders = c.threads.map { threads in
      let (made, bytes) = AllocationCounter.retained {
        let b = PresentationFrameBuilder(scene: scene, semantics: c.semantics, threads: threads)
        b.frameBudgetNanoseconds = c.budgetNs
        _ = b.build(at: 0, animated: !c.modelTree)
        return b
      }
      return (builder: made, bytes: bytes)
    }
    let builder = builders[0].builder
    // Room for the longest run (`windowsAtLeast`); every strategy runs the first
    // `warmup + frames` of them, a time-aware one more until it holds the windows asked for.
    let ts = times(c, measured: c.longestFrames)
    // What reading the thread CPU clock adds to a frame's span, under this run's pacing: the
    // same for every query count.
    let cpuClockCost = Clocks.threadCPUReadCost(afterSleep: c.pacing == .realTime)
    var out: [Measurement] = []
    for q in c.queries {
      let pts = points(c, area: area, builder: builder, queries: q, times: ts)
      var loop = FrameLoop(builder: builder, times: ts, points: pts, queries: q)
      loop.requiredFrames = c.warmup + c.frames
      loop.warmup = c.warmup
      loop.windowsAtLeast = c.windowsAtLeast
      loop.animated = !c.modelTree
      loop.options = StrategyOptions(
        windowSeconds: c.windowSeconds, windowCost: c.windowCost, windowOverlap: c.windowOverlap)
      loop.realTime = c.pacing == .realTime
      loop.cpuClockCostNs = cpuClockCost
      loop.countedPhase = c.countedPhase
      let floors = Floors.measure(loop: loop, warmup: c.warmup)
      // What runs: every strategy on the first builder, then every frame strategy on each
      // further one (so that a report's rows of one thread count stay together).
      var contestants: [(kind: StrategyKind, builder: Int)] = []
      for b in builders.indices {
        for kind in c.strategies where b == 0 || kind.consumesFrame { contestants.append((kind, b)) }
      }
      // Every repetition runs every strategy afresh (its warm-up again) into the same records;
      // the last repetition's turns give the outcome.
      let recorders = contestants.map { _ in _recorder(c, loop: loop, layers: scene.count, reference: reference) }
      var turns: [_Turn] = []
      let turnsBegan = c.interleave ? Swift.max(Clocks.monotonicNanoseconds(), 1) : 0
      let loadBefore = HostLoad.now()
      for repetition in 0..<Swift.max(c.repeats, 1) {
        turns = zip(contestants, recorders).map { contestant, recorder in
          var mine = loop
          mine.builder = builders[contestant.builder].builder
          return _Turn(c, kind: contestant.kind, loop: mine, hooks: recorder)
        }
        if c.interleave {
          _takeTurns(turns, warmup: c.warmup, firstRound: repetition) { round in
            progress?("round \(round + 1), Q=\(q)")
          }
        } else {
          _runInSequence(c, turns: turns, builders: builders.map(\.builder), progress: progress)
        }
      }
      let otherCores = HostLoad.now().otherCores(since: loadBefore)
      for (t, contestant) in zip(turns, contestants) {
        guard let outcome = t.session?.outcome, let recorder = t.hooks as? _Recorder else {
          preconditionFailure("\(t.kind.rawValue) did not finish")
        }
        var m = recorder.measurement(
          c, kind: t.kind, threads: t.threads, queries: q, layers: scene.count, outcome: outcome, floors: floors)
        m.cpuClockCostNs = Double(loop.cpuClockCostNs)
        m.turns = turnsBegan
        m.hostOtherCores = otherCores
        m.memory = MemoryBreakdown(
          modelBytes: modelBytes, compiledSceneBytes: sceneBytes, frameBytes: builders[contestant.builder].bytes,
          strategyBytes: outcome.strategyBytes)
        out.append(m)
      }
    }
    return out
  }
}

/// One strategy's turn in a run: its frames (on the builder of its thread count), its session
/// (made at its first block) and its records (the hooks, which hear where each block ends).
final class _Turn {
  let kind: StrategyKind
  let loop: FrameLoop
  let hooks: any FrameLoopHooks
  /// Its background work, held while another strategy's block runs.
  let gate = BackgroundGate()
  var session: FrameSession?
  /// A planted slowdown of its queries (`RunConfiguration.injectedQueryDelay`).
  let queryDelayNs: UInt64
  /// Planted instructions in its queries (`RunConfiguration.injectedQueryInstructions`).
  let queryInstructions: UInt64
  /// Its window by Q, pinned for a count (`RunConfiguration.countedWindows`).
  let countedWindows: [Int: Double]
  /// The label of its counts in a pass of `run --instructions` (nil outside one).
  var countLabel: String?
  /// Its configuration as the trace names it, and its process there (0 until it has one).
  var traceLabel = ""
  var traceProcess = 0
  init(
    kind: StrategyKind, loop: FrameLoop, hooks: any FrameLoopHooks, queryDelayNs: UInt64 = 0,
    queryInstructions: UInt64 = 0, countedWindows: [Int: Double] = [:]
  ) {
    self.kind = kind
    self.loop = loop
    self.hooks = hooks
    self.queryDelayNs = queryDelayNs
    self.queryInstructions = queryInstructions
    self.countedWindows = countedWindows
  }

  /// A turn of `c`'s strategy `kind`, with `c`'s planted slowdowns when they name it.
  convenience init(_ c: RunConfiguration, kind: StrategyKind, loop: FrameLoop, hooks: any FrameLoopHooks) {
    let delay = c.injectedQueryDelay.flatMap { $0.strategy == kind.rawValue ? $0.nanoseconds : nil } ?? 0
    var windows: [Int: Double] = [:]
    for q in c.queries { windows[q] = c.countedWindows["\(kind.rawValue) \(q)"] }
    let instructions =
      c.injectedQueryInstructions.flatMap { $0.strategy == kind.rawValue ? $0.instructions : nil } ?? 0
    self.init(
      kind: kind, loop: loop, hooks: hooks, queryDelayNs: delay, queryInstructions: instructions,
      countedWindows: windows)
    traceLabel = "\(c.scene.name) \(c.layers)"
    if c.countedPhase != nil {
      countLabel =
        "hitbench configuration=\(c.countedConfiguration) strategy=\(kind.rawValue) threads=\(threads) "
        + "queries=\(loop.queries)"
    }
  }

  var isFinished: Bool { session?.isFinished ?? false }

  /// The threads its frames are built on (1 for a scene strategy, which builds none).
  var threads: Int { kind.consumesFrame ? loop.builder.threads : 1 }

  /// Its threads as its name on the trace and in progress says them ("" for one).
  var threadsLabel: String { threads > 1 ? ", \(threads) threads" : "" }

  /// Runs up to `frames` frames of its session (made first when needed), with its background
  /// work let go; the frames' allocations are counted, so invariant checks (debug builds) are
  /// suspended.
  func run(frames: Int) {
    if Trace.isOn {
      // Its own process on the trace, current while its block runs (and where its background
      // thread is made, which keeps it).
      if traceProcess == 0 {
        traceProcess = Trace.registerProcess("\(kind.rawValue) Q=\(loop.queries) \(traceLabel)\(threadsLabel)")
      }
      Trace.setCurrentProcess(traceProcess)
    }
    gate.release()
    gate.withCurrent {
      InternalChecks.$suspended.withValue(true) {
        if session == nil {
          var mine = loop
          mine.queryDelayNs = queryDelayNs
          mine.queryInstructions = queryInstructions
          if let w = countedWindows[loop.queries] { mine.options.windowSeconds = w }
          if mine.countedPhase == .candidates, let countLabel {
            mine.candidateCountLabel = countLabel + " frames=1 phase=candidates"
          }
          session = mine.session(kind, hooks: hooks)
        }
        session?.run(frames: frames)
      }
    }
  }
}

extension Runner {
  /// Frames per block of an interleaved run (after the warm-up, which is a block of its own):
  /// short enough that a slow second of the host lands on every strategy, long enough that a
  /// block's switch (an untimed build, a held background build) is a small part of it.
  public static let blockFrames = 10

  static func _recorder(_ c: RunConfiguration, loop: FrameLoop, layers: Int, reference: PresentationFrameBuilder?)
    -> _Recorder
  {
    _Recorder(
      frames: loop.times.count * Swift.max(c.repeats, 1), warmup: c.warmup, reference: reference,
      animated: loop.animated,
      checkedPerFrame: checkedAnswersPerFrame(queries: loop.queries, layers: layers, visits: c.verifyVisitsPerFrame))
  }

  /// Each turn runs all its frames before the next starts (`--interleave off`).
  static func _runInSequence(
    _ c: RunConfiguration, turns: [_Turn], builders: [PresentationFrameBuilder], progress: ((String) -> Void)?
  ) {
    for turn in turns {
      let kind = turn.kind
      progress?("\(kind.rawValue) Q=\(turn.loop.queries)\(turn.threadsLabel)")
      // A scene strategy reads the compiled scene, never the builders' frames: their columns
      // and rows are freed while it runs, so its peak is its own state's, not the frames' as
      // well; before the next frame strategy, an untimed build at the last frame's time makes
      // its builder's again, as the floors left them.
      if !kind.consumesFrame {
        let pages = AllocationCounter.ImmediatePageReturn()
        for b in builders where b.frame.count > 0 { b.releaseColumns() }
        pages.end()
      } else if turn.loop.builder.frame.count == 0 {
        let loop = turn.loop
        _ = loop.builder.build(
          at: loop.requiredFrames > 0 ? loop.times[loop.requiredFrames - 1] : 0, animated: loop.animated)
      }
      turn.run(frames: turn.loop.times.count)
      if let phase = c.countedPhase, phase != .candidates, let countLabel = turn.countLabel {
        // What Callgrind collected of this strategy's frames, in a dump of its own (the
        // candidates pass dumps as it counts).
        let label =
          countLabel + " frames=\((turn.hooks as? _Recorder)?.timings.count ?? 0) phase=\(phase.rawValue) "
          + "jobs=\(hitbench_helper_jobs_take(phase.code))"
        label.withCString { hitbench_callgrind_dump($0) }
      }
    }
  }

  /// Runs `turns` in blocks until every one has ended: each round gives every unfinished turn
  /// a block (its warm-up first, then `blockFrames` frames), in an order that rotates by one
  /// each round (the first round at `firstRound`: a repetition starts where the last one's
  /// order left off). A turn's background work is held while another's block runs
  /// (`BackgroundGate`). `afterBlock` sees each turn once its block has run and its background
  /// work is held.
  static func _takeTurns(
    _ turns: [_Turn], warmup: Int, firstRound: Int = 0, roundWillStart: (Int) -> Void = { _ in },
    afterBlock: (_Turn) -> Void = { _ in }
  ) {
    var round = firstRound
    while turns.contains(where: { !$0.isFinished }) {
      roundWillStart(round)
      for k in 0..<turns.count {
        let turn = turns[(k + round) % turns.count]
        guard !turn.isFinished else { continue }
        turn.run(frames: turn.session == nil && warmup > 0 ? warmup : blockFrames)
        if !turn.isFinished { turn.gate.hold() }
        afterBlock(turn)
      }
      round += 1
    }
  }

  /// How many of a frame's `queries` answers `verify` checks: all of them when the reference
  /// walk over `layers` layers stays within `visits` for the frame, else as many as fit (at
  /// least one).
  public static func checkedAnswersPerFrame(queries: Int, layers: Int, visits: Int) -> Int {
    let (whole, overflow) = queries.multipliedReportingOverflow(by: Swift.max(1, layers))
    guard overflow || whole > visits else { return queries }
    return Swift.min(queries, Swift.max(1, visits / Swift.max(1, layers)))
  }
}

/// Collects per-frame records for one strategy run.
final class _Recorder: FrameLoopHooks {
  let warmup: Int
  let reference: PresentationFrameBuilder?
  let animated: Bool
  var timings: [FrameTiming]
  var allocations: [UInt64]
  var bytes: [UInt64]
  var before = AllocationCounter.Reading(allocations: 0, bytes: 0, callingThreadBytes: 0)
  var verified = 0
  var tolerated = 0
  var disagreements = 0
  /// The first few disagreements, kept for the report.
  var failures: [Measurement.Failure] = []
  var walk = TreeWalk()
  /// How many of a frame's answers are checked (`Runner.checkedAnswersPerFrame`).
  let checkedPerFrame: Int

  init(frames: Int, warmup: Int, reference: PresentationFrameBuilder?, animated: Bool, checkedPerFrame: Int) {
    self.checkedPerFrame = checkedPerFrame
    self.warmup = warmup
    self.reference = reference
    self.animated = animated
    timings = []
    allocations = []
    bytes = []
    timings.reserveCapacity(frames)
    allocations.reserveCapacity(frames)
    bytes.reserveCapacity(frames)
  }

  func frameWillStart(_ index: Int) {
    before = AllocationCounter.read()
  }

  func frameDidEnd(
    _ index: Int, time: Double, timing: FrameTiming, points: UnsafeBufferPointer<Point>,
    answers: UnsafeBufferPointer<LayerID?>
  ) {
    let used = AllocationCounter.read() - before
    // The measured frames of every repetition, one after another (a warm-up is checked, not
    // measured).
    if index >= warmup {
      timings.append(timing)
      allocations.append(used.allocations)
      bytes.append(used.bytes)
    }
    guard let reference else { return }
    // A check the frames would not have: the background builders wait it out.
    BuildPause.hold()
    defer { BuildPause.resume() }
    walk.update(with: reference.build(at: time, animated: animated))
    let oracle = ReferenceOracle(builder: reference, tree: HitTestTree(animated: animated))
    // Every answer, or every stride-th from an offset that moves by one each frame.
    let checked = Swift.min(points.count, checkedPerFrame)
    guard checked > 0 else { return }
    let stride = points.count / checked
    let offset = stride > 1 ? index % stride : 0
    for i in Swift.stride(from: offset, to: points.count, by: stride).prefix(checked) {
      verified += 1
      let expected = walk.hitTest(points[i])
      switch AnswerComparison.compare(answers[i], expected, at: points[i], oracle: oracle) {
      case .agree: break
      case .tolerated: tolerated += 1
      case .disagree:
        disagreements += 1
        if failures.count < 5 {
          failures.append(
            Measurement.Failure(
              frame: index, windowSeconds: timing.counters.windowSeconds, time: time, point: points[i],
              answer: answers[i], expected: expected))
        }
      }
    }
  }

  /// Where each block ended, in measured frames recorded so far.
  var blockEnds: [Int] = []

  func blockDidEnd() { blockEnds.append(timings.count) }

  /// The measured frames' blocks (a block that ran only warm-up frames has none).
  func blocks() -> [Measurement.Block] {
    var out: [Measurement.Block] = []
    var start = 0
    for end in blockEnds {
      defer { start = end }
      guard end > start else { continue }
      let frames = timings[start..<end]
      let n = Double(frames.count)
      out.append(
        Measurement.Block(
          firstFrame: start, frames: frames.count,
          meanFrameNs: frames.reduce(0) { $0 + Double($1.frameNs) } / n,
          meanHitTestNs: frames.reduce(0) { $0 + Double($1.hitTestNs) } / n,
          meanCpuNs: frames.reduce(0) { $0 + Double($1.cpuNs) } / n,
          maxFrameNs: Double(frames.map(\.frameNs).max() ?? 0),
          allocationsPerFrame: Double(allocations[start..<end].reduce(0, +)) / n))
    }
    return out
  }

  func measurement(
    _ c: RunConfiguration, kind: StrategyKind, threads: Int, queries: Int, layers: Int, outcome: FrameLoop.Outcome,
    floors: Floors
  ) -> Measurement {
    let measured = timings
    func summary(_ v: (FrameTiming) -> UInt64) -> Summary { Summary(measured.map { Double(v($0)) }) }
    func mean(_ v: (FrameTiming) -> Double) -> Double {
      measured.isEmpty ? 0 : measured.reduce(0) { $0 + v($1) } / Double(measured.count)
    }
    let qs = summary(\.queriesNs)
    let frame = summary(\.frameNs)
    let n = Double(Swift.max(allocations.count, 1))
    let perQuery = Double(Swift.max(queries, 1))
    let windowMs = mean { $0.counters.windowSeconds * 1000 }
    var m = Measurement(
      strategy: kind.rawValue, family: kind.family.rawValue, scene: c.scene.name, layers: layers,
      animatedFraction: c.animatedFraction, queriesPerFrame: queries, workload: c.workload.rawValue,
      semantics: c.semantics.name, frames: measured.count, threads: threads,
      frameNs: frame, hitTestNs: summary(\.hitTestNs), presentationNs: summary(\.presentationNs),
      buildTimingNs: summary(\.buildTimingNs), buildOrderNs: summary(\.buildOrderNs),
      buildComposeNs: summary(\.buildComposeNs), updateNs: summary(\.updateNs), queriesNs: qs,
      cpuNs: summary(\.cpuNs), budgetNs: c.budgetNs,
      framesOverBudget: measured.filter { Double($0.frameNs) > c.budgetNs }.count,
      nsPerQuery: queries > 0 ? qs.mean / perQuery : 0, rowsRecomputedPerFrame: mean { Double($0.rowsRecomputed) },
      presentationsPerQuery: mean { Double($0.counters.presentations) } / perQuery,
      candidatesPerQuery: mean { Double($0.counters.candidates) } / perQuery, nsPerCandidate: outcome.nsPerCandidate,
      reindexedPerFrame: mean { Double($0.counters.reindexed) },
      unboundedLayers: mean { Double($0.counters.unbounded) },
      windowMs: windowMs,
      windowsHeld: FrameLoop.windowsHeld(
        frames: measured.count, frameSeconds: 1 / c.fps, meanWindowSeconds: windowMs / 1000),
      allocationsPerFrame: Double(allocations.reduce(0, +)) / n, bytesAllocatedPerFrame: Double(bytes.reduce(0, +)) / n,
      peakResidentBytes: ResourceUsage.peakResidentBytes, indexBytes: outcome.indexBytes,
      testedPerQuery: outcome.testedPerQuery, verifiedAnswers: verified, toleratedAnswers: tolerated,
      disagreements: disagreements, queryFloorNs: floors.queryNs, updateFloorNs: floors.updateNs)
    m.windowPinned = c.windowSeconds != nil && m.windowMs > 0
    m.lateFrames = measured.reduce(0) { $0 + $1.counters.lateFrames }
    m.waitedFrames = measured.reduce(0) { $0 + $1.counters.waitedFrames }
    m.cpuThreadNs = summary(\.cpuThreadNs)
    m.cpuBuildWorkersNs = summary(\.cpuBuildWorkersNs)
    m.cpuBackgroundNs = summary(\.cpuBackgroundNs)
    m.splitBuilds = mean { $0.buildSplit ? 1 : 0 }
    m.failures = failures
    m.frameTimings = measured
    m.blocks = blocks()
    m.interleaved = c.interleave
    m.repeats = c.repeats
    m.windowsWanted = c.windowsAtLeast
    m.windowCost = c.windowCost.rawValue
    m.windowOverlap = c.windowOverlap
    m.computeIntervals()
    m.tree = c.modelTree ? HitTestTree.model.rawValue : HitTestTree.presentation.rawValue
    m.pacing = c.pacing.rawValue
    return m
  }
}
