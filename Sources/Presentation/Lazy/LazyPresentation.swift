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

  /// Whether the hit-test order is the same at every time (no animation moves a zPosition, or
  /// the semantics ignore it): then `rank` orders candidates.
  public private(set) var orderIsStatic = true
  /// Layers evaluated (pass 1) since the last `prepare`.
  public private(set) var evaluations = 0
  /// The frame holding the evaluated rows (row m is layer m; other rows are stale).
  public var frame: PresentationFrame { builder.frame }
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
    // The composer reads the frame's columns, which exist once the builder has sized them.
    builder._reload()
    composer = _RowComposer(builder, columns)
    _attach()
  }

  deinit {
    evaluated.free()
    composed.free()
    sorted.free()
    chain.free()
    depth.free()
    rank.free()
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
  }

  /// Starts a frame at clock time `time` (the presentation tree, or with `animated: false` the
  /// model tree): forgets every evaluation. O(layers with their own timing).
  public func prepare(at time: Double, animated: Bool = true) {
    scene.synchronize()
    if scene.changeVersion != _changeVersion { _attach() }
    self.animated = animated
    builder.frame.time = time
    builder._timeNodes(time, animated: animated)
    stamp &+= 1
    if stamp == 0 {
      // After 2^32 frames: clear the stamps rather than mistake an old one for current.
      for m in 0..<scene.count {
        evaluated[m] = 0
        composed[m] = 0
        sorted[m] = 0
      }
      stamp = 1
    }
    evaluations = 0
  }

  /// Pass 1 for layer m, whose parent is already evaluated in this frame.
  @inline(__always) func _evaluateOne(_ m: Int) {
    _ = builder._evaluate(m, animated: animated, force: true)
    evaluated[m] = stamp
    evaluations &+= 1
  }

  /// Evaluates layer m and its ancestors (pass 1) where not yet done in this frame.
  @inline(__always) public func evaluate(_ m: Int) {
    if evaluated[m] == stamp { return }
    _walkUp(m) { $0.evaluated[$1] == $0.stamp }
    var i = _chainLength
    while i > 0 {
      i -= 1
      _evaluateOne(Int(chain[i]))
    }
  }

  /// Makes row m current: layer m and its ancestors evaluated and composed (flags, world maps,
  /// world box, guard row) in this frame. After it, `frame.isCandidate(m, p)` is the exact
  /// test. O(1) when already done, else O(the ancestors not yet done).
  @inline(__always) public func ensure(_ m: Int) {
    if composed[m] == stamp { return }
    _walkUp(m) { $0.composed[$1] == $0.stamp }
    var i = _chainLength
    while i > 0 {
      i -= 1
      let c = Int(chain[i])
      if evaluated[c] != stamp { _evaluateOne(c) }
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

  /// Layer m's sublayers in ascending hit-test priority at this frame's time (the last is the
  /// top-most). With a static order the precomputed lists; otherwise the sublayers' order keys
  /// are evaluated and the list re-sorted once per frame.
  public func sortedSublayers(of m: Int) -> UnsafeBufferPointer<Int32> {
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
    return UnsafeBufferPointer(start: builder.sortedChildren.base + a, count: b - a)
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
