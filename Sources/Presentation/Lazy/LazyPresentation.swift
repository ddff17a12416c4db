import Columns
import LayerModel

/// The presentation tree at one time, computed only where asked: a layer's presentation values,
/// level map, flags and world maps are evaluated the first time a query needs them in a frame
/// (its ancestors first) and kept until the next `prepare(at:)`. It runs the frame builder's
/// own per-layer passes (pass 1 for the layer, pass 3 for its row) on a frame whose rows are
/// the model layers (row m is layer m), so every value equals the built frame's, bit for bit,
/// and an answer from it equals tree-walk's on the built frame. What the lazy and time-aware
/// strategies evaluate with.
///
/// Cost: `prepare` O(layers with their own timing); a layer's first evaluation in a frame
/// about one layer's share of a build; memory: the builder's columns for the scene.
public final class LazyPresentation {
  public let scene: CompiledScene
  public let semantics: HitTestSemantics
  let builder: PresentationFrameBuilder
  var composer: _RowComposer
  /// Per layer: the frame stamp of its pass 1 (presentation values, level, order key) and of its
  /// pass 3 (flags, world maps); per parent: of its sorted sublayers.
  var evaluated = ColumnBuffer<UInt32>()
  var composed = ColumnBuffer<UInt32>()
  var sorted = ColumnBuffer<UInt32>()
  var chain = ColumnBuffer<Int32>()
  /// Each layer's depth (the root's is 0), for comparing hit-test order.
  var depth = ColumnBuffer<Int32>()
  /// When no order key can change: each layer's row in the presentation frame.
  var rank = ColumnBuffer<Int32>()
  var stamp: UInt32 = 0
  var animated = true
  var _changeVersion = -1
  /// The stamp of a row that holds at every time (`pin`).
  static let permanent = UInt32.max
  /// Per layer, for `leanCandidate`: its lean row (`LeanRow`).
  var leanRows = ColumnBuffer<LeanRow>()

  /// Whether the hit-test order is the same at every time (no animation moves a zPosition, or
  /// the semantics ignore it): then `rank` orders candidates.
  public private(set) var orderIsStatic = true
  /// Layers evaluated (pass 1) since the last `prepare`.
  public private(set) var evaluations = 0
  /// The frame holding the evaluated rows (row m is layer m; other rows are stale).
  public var frame: PresentationFrame { builder.frame }
  /// The same frame, read through a guaranteed reference on the per-candidate path (the
  /// builder owns it for as long as this object lives).
  let _frame: Unmanaged<PresentationFrame>
  public var count: Int { scene.count }

  /// Which frame columns `ensure` computes: `.structure` (level maps, flags, the world map for
  /// the degenerate check: what a walk from the root needs) or `.all` (also maps from the world,
  /// guard rows and world boxes: what `frame.isCandidate` needs).
  public let columns: FrameColumns

  public init(scene: CompiledScene, semantics: HitTestSemantics = .calayer, columns: FrameColumns = .all) {
    self.scene = scene
    self.semantics = semantics
    self.columns = columns.union(.structure)
    builder = PresentationFrameBuilder(scene: scene, semantics: semantics)
    builder._composesBeforeReading = true
    _frame = Unmanaged.passUnretained(builder.frame)
    // The composer reads the frame's columns, which exist once the builder has sized them.
    builder._reload()
    composer = _RowComposer(builder, columns)
    _attach()
  }

  /// Sizes the columns, computes the static order, and turns the builder's frame into the
  /// model-order frame.
  func _attach() {
    scene.synchronize()
    builder._reload()
    let n = scene.count
    _changeVersion = scene.changeVersion
    // The static order: the model tree's rows (order keys from the model zPositions).
    builder.frame.time = 0
    _ = builder._pass1All(animated: false)
    _ = builder._order(full: true)
    rank.reserve(Swift.max(n, 1), filling: 0)
    for m in 0..<n { rank[m] = builder.rowOf[m] }
    orderIsStatic =
      !semantics.ordersByZPosition
      || !scene.animations.records.contains { $0.kind != .group && $0.kind != .none && $0.keyPath == .zPosition }
    // Rows are model layers from now on.
    let f = builder.frame
    for m in 0..<n {
      f._layer[m] = LayerID(Int32(m))
      f._parent[m] = scene.parent[m]
      f._subtreeEnd[m] = Int32(m) + scene.subtreeSize[m]
    }
    depth.reserve(Swift.max(n, 1), filling: 0)
    for m in 1..<Swift.max(n, 1) { depth[m] = depth[Int(scene.parent[m])] + 1 }
    evaluated.reserve(Swift.max(n, 1), filling: 0)
    composed.reserve(Swift.max(n, 1), filling: 0)
    sorted.reserve(Swift.max(n, 1), filling: 0)
    chain.reserve(Swift.max(n, 1), filling: 0)
    f.columns = columns
    composer = _RowComposer(builder, columns)
    stamp = 0
    leanRows.reserve(Swift.max(n, 1), filling: LeanRow())
    _checkInvariants()
  }

  /// Starts a frame at clock time `time` (the presentation tree, or with `animated: false` the
  /// model tree): forgets every evaluation. O(layers with their own timing).
  public func prepare(at time: Double, animated: Bool = true) {
    scene.synchronize()
    if scene.changeVersion != _changeVersion { _attach() } else { _checkInvariants() }
    self.animated = animated
    builder.frame.time = time
    builder._timeNodes(time, animated: animated)
    stamp &+= 1
    if stamp == Self.permanent {
      // After 2^32 frames: clear the stamps rather than mistake an old one for current (the
      // pinned rows keep theirs).
      for m in 0..<scene.count {
        if evaluated[m] != Self.permanent { evaluated[m] = 0 }
        if composed[m] != Self.permanent { composed[m] = 0 }
        sorted[m] = 0
        leanRows[m].stamp = 0
      }
      stamp = 1
    }
    evaluations = 0
    _animations = Unmanaged.passUnretained(scene.animations)
  }

  /// The scene's animation program as of the last `prepare` (the scene keeps it alive and does
  /// not replace it between prepares): called through a guaranteed reference, so a lean
  /// evaluation touches no reference count.
  var _animations: Unmanaged<FrozenAnimationProgram>?

  /// Keeps layer m's row (made current first) at every time from now on: for layers whose
  /// presentation cannot change (no animation on them or above them, in either tree), so that
  /// a frame's candidates never evaluate them again. Until the scene changes.
  public func pin(_ m: Int) {
    ensure(m)
    evaluated[m] = Self.permanent
    composed[m] = Self.permanent
  }

  /// Whether layer m's row holds at every time (`pin`).
  @inline(__always) public func isPinned(_ m: Int) -> Bool { composed[m] == Self.permanent }

  /// Whether `leanCandidate` can decide for layer m: its presentation is its 11 lean numbers
  /// (an affine transform, lean animations only, no layer timing), its parent is pinned, affine
  /// and without a sublayerTransform, the order never changes and no fault changes rows.
  /// Keeps what the evaluation needs that does not change with time.
  public func canDecideLean(_ m: Int) -> Bool {
    let p = Int(scene.parent[m])
    guard p >= 0, orderIsStatic, !scene._faults.changesRows, isPinned(p) else { return false }
    let b = scene.bits[m]
    let pb = scene.bits[p]
    guard b.contains(.affineTransform), !b.contains(.generalAnimations), scene.timingNode[m] < 0,
      !pb.contains(.hasSublayerTransform), !frame.flags[p].contains(.worldProjective)
    else { return false }
    var row = LeanRow()
    row.affineSlot = scene.affineSlot[m]
    // Its track, when the builder's track loop has one for it (the builder's list, shared:
    // one flattened animation per layer, not two); otherwise its records are evaluated.
    if b.contains(.animated), let k = builder._track(ofLayer: m) { row.trackSlot = Int32(k) }
    leanRows[m] = row
    return true
  }

  /// Whether `leanCandidate` decides for layer m by its world box alone wherever its position
  /// takes it, its other lean numbers the model's (a layer whose animations move only its
  /// position): its model values admit it under a reachable parent, its world map is
  /// axis-aligned (its box is its bounds' image, not their hull), invertible and not too
  /// distorted, its bounds are not empty, and no clipping or projective layer guards it. None of
  /// that depends on the position. For a layer `canDecideLean` accepted; reads pinned rows only
  /// (another thread may query meanwhile).
  public func decidesByWorldBox(_ m: Int) -> Bool {
    let p = Int(scene.parent[m])
    let f = builder.frame
    let parentFlags = f.flags[p]
    guard isPinned(p), parentFlags.rawValue & Self._guardBits == 0, f.guardRow[p] < 0 else { return false }
    let part = scene.affineParts[Int(scene.affineSlot[m])]
    let (map, _, lf, box) = LeanLevel.compute(
      scene.lean[m], transform: part.transform, bits: scene.bits[m], rules: builder._rules, inverse: part.inverse)
    let tw = AffineMap.concat(map, f.toWorld[p])
    return tw.b == 0 && tw.c == 0 && Self._hittable(lf, parentFlags, toWorld: tw, box)
  }

  /// Whether a lean row with local flags `lf`, under a parent with `parentFlags`, world map
  /// `toWorld` and local bounds `box` can be hit (else its bounds are empty): admitted and
  /// invertible under a reachable parent, not too distorted, its bounds not empty. The one rule
  /// `_composeLean` and `decidesByWorldBox` read.
  @inline(__always) static func _hittable(
    _ lf: UInt8, _ parentFlags: PresentationFrame.Flags, toWorld tw: AffineMap, _ box: Box
  ) -> Bool {
    lf & PresentationFrameBuilder.localAdmitted != 0 && lf & PresentationFrameBuilder.localInvertible != 0
      && parentFlags.contains(.reachable) && !GeometryLimits.isTooDistorted(tw.a, tw.b, tw.c, tw.d)
      && box.maxX > box.minX && box.maxY > box.minY
  }

  /// The flags of a row its sublayers' exact tests must pass through (their guard rows).
  @inline(__always) static var _guardBits: PresentationFrame.Flags.RawValue {
    PresentationFrame.Flags.clips.rawValue | PresentationFrame.Flags.projective.rawValue
  }

  /// The exact test for layer m at world point p, for a layer `canDecideLean` accepted: its
  /// lean numbers at this frame's time and its row composed under its pinned parent, with the
  /// builder's own operations (`LeanLevel`, pass 3's affine branch), once a frame; so the answer
  /// equals `frame.isCandidate` on a built frame bit for bit. About one lean evaluation the
  /// first time in a frame, an affine map and four compares after.
  @inline(__always) public func leanCandidate(_ m: Int, _ p: Point) -> Bool {
    let row = leanRows._unsafeStorage + m
    if row.pointee.stamp != stamp { _composeLean(m, row) }
    // An unhittable row's bounds are empty: no point passes.
    let q = row.pointee.fromWorld.apply(p)
    let b = row.pointee.bounds
    guard q.x >= b.minX && q.x < b.maxX && q.y >= b.minY && q.y < b.maxY else { return false }
    let guardRow = Int(row.pointee.guardRow)
    return _frame._withUnsafeGuaranteedRef { $0._guardChainAdmits(guardRow, p) }
  }

  /// Layer m's lean row at this frame's time (see `leanCandidate`).
  func _composeLean(_ m: Int, _ row: UnsafeMutablePointer<LeanRow>) {
    var v = scene.lean[m]
    let p = Int(scene.parent[m])
    // The parent's row, read through a guaranteed reference (no reference count).
    let (time, parentFlags, parentToWorld, parentFromWorld, parentGuard) = _frame._withUnsafeGuaranteedRef { f in
      (f.time, f.flags[p], f.toWorld[p], f.fromWorld[p], f.guardRow[p])
    }
    let bits = scene.bits[m]
    if animated && bits.contains(.animated), let program = _animations {
      let slot = Int(row.pointee.trackSlot)
      if slot >= 0 {
        let track = UnsafePointer(builder.tracks._unsafeStorage + slot)
        program._withUnsafeGuaranteedRef { $0.applyTrack(track, to: &v, atLocalTime: time) }
      } else {
        let range = scene.animationStart[m]..<scene.animationEnd[m]
        program._withUnsafeGuaranteedRef { $0.applyLean(range, to: &v, atParentTime: time) }
      }
    }
    let part = scene.affineParts._unsafeStorage + Int(row.pointee.affineSlot)
    let (map, inverse, lf, box) = LeanLevel.compute(
      v, transform: part.pointee.transform, bits: bits, rules: builder._rules, inverse: part.pointee.inverse)
    let tw = AffineMap.concat(map, parentToWorld)
    row.pointee.fromWorld = AffineMap.concat(parentFromWorld, inverse)
    row.pointee.bounds = Self._hittable(lf, parentFlags, toWorld: tw, box) ? box : .nothing
    row.pointee.guardRow = parentFlags.rawValue & Self._guardBits == 0 ? parentGuard : Int32(p)
    row.pointee.stamp = stamp
    evaluations &+= 1
  }

  /// Pass 1 for layer m, whose parent is already evaluated in this frame.
  @inline(__always) func _evaluateOne(_ m: Int) {
    _ = builder._evaluate(m, animated: animated, force: true)
    evaluated[m] = stamp
    evaluations &+= 1
  }

  /// Evaluates layer m and its ancestors (pass 1) where not yet done in this frame.
  @inline(__always) public func evaluate(_ m: Int) {
    if evaluated[m] == stamp || evaluated[m] == Self.permanent { return }
    _walkUp(m) { $0.evaluated[$1] == $0.stamp || $0.evaluated[$1] == Self.permanent }
    for i in (0..<_chainLength).reversed() { _evaluateOne(Int(chain[i])) }
  }

  /// Makes row m current: layer m and its ancestors evaluated and composed (flags, world maps,
  /// world box, guard row) in this frame. After it, `frame.isCandidate(m, p)` is the exact
  /// test. O(1) when already done, else O(the ancestors not yet done).
  @inline(__always) public func ensure(_ m: Int) {
    if composed[m] == stamp || composed[m] == Self.permanent { return }
    _walkUp(m) { $0.composed[$1] == $0.stamp || $0.composed[$1] == Self.permanent }
    var i = _chainLength
    while i > 0 {
      i -= 1
      let c = Int(chain[i])
      if evaluated[c] != stamp && evaluated[c] != Self.permanent { _evaluateOne(c) }
      composer.compose(c)
      composed[c] = stamp
    }
  }

  var _chainLength = 0

  /// Collects m and its ancestors up to (not including) the first one `done` says is done,
  /// bottom up, into `chain`.
  @inline(__always) func _walkUp(_ m: Int, _ done: (LazyPresentation, Int) -> Bool) {
    var n = 0
    var a = m
    while a >= 0 && !done(self, a) {
      chain[n] = Int32(a)
      n += 1
      a = Int(scene.parentColumn[a])
    }
    _chainLength = n
  }

  /// Sorts layer m's sublayers into ascending hit-test priority at this frame's time (the last
  /// is the top-most) and answers how many there are; read them with `sortedSublayer(_:of:)`.
  /// With a static order the precomputed lists; otherwise the sublayers' order keys are
  /// evaluated and the list re-sorted once per frame.
  public func sortSublayers(of m: Int) -> Int {
    let a = Int(scene.childStart[m])
    let b = Int(scene.childStart[m + 1])
    if !orderIsStatic && b - a >= 2 && sorted[m] != stamp {
      for k in a..<b {
        let c = Int(scene.childList[k])
        if evaluated[c] != stamp {
          evaluate(m)
          _evaluateOne(c)
        }
      }
      _ = builder._sortSublayers(m)
      sorted[m] = stamp
    }
    return b - a
  }

  /// The k-th of layer m's sublayers in the order `sortSublayers(of: m)` put them in this frame
  /// (checked with `HITBENCH_INTERNAL_CHECKS`: k in range, the list sorted this frame).
  @inline(__always) public func sortedSublayer(_ k: Int, of m: Int) -> Int {
    let a = Int(scene.childStart[m])
    #if HITBENCH_INTERNAL_CHECKS
      precondition(k >= 0 && a + k < Int(scene.childStart[m + 1]), "sublayer \(k) of layer \(m) out of range")
      precondition(
        orderIsStatic || scene.childStart[m + 1] - scene.childStart[m] < 2 || sorted[m] == stamp,
        "layer \(m)'s sublayers read before they were sorted this frame")
    #endif
    return Int(builder.sortedChildren[a + k])
  }

  /// Layer m's row in the presentation frame of the model tree: its hit-test rank at every
  /// time when `orderIsStatic`.
  public func staticRank(_ m: Int) -> Int32 { rank[m] }

  /// Whether layer a comes after layer b in hit-test order (a wins over b) at this frame's
  /// time. Both must be evaluated (`evaluate` or `ensure`). O(1) with a static order, else
  /// O(depth).
  @inline(__always) public func isAbove(_ a: Int, _ b: Int) -> Bool {
    if orderIsStatic { return rank[a] > rank[b] }
    return _isAboveDynamic(a, b)
  }

  func _isAboveDynamic(_ a0: Int, _ b0: Int) -> Bool {
    if a0 == b0 { return false }
    var a = a0
    var b = b0
    // Lift the deeper one to the other's depth; if it lands on the other, it is a descendant
    // (descendants come after their ancestors).
    while depth[a] > depth[b] { a = Int(scene.parentColumn[a]) }
    if a == b { return true }
    while depth[b] > depth[a] { b = Int(scene.parentColumn[b]) }
    if a == b { return false }
    while scene.parentColumn[a] != scene.parentColumn[b] {
      a = Int(scene.parentColumn[a])
      b = Int(scene.parentColumn[b])
    }
    // Siblings: (order key, model index), as the build sorts them.
    let ka = builder.orderKey[a]
    let kb = builder.orderKey[b]
    return ka != kb ? ka > kb : a > b
  }
}

/// A lean candidate's row at one frame and what composing it needs, in one 96-byte record (two
/// cache lines at most): a query's candidates are scattered over the scene, and a column each (seven
/// of them) cost a cache miss each. The stamp says which frame the row is for; an unhittable
/// row keeps empty bounds (so the exact test needs no flag).
struct LeanRow: BitwiseCopyable {
  var stamp: UInt32 = 0
  /// The first guard row above it (-1: none).
  var guardRow: Int32 = -1
  /// Its single lean animation in the builder's `tracks` (-1: none, or not one track).
  var trackSlot: Int32 = -1
  /// Its (constant) transform's slot in the scene's `affineParts` (0: the identity, whose
  /// entry every untransformed row shares, so it stays in cache).
  var affineSlot: Int32 = 0
  var bounds = Box.nothing
  var fromWorld = AffineMap.identity
}
