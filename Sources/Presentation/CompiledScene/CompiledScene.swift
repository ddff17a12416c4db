import Columns
import LayerModel

/// The model tree compiled into columns: topology, every layer's animatable properties and
/// flags, and every animation as plain records (`FrozenAnimationProgram`), indexed by the layer's
/// position in the model preorder (its `LayerID`). What the frame builder and the time-aware
/// strategies read instead of the layer objects.
///
/// It observes its tree: a property set on a layer marks that layer, an animation added or
/// removed marks the layer's animations, a layer added, removed or moved marks the topology.
/// `synchronize()` then re-reads only what was marked (a topology change recompiles
/// everything) and reports which layers changed. Memory: about 140 bytes per layer plus the
/// animations.
public final class CompiledScene: LayerTreeObserver {
  /// The model root (after `releaseModel()`, a childless copy of its own properties).
  public private(set) var root: Layer
  /// The model layers in preorder: `layers[m]` has `LayerID(m)` (empty after `releaseModel()`).
  public private(set) var layers: [Layer] = []
  /// Number of layers compiled.
  public var count: Int { _count }
  private var _count = 0
  /// Whether `releaseModel()` dropped the model: the columns are final.
  public private(set) var modelReleased = false

  /// Bit flags of a layer's model properties. Public, with computed constants: a `package`
  /// declaration is never inlined into another module (Swift 6.3 without library evolution,
  /// `@inlinable` or not), and a `static let` read from another module is a call to its
  /// addressor and `swift_once` (docs/optimisation-log.md entry 79).
  public struct Bits: OptionSet, Sendable {
    public let rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    @inlinable public static var masks: Bits { Bits(rawValue: 1) }
    @inlinable public static var hidden: Bits { Bits(rawValue: 2) }
    @inlinable public static var interactive: Bits { Bits(rawValue: 4) }
    /// A transform other than the identity.
    @inlinable public static var hasTransform: Bits { Bits(rawValue: 8) }
    /// The transform is 2D affine (so the level map is, when the parent has no
    /// sublayerTransform).
    @inlinable public static var affineTransform: Bits { Bits(rawValue: 16) }
    @inlinable public static var hasSublayerTransform: Bits { Bits(rawValue: 32) }
    /// A media timing other than the default (so its local time differs from its parent's).
    @inlinable public static var hasTiming: Bits { Bits(rawValue: 64) }
    /// At least one animation.
    @inlinable public static var animated: Bits { Bits(rawValue: 128) }
    /// Every animation is on the lean lane.
    @inlinable public static var leanAnimations: Bits { Bits(rawValue: 256) }
    /// Some animation can change the transform or the sublayerTransform (or hidden).
    @inlinable public static var generalAnimations: Bits { Bits(rawValue: 512) }

    /// Whether every flag of `member` is set: one mask where it is read. (The protocol's own
    /// `contains`, a generic default, is called through its witness from other modules: the
    /// motion bounds' per-layer loop, docs/optimisation-log.md entry 66.)
    @inlinable @inline(__always) public func contains(_ member: Bits) -> Bool {
      rawValue & member.rawValue == member.rawValue
    }
  }

  // Topology (model preorder). `parent` is also kept in an owned buffer for the build's hot
  // loops (`parentColumn`), like the properties below.
  package private(set) var parent: [Int32] = []
  package private(set) var subtreeSize: [Int32] = []
  /// Layer m's sublayers are `childList[childStart[m] ..< childStart[m + 1]]`, in array order.
  package private(set) var childStart: [Int32] = []
  package private(set) var childList: [Int32] = []
  /// Each layer object's id (its preorder index).
  var index: [ObjectIdentifier: Int32] = [:]

  // Model properties, in owned buffers (read without reference counting by the build).
  package private(set) var lean = ColumnBuffer<LeanValues>()
  package private(set) var bits = ColumnBuffer<Bits>()
  package private(set) var parentColumn = ColumnBuffer<Int32>()
  /// Each layer's transform: 0 for the identity, else one past its slot in `transforms`, which
  /// is its entry in `affineParts`. Stored where set: a layer without a transform costs these
  /// 4 bytes (a column of maps and inverses cost 96 bytes a layer, identity for most).
  package private(set) var affineSlot = ColumnBuffer<Int32>()
  /// The 2D affine part of each stored transform and its linear part inverted, for the
  /// closed-form level map of layers whose transform is affine; entry 0 is the identity's
  /// (entries of the slots that hold sublayerTransforms are unused).
  package private(set) var affineParts = ColumnBuffer<AffinePart>()
  /// Slots into `transforms` (-1: the identity).
  package private(set) var sublayerTransformSlot: [Int32] = []
  package private(set) var transforms: [Transform3D] = []
  /// Slots into `timings` (-1: the default timing).
  package private(set) var timingSlot: [Int32] = []
  package private(set) var timings: [MediaTiming] = []
  /// Where in `timingNodes` the nearest layer at or above m with its own timing is (-1: none,
  /// local time is the clock): an ordinal, so that per-frame local times are kept per timed
  /// layer, not per layer.
  package private(set) var timingNode = ColumnBuffer<Int32>()
  /// The layers with their own timing, in preorder (parents first): what a build times.
  package private(set) var timingNodes: [Int32] = []

  // Animations: `program` is the form compilation appends to; between edits only the frozen
  // form is kept (the arrays are thawed from it for an edit, then dropped: held twice, the
  // program cost about 240 bytes a layer more on an animated scene).
  private var program = AnimationProgram()
  package private(set) var animations: FrozenAnimationProgram
  /// Layer m's records are `animations.records[animationStart[m] ..< animationEnd[m]]`.
  package private(set) var animationStart = ColumnBuffer<Int32>()
  package private(set) var animationEnd = ColumnBuffer<Int32>()
  /// The layers with at least one animation, in preorder.
  package private(set) var animatedLayers: [Int32] = []

  /// Faults injected into everything built from this scene (frames, lazy presentations, motion
  /// bounds), for proving that verification catches them. None by default.
  @_spi(FaultInjection) public var _faults = InjectedFaults()

  // Changes since the last `synchronize()`.
  private var pendingLayers: [Layer] = []
  private var pendingAnimations: [Layer] = []
  private var topologyChanged = true
  /// Bumps whenever the topology is recompiled (layer ids change meaning).
  package private(set) var topologyVersion = 0
  /// Bumps whenever what a build must evaluate may have changed: animations recompiled, or a
  /// layer's flags changed (an affine transform became projective, a sublayerTransform
  /// appeared, ...). Builders plan their per-frame lists again when it moves.
  package private(set) var evaluationVersion = 0

  public init(root: Layer) {
    self.root = root
    animations = FrozenAnimationProgram(AnimationProgram())
    root._addObserver(self)
    synchronize()
  }

  /// Compiles a tree handed over for good and releases it (`releaseModel()`), taking each
  /// layer's animations out of it as soon as they are compiled: the model and the compiled
  /// program are never held whole together, so the compile peaks at about the model's layers
  /// and the columns (on particles the animations are three quarters of the model). The tree
  /// must not be read or edited afterwards: its layers have lost their animations.
  public init(releasing root: consuming Layer) {
    self.root = root
    animations = FrozenAnimationProgram(AnimationProgram())
    _takesAnimations = true
    root._addObserver(self)
    synchronize()
    _takesAnimations = false
    releaseModel()
  }

  /// Compiles the tree `make` generates without ever holding it whole: `make` hands over each
  /// finished top-level layer (`seal(root, layer)`, in order; `SceneGenerator.make(sealing:)`)
  /// and returns the root with the rest, and each subtree is compiled in preorder as it
  /// arrives, its animations taken out, then dropped by the generator. `layers` is the number
  /// `make` generates (the columns are sized for it; a different count is a programming
  /// error). The scene is released (`modelReleased`) and bit for bit the compile of the whole
  /// tree. O(layers + animations).
  public init(layers n: Int, generating make: (_ seal: (Layer, Layer) -> Void) -> Layer) {
    precondition(n >= 1, "a scene has a root")
    root = Layer()
    animations = FrozenAnimationProgram(AnimationProgram())
    _takesAnimations = true
    _beginColumns(n)
    var started = false
    let last = make { root, child in
      if !started {
        self._appendLayer(root, parent: -1)
        started = true
      }
      self._appendSubtree(child)
    }
    if !started { _appendLayer(last, parent: -1) }
    for child in last.sublayers { _appendSubtree(child) }
    precondition(_count == n, "the generator made \(_count) layers, not \(n)")
    _finishColumns()
    _takesAnimations = false
    changeVersion &+= 1
    root = last
    releaseModel()
  }

  /// Sizes every per-layer column for `n` layers, none compiled yet.
  private func _beginColumns(_ n: Int) {
    parent = []
    parent.reserveCapacity(n)
    lean.reserve(
      n,
      filling: LeanValues(position: .zero, bounds: .zero, anchorPoint: .zero, anchorPointZ: 0, zPosition: 0, opacity: 1)
    )
    bits.reserve(n, filling: [])
    parentColumn.reserve(n, filling: -1)
    affineSlot.reserve(n, filling: 0)
    affineParts.reserve(1, filling: AffinePart(.identity))
    sublayerTransformSlot = [Int32](repeating: -1, count: n)
    transforms = []
    timingSlot = [Int32](repeating: -1, count: n)
    timings = []
    program.removeAll()
    animationStart.reserve(n, filling: 0)
    animationEnd.reserve(n, filling: 0)
    _count = 0
  }

  /// Compiles `l` as the next layer in preorder, under the layer `parent` (-1: the root), and
  /// takes its animations out when the compile does (`_takesAnimations`). Answers its id.
  @discardableResult
  private func _appendLayer(_ l: Layer, parent p: Int32) -> Int32 {
    let m = _count
    precondition(m < lean.count, "more layers than the columns were sized for")
    parent.append(p)
    parentColumn[m] = p
    _readProperties(m, l)
    _compileAnimations(m, l)
    if _takesAnimations { l._removeAnimationsUnobserved() }
    _count += 1
    return Int32(m)
  }

  /// Compiles a top-level layer's subtree in preorder (iteratively: chains may be deep).
  private func _appendSubtree(_ top: Layer) {
    var stack: [(layer: Layer, parent: Int32)] = [(top, 0)]
    while let (l, p) = stack.popLast() {
      let m = _appendLayer(l, parent: p)
      for c in l.sublayers.reversed() { stack.append((c, m)) }
    }
  }

  /// The columns derived from the parents once every layer is in: sublayer lists (siblings in
  /// preorder are in array order), subtree sizes, the frozen program, the animated layers and
  /// the timing links; the topology is then compiled (its version and the evaluation's move).
  private func _finishColumns() {
    let n = _count
    var children = [Int32](repeating: 0, count: n + 1)
    for m in 1..<max(n, 1) { children[Int(parent[m])] += 1 }
    childStart = [Int32](repeating: 0, count: n + 1)
    for m in 0..<n { childStart[m + 1] = childStart[m] + children[m] }
    childList = [Int32](repeating: 0, count: n > 0 ? Int(childStart[n]) : 0)
    var next = childStart
    for m in 1..<max(n, 1) {
      let p = Int(parent[m])
      childList[Int(next[p])] = Int32(m)
      next[p] += 1
    }
    subtreeSize = [Int32](repeating: 1, count: n)
    for m in stride(from: n - 1, through: 1, by: -1) { subtreeSize[Int(parent[m])] += subtreeSize[m] }
    animations = FrozenAnimationProgram(program)
    program = AnimationProgram()
    animatedLayers = (0..<n).compactMap { bits[$0].contains(.animated) ? Int32($0) : nil }
    _linkTimings()
    topologyChanged = false
    topologyVersion &+= 1
    evaluationVersion &+= 1
  }

  /// Set while a compile takes the animations out of the layers (`init(releasing:)`,
  /// `init(layers:generating:)`).
  private(set) var _takesAnimations = false

  /// Drops the model tree, for a consumer that will never edit it (a benchmark run without
  /// verification): the columns and animations stay as compiled, `layers` empties, `root`
  /// becomes a childless copy of the root's own properties, and the scene stops observing the
  /// tree, so what the model holds (about 960 bytes a layer on particles) is freed once no one
  /// else holds it. The scene is final afterwards: nothing can mark it. O(1) besides the
  /// release.
  public func releaseModel() {
    synchronize()
    root._removeObserver(self)
    root = root._propertiesCopy()
    layers = []
    index = [:]
    modelReleased = true
    _checkInvariants()
  }

  // MARK: Background readers

  /// Registers an object that reads this scene on a thread of its own (a time-aware strategy's
  /// window builder): every `synchronize` that changes the columns first waits until it is
  /// idle, whichever consumer takes the changes in (another strategy, a frame builder). Held
  /// weakly; once per reader (allocates then, never per frame).
  package func addBackgroundReader(_ reader: any SceneBackgroundReader) {
    _readers.removeAll { $0.reader == nil }
    _readers.append(_WeakReader(reader: reader))
  }

  private var _readers: [_WeakReader] = []

  private func _waitForBackgroundReaders() {
    for r in _readers { r.reader?.waitUntilIdle() }
  }

  // MARK: LayerTreeObserver

  package func layerDidChange(_ layer: Layer) { pendingLayers.append(layer) }

  /// Whether a `synchronize()` would change anything (the model changed since the last): a
  /// reader on another thread must be stopped before the changes are taken in.
  public var hasPendingChanges: Bool { topologyChanged || !pendingLayers.isEmpty || !pendingAnimations.isEmpty }
  package func layerAnimationsDidChange(_ layer: Layer) { pendingAnimations.append(layer) }
  package func layerTreeDidChange() { topologyChanged = true }

  /// Bumps with every `synchronize()` that found a change. Several consumers may share a scene
  /// (a builder, lazy presentations, motion bounds); the first to synchronize gets the list of
  /// changed layers, the others see the version move and start over.
  package private(set) var changeVersion = 0

  /// What `synchronize()` found.
  package struct Changes {
    /// The topology was recompiled: every layer is new.
    package var topology = false
    /// Layers whose properties or animations changed (preorder ids, unsorted, maybe repeated).
    package var layers: [Int32] = []
    /// `changeVersion` before these changes: a consumer that last saw another version missed
    /// changes another consumer took.
    package var since = 0
  }

  /// Brings the columns up to date with the layer tree: a topology change recompiles
  /// everything (O(layers + animations), allocates); otherwise only the marked layers are
  /// re-read. Cheap when nothing changed.
  @discardableResult
  package func synchronize() -> Changes {
    var changes = Changes()
    changes.since = changeVersion
    // Columns are about to change: no thread of another consumer may be reading them.
    if hasPendingChanges { _waitForBackgroundReaders() }
    if topologyChanged {
      precondition(!modelReleased, "a compiled scene whose model was released cannot recompile")
      _compileAll()
      changes.topology = true
      changeVersion &+= 1
      _checkInvariants()
      return changes
    }
    if pendingLayers.isEmpty && pendingAnimations.isEmpty { return changes }
    changeVersion &+= 1
    for l in pendingLayers {
      guard let m = index[ObjectIdentifier(l)] else { continue }
      let before = bits[Int(m)]
      _readProperties(Int(m))
      if bits[Int(m)] != before { evaluationVersion &+= 1 }
      changes.layers.append(m)
    }
    var recompiled = false
    if !pendingAnimations.isEmpty { program = animations.thawed }
    for l in pendingAnimations {
      guard let m = index[ObjectIdentifier(l)] else { continue }
      _compileAnimations(Int(m))
      changes.layers.append(m)
      recompiled = true
    }
    pendingLayers.removeAll(keepingCapacity: true)
    pendingAnimations.removeAll(keepingCapacity: true)
    defer { program = AnimationProgram() }
    if recompiled {
      evaluationVersion &+= 1
      animations = FrozenAnimationProgram(program)
      animatedLayers = (0..<count).compactMap { bits[$0].contains(.animated) ? Int32($0) : nil }
    }
    // A timing change moves every descendant's local time: recompute the timing links.
    _linkTimings()
    _checkInvariants()
    return changes
  }

  private func _compileAll() {
    layers = root.subtreeInPreorder
    let n = layers.count
    index = [:]
    index.reserveCapacity(n)
    for (i, l) in layers.enumerated() { index[ObjectIdentifier(l)] = Int32(i) }
    _beginColumns(n)
    for (m, l) in layers.enumerated() {
      _appendLayer(l, parent: m == 0 ? -1 : l.superlayer.flatMap { index[ObjectIdentifier($0)] } ?? -1)
    }
    _finishColumns()
    pendingLayers.removeAll()
    pendingAnimations.removeAll()
  }

  /// Re-reads layer m's model properties into the columns.
  private func _readProperties(_ m: Int) { _readProperties(m, layers[m]) }

  private func _readProperties(_ m: Int, _ l: Layer) {
    lean[m] = LeanValues(
      position: l.position, bounds: l.bounds, anchorPoint: l.anchorPoint, anchorPointZ: l.anchorPointZ,
      zPosition: l.zPosition, opacity: l.opacity)
    var b = bits[m].intersection([.animated, .leanAnimations, .generalAnimations])
    if l.masksToBounds { b.insert(.masks) }
    if l.isHidden { b.insert(.hidden) }
    if l.isUserInteractionEnabled { b.insert(.interactive) }
    if !l.transform.isIdentity {
      b.insert(.hasTransform)
      let slot = _store(l.transform, in: affineSlot[m] - 1)
      let t = l.transform
      let part = AffinePart(AffineMap(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42))
      affineParts.resize(Swift.max(affineParts.count, Int(slot) + 2), filling: AffinePart(.identity))
      affineParts[Int(slot) + 1] = part
      affineSlot[m] = slot + 1
    } else {
      affineSlot[m] = 0
    }
    if l.transform.isAffine { b.insert(.affineTransform) }
    if !l.sublayerTransform.isIdentity {
      b.insert(.hasSublayerTransform)
      sublayerTransformSlot[m] = _store(l.sublayerTransform, in: sublayerTransformSlot[m])
    } else {
      sublayerTransformSlot[m] = -1
    }
    if l.timing != MediaTiming(duration: .infinity) {
      b.insert(.hasTiming)
      if timingSlot[m] >= 0 {
        timings[Int(timingSlot[m])] = l.timing
      } else {
        timings.append(l.timing)
        timingSlot[m] = Int32(timings.count - 1)
      }
    } else {
      timingSlot[m] = -1
    }
    bits[m] = b
  }

  /// The 2D affine part of layer m's transform (the identity when it has none).
  @inline(__always) package func affineTransform(_ m: Int) -> AffineMap {
    affineParts[Int(affineSlot[m])].transform
  }

  private func _store(_ t: Transform3D, in slot: Int32) -> Int32 {
    if slot >= 0 {
      transforms[Int(slot)] = t
      return slot
    }
    transforms.append(t)
    return Int32(transforms.count - 1)
  }

  /// (Re)compiles layer m's animations, appending records (a recompile leaves the old ones
  /// unused until the next full compile).
  private func _compileAnimations(_ m: Int) { _compileAnimations(m, layers[m]) }

  private func _compileAnimations(_ m: Int, _ l: Layer) {
    let list = l._animations.map(\.animation)
    for a in list { a._prepareForEvaluation() }
    let (range, isLean) = program.append(list)
    animationStart[m] = range.lowerBound
    animationEnd[m] = range.upperBound
    bits[m].subtract([.animated, .leanAnimations, .generalAnimations])
    if !range.isEmpty {
      bits[m].insert(.animated)
      bits[m].insert(isLean ? .leanAnimations : .generalAnimations)
    }
  }

  private func _linkTimings() {
    let n = count
    timingNode.reserve(n)
    timingNodes.removeAll(keepingCapacity: true)
    for m in 0..<n {
      if bits[m].contains(.hasTiming) {
        timingNode[m] = Int32(timingNodes.count)
        timingNodes.append(Int32(m))
      } else {
        timingNode[m] = m == 0 ? -1 : timingNode[Int(parent[m])]
      }
    }
  }

  // MARK: Evaluation

  /// Layer m's local time when the clock reads `clock`: the layer timings from the root down
  /// (only the layers with their own timing matter). O(timing depth).
  package func localTime(_ m: Int, clock: Double) -> Double {
    let k = Int(timingNode[m])
    guard k >= 0 else { return clock }
    let node = Int(timingNodes[k])
    let above = node == 0 ? -1 : Int(timingNode[Int(parent[node])])
    let parentTime = above < 0 ? clock : localTime(Int(timingNodes[above]), clock: clock)
    return timings[Int(timingSlot[node])].layerLocalTime(fromParent: parentTime)
  }

  /// Whether layer m's animations can change an answer under `semantics`: it has any, and
  /// they drive more than opacity, or opacity is consulted (`alphaThreshold`, UIView). Under
  /// `calayer` a fade moves no box, changes no order and hides nothing (docs/semantics.md), so
  /// the time-aware strategies index such a layer as still (docs/time-aware.md).
  package func animatesHitTesting(_ m: Int, under semantics: HitTestSemantics) -> Bool {
    guard bits[m].contains(.animated) else { return false }
    return semantics.alphaThreshold != nil || !animations.drivesOnlyOpacity(animationStart[m]..<animationEnd[m])
  }

  /// Layer m's presentation state at its local time `t`: its model properties with its
  /// animations applied (the class path's `presentationState(atLocalTime:)`, from the columns).
  public func presentationState(_ m: Int, localTime t: Double) -> LayerState {
    var s = modelState(m)
    if bits[m].contains(.animated) {
      animations.applyGeneral(animationStart[m]..<animationEnd[m], to: &s, atParentTime: t)
    }
    return s
  }

  /// Layer m's model properties as a state (no animation).
  public func modelState(_ m: Int) -> LayerState {
    let v = lean[m]
    let st = sublayerTransformSlot[m]
    return LayerState(
      bounds: v.bounds, position: v.position, anchorPoint: v.anchorPoint, anchorPointZ: v.anchorPointZ,
      zPosition: v.zPosition, transform: modelTransform(m),
      sublayerTransform: st >= 0 ? transforms[Int(st)] : .identity, isHidden: bits[m].contains(.hidden),
      opacity: v.opacity)
  }

  /// Layer m's model transform (`modelState(m).transform`, without the rest of the state).
  package func modelTransform(_ m: Int) -> Transform3D {
    let t = affineSlot[m] - 1
    return t >= 0 ? transforms[Int(t)] : .identity
  }
}

/// Something that reads a compiled scene on a thread of its own (`CompiledScene.addBackgroundReader`).
package protocol SceneBackgroundReader: AnyObject {
  /// Returns once no read is in progress (called on the scene's owning thread; the reader must
  /// not start another until that thread posts one).
  func waitUntilIdle()
}

struct _WeakReader {
  weak var reader: (any SceneBackgroundReader)?
}

/// A stored transform's 2D affine part and its linear part inverted: what the lean closed-form
/// level map reads (`LeanLevel`), kept once per transform instead of once per layer. 96 bytes.
package struct AffinePart: Sendable {
  package var transform: AffineMap
  package var inverse: LinearInverse

  package init(_ transform: AffineMap) {
    self.transform = transform
    inverse = LinearInverse(transform)
  }
}
