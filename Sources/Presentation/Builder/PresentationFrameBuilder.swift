import CCallgrind
import Clocks
import Columns
import LayerModel

/// Builds the `PresentationFrame` of one model tree at any clock time, from its `CompiledScene`.
///
/// A build has three passes (docs/architecture.md):
/// 1. **timing and animations** (model order): for each layer whose presentation can have
///    changed (an animated layer, one whose properties were set, their sublayers when a
///    sublayerTransform carries over), its local time, animations, level map and inverse, local
///    bounds, flags and order key, compared with the previous build's;
/// 2. **ordering**: siblings re-sorted only where an order key changed;
/// 3. **composition and boxes** (row order): the rows of every changed layer's subtree: world
///    maps (2x3 affine, 3x3 only below a projective level), flags, guard rows, world boxes.
///
/// A layer whose own values and ancestors' values did not change keeps its rows, so the cost
/// follows the animated layers and their subtrees. Each strategy asks only for the columns it
/// needs (`FrameColumns`). With `threads > 1`, large trees are split at top-level subtrees
/// across a pool of worker threads, giving the same frame bit for bit; whether a steady build
/// splits is decided by what splitting has cost lately (`SplitGovernor`, `splitPolicy`). No
/// allocation per frame once the scene's size is reached (tested).
public final class PresentationFrameBuilder {
  public let scene: CompiledScene
  public let semantics: HitTestSemantics
  /// The frame this builder fills; the same object on every build.
  public let frame: PresentationFrame
  /// Worker threads for large trees (1: the calling thread only).
  public var threads: Int {
    didSet {
      threads = Swift.max(threads, 1)
      _workers = threads > 1 ? BuildWorkers(count: threads - 1) : nil
      // Another pool: what the old one cost says nothing of it.
      var fresh = SplitGovernor()
      fresh.latencyBound = frameBudgetNanoseconds / 2
      _governors = [SplitGovernor](repeating: fresh, count: _governors.count)
      _pendingGovernor = -1
      _built = false
    }
  }

  /// When a build that could split between threads does.
  public enum SplitPolicy: Sendable {
    /// Whenever its passes are large enough (`BuildWorkers`' thresholds).
    case always
    /// Full builds as `always`; a steady build when splitting has lately saved wall time at a
    /// bounded CPU price on this host (`SplitGovernor`). The default, except under Valgrind
    /// (instruction counts must not follow the host's timing) or with
    /// `HITBENCH_BUILD_ADAPTIVE=0`.
    case adaptive
  }
  /// The frame's budget: a steady build that takes more than half of it on one thread splits
  /// whenever that saves wall time, whatever the CPU (`SplitGovernor.latencyBound`).
  public var frameBudgetNanoseconds = 1e9 / 120 {
    didSet {
      for g in _governors.indices { _governors[g].latencyBound = frameBudgetNanoseconds / 2 }
    }
  }
  public var splitPolicy: SplitPolicy =
    BuildWorkers.adaptsSplits && hitbench_on_valgrind() == 0 ? .adaptive : .always

  public var root: Layer { scene.root }
  /// The model layers in preorder: `layers[id.rawValue]` is the layer with that `LayerID`.
  public var layers: [Layer] { scene.layers }

  /// What the last build did, for reports.
  public struct Stats: Sendable {
    /// Pass 1 (timing and animations), pass 2 (ordering) and pass 3 (composition and boxes),
    /// in nanoseconds on the monotonic clock.
    public var timingNs: UInt64 = 0
    public var orderNs: UInt64 = 0
    public var composeNs: UInt64 = 0
    /// Layers evaluated in pass 1, and rows recomputed in pass 3.
    public var layersEvaluated = 0
    public var rowsRecomputed = 0
    /// Whether the whole frame was rebuilt (first build, topology or order change, columns).
    public var full = false
    /// Whether some pass was split between threads.
    public var split = false
  }
  public private(set) var stats = Stats()

  // Pass 1 results, per model layer (kept between builds).
  var levelMap = ColumnBuffer<AffineMap>()
  var levelInverse = ColumnBuffer<AffineMap>()
  var levelHomography = ColumnBuffer<Homography>()  // projective levels only
  var levelHomographyInverse = ColumnBuffer<Homography>()
  var localBounds = ColumnBuffer<Box>()
  var localFlags = ColumnBuffer<UInt8>()
  /// Lean layers keep only their presentation numbers; pass 3 derives their level map,
  /// inverse, flags and bounds from them and the scene's affine part of their transform.
  var leanLevel = ColumnBuffer<Bool>()
  var presentValues = ColumnBuffer<LeanValues>()
  var orderKey = ColumnBuffer<Double>()
  /// The presentation state of layers whose sublayerTransform reaches their sublayers' maps.
  var contextState = ColumnBuffer<LayerState>()
  var hasContext = ColumnBuffer<Bool>()
  /// Local times of the layers with their own timing, by their place in the scene's
  /// `timingNodes` (the rest inherit).
  var nodeTime = ColumnBuffer<Double>()
  /// Layers evaluated one by one on every animated build: the animated layers that are not
  /// tracks and the sublayers of animated layers that carry a sublayerTransform context; in
  /// preorder.
  var alwaysEvaluated: [Int32] = []
  /// Animated lean layers with one lean animation, evaluated by the program's track loop
  /// (`FrozenAnimationProgram.evaluateTracks`) on every animated build; in preorder (a lazy
  /// presentation finds its candidates' tracks here). Their local times and change marks are
  /// scratch columns at least as long, sized by the first build that runs the track loop.
  var tracks = ColumnBuffer<LeanTrack>()
  var trackTime = ColumnBuffer<Double>()
  var trackChanged = ColumnBuffer<UInt8>()
  var trackActive = ColumnBuffer<ActiveTime>()

  // Row order.
  var rowOf = ColumnBuffer<Int32>()
  var sortedChildren = ColumnBuffer<Int32>()
  var stack = ColumnBuffer<Int32>()
  /// The nearest clipping row at or above each row (-1: none).
  var clipRow = ColumnBuffer<Int32>()
  /// Layers whose order key changed in pass 1 (one byte each, so threads never share a word).
  var keyChanged = ColumnBuffer<UInt8>()
  /// Parents whose sublayers need sorting again, by model id.
  var resort = ColumnBuffer<Bool>()
  var resortList = ColumnBuffer<Int32>()
  var resortCount = 0
  /// Rows whose subtree pass 3 must recompute (one byte each, as above).
  var rowChanged = ColumnBuffer<UInt8>()
  /// How many parts a split pass has (`BuildWorkers.partsPerThread` for each thread; 1 on one
  /// thread).
  var splitParts: Int { threads > 1 ? threads * BuildWorkers.partsPerThread : 1 }
  /// Where pass 1 splits into parts (`splitParts + 1` model indices from 1 to the layer
  /// count): the top-level subtrees nearest equal shares.
  var modelSplits: [Int] = []
  /// Pass 3 splits at any rows: the rows on the paths from the root to the split rows are
  /// composed first (`chainMark`, one byte per row; `chainRows` their list), and each part
  /// skips them. `inheritedEnd[k]`: where the marked subtree that part k starts inside ends.
  var chainMark = ColumnBuffer<UInt8>()
  var chainRows = ColumnBuffer<Int32>()
  var inheritedEnd: [Int] = []
  /// The runs of rows each part of pass 3 recomputed (`runsPerPart` a part, from
  /// `part * runsPerPart`) and how many (-1: more than it records), gathered into the frame's
  /// `changedRuns()`.
  var partRuns = ColumnBuffer<RowRun>()
  var partRunCount = ColumnBuffer<Int32>()
  /// A quarter of the rows on one thread, half a part's rows when split; at least 64: beyond
  /// that many runs in one part, a build reports that it recomputed every row (an index gains
  /// little from moving that many scattered rows one by one). At most 4 bytes a row over all
  /// parts, and as many for the frame's list.
  var runsPerPart: Int {
    Swift.max(64, splitParts == 1 ? (_layerCount + 3) / 4 : (_layerCount / splitParts + 1) / 2)
  }

  /// The semantics' rules as plain values (the struct holds a String: reading it per layer
  /// would retain and release it).
  let _ordersByZPosition: Bool
  let _rules: AdmissionRules

  var _layerCount = 0
  /// true for a builder whose frame's rows are each composed before they are read, and never
  /// built whole (a lazy presentation's): its geometry columns are then not initialised
  /// (`PresentationFrame._reserve`).
  var _composesBeforeReading = false
  var _built = false
  var _lastAnimated = true
  var _lastColumns: FrameColumns = []
  var _lastRowsRecomputed = 0
  var _topologyVersion = -1
  var _evaluationVersion = -1
  var _changeVersion = -1
  var _workers: BuildWorkers?
  /// Whether this build may split its passes (decided as it starts; each pass then splits
  /// when it is large enough), and how many passes it split.
  var _splits = false
  var _splitPasses = 0
  /// One governor for each kind of build (the columns asked for, presentation or model): a
  /// runner's strategies share the builder and ask for different columns.
  var _governors = [SplitGovernor](repeating: SplitGovernor(), count: 8)
  /// The last governed build, recorded as the next build starts (its workers' CPU then includes
  /// their spin after it): its governor (-1: none pending), whether it split, its wall time,
  /// and the workers' CPU clock as it started.
  var _pendingGovernor = -1
  var _pendingSplit = false
  var _pendingWall: UInt64 = 0
  var _pendingWorkersCPU: UInt64 = 0

  static let localAdmitted: UInt8 = 1
  static let localHidden: UInt8 = 2
  static let localInvertible: UInt8 = 4
  static let localProjective: UInt8 = 8
  static let localClips: UInt8 = 16

  public convenience init(root: Layer, semantics: HitTestSemantics = .calayer, threads: Int = 1) {
    self.init(scene: CompiledScene(root: root), semantics: semantics, threads: threads)
  }

  public init(scene: CompiledScene, semantics: HitTestSemantics = .calayer, threads: Int = 1) {
    self.scene = scene
    self.semantics = semantics
    self.frame = PresentationFrame(semantics: semantics)
    self.threads = Swift.max(threads, 1)
    _ordersByZPosition = semantics.ordersByZPosition
    _rules = AdmissionRules(semantics)
    _workers = self.threads > 1 ? BuildWorkers(count: self.threads - 1) : nil
  }

  /// Kept for callers that changed the tree: the scene notices changes by itself, so this only
  /// makes the next build a full one.
  public func reloadTopology() {
    scene.synchronize()
    _built = false
  }

  /// Model layer m's presentation state at the last build (its model values with every active
  /// animation applied): what the frame's rows were computed from.
  public func presentationState(ofLayer m: Int) -> LayerState {
    _lastAnimated ? scene.presentationState(m, localTime: scene.localTime(m, clock: frame.time)) : scene.modelState(m)
  }

  /// The model layer of an id.
  public func layer(_ id: LayerID) -> Layer { scene.layers[Int(id.rawValue)] }

  /// Fills `frame` with the presentation tree at clock time `time` (or, with `animated: false`,
  /// the model tree: what hit-testing the model during an animation sees), computing `columns`.
  @discardableResult
  public func build(at time: Double, animated: Bool = true, columns: FrameColumns = .all) -> PresentationFrame {
    precondition(!_composesBeforeReading, "a lazy presentation's builder is never built whole")
    let changes = scene.synchronize()
    // Changes another consumer of the scene took: their list is gone, so start over.
    let missed = changes.since != _changeVersion
    _changeVersion = scene.changeVersion
    var full = !_built || changes.topology || missed || scene.topologyVersion != _topologyVersion
    if full { _reload() }
    if scene.evaluationVersion != _evaluationVersion { _planEvaluation() }
    let columns = columns.union(.structure)
    if animated != _lastAnimated || !_lastColumns.isSuperset(of: columns) { full = true }
    let f = frame
    f.time = time
    f.count = _layerCount
    f.generation &+= 1
    f.columns = columns
    stats = Stats()
    stats.full = full

    let t0 = Clocks.monotonicNanoseconds()
    // A layer whose sublayerTransform reaches its sublayers' maps (now, or at the last build)
    // changed: its sublayers' level maps may change too; evaluate every layer.
    let evaluateAll = full || changes.layers.contains { _isContextBearing(Int($0)) || hasContext[Int($0)] }
    let governor = _decideSplit(full: full, evaluateAll: evaluateAll, animated: animated, columns: columns)
    _timeNodes(time, animated: animated)
    var keys = 0
    if evaluateAll {
      keys = _pass1All(animated: animated)
      stats.layersEvaluated = _layerCount
      // A layer whose model changed recomputes its level and rows whatever its numbers (see
      // below).
      for m in changes.layers where _evaluate(Int(m), animated: animated, force: true) { keys += 1 }
    } else {
      // A layer whose model changed recomputes its rows whatever its numbers (its transform,
      // say, is not among them).
      for m in changes.layers where _evaluate(Int(m), animated: animated, force: true) { keys += 1 }
      var evaluated = changes.layers.count
      if animated || _lastAnimated {
        keys += _pass1List(animated: animated)
        keys += _pass1Tracks()
        evaluated += alwaysEvaluated.count + tracks.count
      }
      stats.layersEvaluated = evaluated
    }
    if keys > 0 { _collectResorts() }
    let t1 = Clocks.monotonicNanoseconds()
    let reordered = _order(full: full)
    let t2 = Clocks.monotonicNanoseconds()
    if full || reordered {
      stats.rowsRecomputed = _composeAll(columns)
    } else {
      stats.rowsRecomputed = _composeChanged(columns)
    }
    let t3 = Clocks.monotonicNanoseconds()
    _lastRowsRecomputed = stats.rowsRecomputed
    stats.timingNs = t1 &- t0
    stats.orderNs = t2 &- t1
    stats.composeNs = t3 &- t2
    stats.split = _splitPasses > 0
    if governor >= 0 {
      _pendingGovernor = governor
      _pendingSplit = stats.split
      _pendingWall = t3 &- t0
    }
    _workers?.buildDidEnd()
    _built = true
    _lastAnimated = animated
    _lastColumns = columns
    f._checkInvariants()
    return f
  }

  /// Whether this build will likely split a pass between threads (a full one, or one like the
  /// last): then the workers are woken as it starts, so that their wake-up overlaps pass 1. A
  /// build that recomputes a few rows leaves them asleep.
  func _expectsSplit(evaluateAll: Bool) -> Bool {
    guard _workers != nil, _layerCount >= BuildWorkers.minimumRowsToSplit else { return false }
    return evaluateAll || _splitsList(tracks.count) || _splitsList(alwaysEvaluated.count)
      || _lastRowsRecomputed >= BuildWorkers.minimumChangedRowsToSplit
  }

  /// Decides whether this build may split (`_splits`), recording the last governed build's
  /// cost first, and wakes the workers when it will likely split. Answers the governor that
  /// decided (-1: none did; the build splits where its passes are large enough, as under
  /// `.always`). One system call (the workers' CPU clock) on a governed build.
  func _decideSplit(full: Bool, evaluateAll: Bool, animated: Bool, columns: FrameColumns) -> Int {
    _splitPasses = 0
    guard let workers = _workers, _layerCount >= BuildWorkers.minimumRowsToSplit else {
      _splits = false
      return -1
    }
    // (`_expectsSplit` reads `_splits`: the passes' own thresholds, asked before the decision.)
    _splits = true
    let expected = _expectsSplit(evaluateAll: evaluateAll)
    defer { if _splits && expected { workers.wake() } }
    let governed = splitPolicy == .adaptive && !full && expected
    guard governed || _pendingGovernor >= 0 else { return -1 }
    let workersCPU = workers.cpuNanoseconds()
    if _pendingGovernor >= 0 {
      let helpers = workersCPU &- _pendingWorkersCPU
      _governors[_pendingGovernor].record(
        split: _pendingSplit, wall: Double(_pendingWall), cpu: Double(_pendingWall &+ helpers))
      _pendingGovernor = -1
    }
    guard governed else { return -1 }
    let g = Int(columns.rawValue & 3) | (animated ? 4 : 0)
    _splits = _governors[g].decide()
    _pendingWorkersCPU = workersCPU
    return g
  }

  /// Sizes every column for the scene and forgets the previous build.
  func _reload() {
    let n = scene.count
    _layerCount = n
    _topologyVersion = scene.topologyVersion
    leanLevel.reserve(n, filling: false)
    presentValues.reserve(n, filling: scene.lean[0])
    orderKey.reserve(n, filling: 0)
    _sizeWideColumns(refill: true)
    hasContext.reserve(n, filling: false)
    nodeTime.reserve(Swift.max(scene.timingNodes.count, 1), filling: 0)
    rowOf.reserve(n, filling: 0)
    sortedChildren.reserve(Swift.max(scene.childList.count, 1), filling: 0)
    for (k, c) in scene.childList.enumerated() { sortedChildren[k] = c }
    stack.reserve(n + 1, filling: 0)
    clipRow.reserve(n, filling: -1)
    keyChanged.reserve(n, filling: 0)
    resort.reserve(n, filling: false)
    resortList.reserve(n, filling: 0)
    resortCount = 0
    rowChanged.reserve(n + 8, filling: 0)
    chainMark.reserve(n, filling: 0)
    chainRows.reserve(n, filling: 0)
    inheritedEnd = [Int](repeating: 0, count: splitParts + 1)
    modelSplits = _splits(
      parts: splitParts,
      lengths: scene.childList[Int(scene.childStart[0])..<Int(scene.childStart[1])].map {
        Int(scene.subtreeSize[Int($0)])
      })
    frame._reserve(n, initializingGeometry: !_composesBeforeReading)
    frame.orderGeneration &+= 1
    _planEvaluation()
    _built = false
  }

  /// Frees every per-layer column and the frame's rows, keeping the scene: the next build is a
  /// full one and allocates them again. For a caller that will not build for a while, such as
  /// a run whose next strategy reads the compiled scene, not frames (at 1,000,000 particles
  /// the columns and rows are about 500 MB). O(1) but for the system's page returns.
  public func releaseColumns() {
    levelMap.release()
    levelInverse.release()
    levelHomography.release()
    levelHomographyInverse.release()
    localBounds.release()
    localFlags.release()
    leanLevel.release()
    presentValues.release()
    orderKey.release()
    contextState.release()
    hasContext.release()
    nodeTime.release()
    alwaysEvaluated = []
    tracks.release()
    trackTime.release()
    trackChanged.release()
    trackActive.release()
    rowOf.release()
    sortedChildren.release()
    stack.release()
    clipRow.release()
    keyChanged.release()
    resort.release()
    resortList.release()
    resortCount = 0
    rowChanged.release()
    chainMark.release()
    chainRows.release()
    partRuns.release()
    partRunCount.release()
    frame._release()
    _layerCount = 0
    _built = false
  }

  /// Sorts the layers evaluated on every animated build into tracks and the rest (after a
  /// reload, and whenever the scene's animations or flags changed).
  func _planEvaluation() {
    let n = _layerCount
    alwaysEvaluated.removeAll(keepingCapacity: true)
    tracks.reserve(0)
    let program = scene.animations
    for m in 0..<n {
      let b = scene.bits[m]
      let p = m == 0 ? -1 : Int(scene.parent[m])
      let parentContext = p >= 0 && _isContextBearing(p)
      if b.contains(.animated) {
        // A track: on the lean path whatever happens (affine transform, no context above, lean
        // animations) and carrying no context down.
        if !parentContext && b.contains(.affineTransform) && b.contains(.leanAnimations)
          && !b.contains(.hasSublayerTransform),
          let t = program.track(layer: m, records: scene.animationStart[m]..<scene.animationEnd[m])
        {
          tracks.resize(tracks.count + 1, filling: t)
        } else {
          alwaysEvaluated.append(Int32(m))
        }
      } else if parentContext && scene.bits[p].contains(.animated) {
        alwaysEvaluated.append(Int32(m))
      }
    }
    _sizeWideColumns(refill: false)
    _evaluationVersion = scene.evaluationVersion
  }

  /// Where layer m's track is in `tracks` (nil: it has none). O(log tracks).
  func _track(ofLayer m: Int) -> Int? {
    var lo = 0
    var hi = tracks.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if Int(tracks[mid].layer) < m { lo = mid + 1 } else { hi = mid }
    }
    return lo < tracks.count && Int(tracks[lo].layer) == m ? lo : nil
  }

  /// Part boundaries over the top-level subtrees (their sizes, in order): `parts + 1` model
  /// indices from 1 (the root is evaluated first) to one past the last layer, each inner one
  /// the subtree start nearest an equal share.
  func _splits(parts: Int, lengths: [Int]) -> [Int] {
    var starts = [1]
    for l in lengths { starts.append(starts[starts.count - 1] + l) }
    let end = starts[starts.count - 1]
    var splits = [1]
    for k in 1..<Swift.max(parts, 1) {
      let target = 1 + k * (end - 1) / parts
      var best = splits[splits.count - 1]
      for s in starts where s >= best && abs(s - target) < abs(best - target) { best = s }
      splits.append(best)
    }
    splits.append(end)
    return splits
  }

  /// Marks the parents of the layers whose order key changed for sorting (single-threaded,
  /// after pass 1).
  func _collectResorts() {
    for m in 0..<_layerCount where keyChanged[m] != 0 {
      keyChanged[m] = 0
      let p = Int(scene.parent[m])
      if p >= 0 && !resort[p] {
        resort[p] = true
        resortList[resortCount] = Int32(p)
        resortCount += 1
      }
    }
  }

  /// Whether layer m or its sublayers can take pass 1's general path (`_evaluate`): a
  /// non-affine transform, or a presentation that reaches its sublayers' levels
  /// (`_isContextBearing`: general animations or a sublayerTransform).
  func _needsWideColumns(_ m: Int) -> Bool {
    !scene.bits[m].contains(.affineTransform) || _isContextBearing(m)
  }

  /// Sizes the columns only the general path of pass 1 uses (stored level maps and their
  /// inverses, affine or projective, local bounds and flags, sublayerTransform contexts: about
  /// 600 bytes a layer) for every layer when some layer can take that path, and to one entry
  /// when none can: on a scene without perspective, 3D transforms, sublayerTransforms or
  /// general animations every layer is lean and derives its level in pass 3 instead. Rerun
  /// whenever a layer's bits change (`_planEvaluation`); `refill` resets them (a reload).
  /// O(layers).
  func _sizeWideColumns(refill: Bool) {
    let n = _layerCount
    var wide = false
    for m in 0..<n where _needsWideColumns(m) {
      wide = true
      break
    }
    let size = wide ? Swift.max(n, 1) : 1
    guard refill || size != levelHomography.count else { return }
    levelMap.reserve(size, filling: .identity)
    levelInverse.reserve(size, filling: .identity)
    levelHomography.reserve(size, filling: .identity)
    levelHomographyInverse.reserve(size, filling: .identity)
    localBounds.reserve(size, filling: .nothing)
    localFlags.reserve(size, filling: 0)
    contextState.reserve(size, filling: scene.modelState(0))
  }

  /// Whether layer m's presentation reaches its sublayers' level maps: it has a
  /// sublayerTransform, or an animation that can give it one.
  @inline(__always) func _isContextBearing(_ m: Int) -> Bool {
    let b = scene.bits[m]
    return b.contains(.hasSublayerTransform) || b.contains(.generalAnimations)
  }

  /// Local times of the layers with their own timing, parents first (the scene lists them: a
  /// still screen pays for its timed layers, not for its layers).
  func _timeNodes(_ time: Double, animated: Bool) {
    guard animated else { return }
    // Timings set since the reload (allocates only when their number grows).
    if nodeTime.count < scene.timingNodes.count { nodeTime.resize(scene.timingNodes.count, filling: 0) }
    let tp = scene.timingNode._unsafeStorage
    scene.timingNodes.withUnsafeBufferPointer { nodes in
      for (k, node) in nodes.enumerated() {
        let m = Int(node)
        let above = m == 0 ? -1 : Int(tp[Int(scene.parent[m])])
        let parentTime = above < 0 ? time : nodeTime[above]
        nodeTime[k] = scene.timings[Int(scene.timingSlot[m])].layerLocalTime(fromParent: parentTime)
      }
    }
  }

  @inline(__always) func _localTime(_ m: Int) -> Double {
    let node = Int(scene.timingNode[m])
    return node < 0 ? frame.time : nodeTime[node]
  }
}
