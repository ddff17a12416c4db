import LayerModel
import Presentation

/// The answer to "which layer is under this point", derived independently of the code it
/// judges: from the model tree and the clock time alone. Presentation values come from the
/// animation classes (`Layer.presentationState`, not the compiled programs the builder and the
/// strategies evaluate); the order, flags and clipping from those values and the semantics;
/// every map, inverse and point conversion in double-double arithmetic (`TrackedNumber`). It
/// walks the tree as CALayer's `hitTest:` does, from the top, with three-valued decisions.
///
/// Each decision (a level's invertibility, w > 0 at a projective level, the distortion limit,
/// a point inside a layer's bounds) is **yes**, **no** or **within rounding**: within rounding
/// when the exact margin is no larger than the oracle's own bound on the error of any Double
/// evaluation of the same quantity (operations x unit roundoff x the magnitude of the
/// computation, `TrackedNumber`), never a bound read from the frame under test. A 1e-6 pt error
/// in a frame is caught wherever that bound is smaller (at ordinary coordinates it is about
/// 1e-11 pt); at 1e12 pt coordinates Double itself resolves no better than 1e-4 pt.
///
/// An answer is **acceptable** when it is a candidate (yes or within rounding) and every layer
/// above it in hit-test order is not certainly one; nil when no layer certainly is.
///
/// Cost: O(layers) to set up (one presentation state per layer); O(layers visited) double-double
/// operations per judged point. For verification only.
public final class ReferenceOracle {
  public enum Status: Sendable, Equatable {
    case yes, no, withinRounding
  }

  public let semantics: HitTestSemantics
  public let tree: HitTestTree
  public let time: Double
  let root: Layer

  /// The unit roundoff of Double.
  static let unitRoundoff = 0x1p-53
  /// Operations per level a Double evaluation may spend on a converted point (the level map's
  /// product of four matrices, its inverse, the application and the divide, with room for an
  /// implementation that composes them differently): the tolerance factor per level.
  static let operationsPerLevel = 64.0

  /// An oracle for `root`'s tree at clock time `time`. Cheap: the presentation states are
  /// computed on the first judged point.
  public init(model root: Layer, time: Double, tree: HitTestTree = .presentation, semantics: HitTestSemantics) {
    self.root = root
    self.semantics = semantics
    self.tree = tree
    self.time = time
  }

  /// An oracle for the scene, time and semantics of `builder`'s last build (only its model and
  /// clock are read: nothing the builder computed).
  public convenience init(builder: PresentationFrameBuilder, tree: HitTestTree) {
    self.init(model: builder.root, time: builder.frame.time, tree: tree, semantics: builder.semantics)
  }

  /// Model layers in preorder (`LayerID` order), their presentation (or model) states, parents,
  /// and sublayers top-most first (the order `hitTest:` asks them).
  struct _Tree {
    var layers: [Layer]
    var states: [LayerState]
    var parentOf: [Int32]
    var childrenTopFirst: [[Int32]]
  }

  lazy var _tree: _Tree = _makeTree()
  var layers: [Layer] { _tree.layers }
  var states: [LayerState] { _tree.states }
  var parentOf: [Int32] { _tree.parentOf }
  var childrenTopFirst: [[Int32]] { _tree.childrenTopFirst }
  /// Levels, computed on first use.
  lazy var _levels = [_Level?](repeating: nil, count: _tree.layers.count)

  func _makeTree() -> _Tree {
    let all = root.subtreeInPreorder
    var index: [ObjectIdentifier: Int32] = [:]
    index.reserveCapacity(all.count)
    for (i, l) in all.enumerated() { index[ObjectIdentifier(l)] = Int32(i) }
    var parents = [Int32](repeating: -1, count: all.count)
    var local = [Double](repeating: 0, count: all.count)
    var st: [LayerState] = []
    st.reserveCapacity(all.count)
    for (i, l) in all.enumerated() {
      let p = i == 0 ? -1 : (l.superlayer.flatMap { index[ObjectIdentifier($0)] } ?? -1)
      parents[i] = p
      // Layer time: the root's parent time is the clock.
      local[i] = l.timing.layerLocalTime(fromParent: p < 0 ? time : local[Int(p)])
      st.append(tree == .model ? LayerState(l) : l.presentationState(atLocalTime: local[i]))
    }
    var children: [[Int32]] = []
    children.reserveCapacity(all.count)
    let semantics = self.semantics
    for l in all {
      // Ascending (key, array index), then reversed: top-most first.
      let kids = l.sublayers.map { index[ObjectIdentifier($0)]! }
      let sorted = kids.enumerated().sorted { a, b in
        let ka = semantics.orderKey(zPosition: st[Int(a.element)].zPosition)
        let kb = semantics.orderKey(zPosition: st[Int(b.element)].zPosition)
        return ka != kb ? ka < kb : a.offset < b.offset
      }
      children.append(sorted.reversed().map(\.element))
    }
    return _Tree(layers: all, states: st, parentOf: parents, childrenTopFirst: children)
  }

  public var count: Int { layers.count }

  // MARK: Judging answers

  /// Whether `answer` is acceptable at world point `p` (see the type's documentation).
  public func accepts(_ answer: LayerID?, at p: Point) -> Bool {
    var verdict = answer == nil
    _walk(p) { layer, status in
      if let answer, Int(answer.rawValue) == layer {
        verdict = status != .no
        return false
      }
      if status == .yes {
        verdict = false
        return false
      }
      return true
    }
    return verdict
  }

  /// The first layer that is certainly a candidate at `p` (the exact answer when no decision
  /// above it is within rounding), and whether any decision before it was within rounding.
  public func answer(at p: Point) -> (layer: LayerID?, certain: Bool) {
    var found: LayerID?
    var certain = true
    _walk(p) { layer, status in
      switch status {
      case .yes:
        found = LayerID(Int32(layer))
        return false
      case .withinRounding:
        certain = false
        return true
      case .no: return true
      }
    }
    return (found, certain)
  }

  /// Layer `id`'s candidacy at world point `p` (by its path alone; O(depth)).
  public func status(of id: LayerID, at p: Point) -> Status {
    guard p.x.isFinite, p.y.isFinite else { return .no }
    var path: [Int] = []
    var c = Int(id.rawValue)
    while c >= 0 {
      path.append(c)
      c = Int(parentOf[c])
    }
    var state = _PointState(p)
    for (depth, m) in path.reversed().enumerated() {
      let isTarget = m == Int(id.rawValue)
      guard let next = _enter(m, state, depth: depth, target: isTarget) else { return .no }
      state = next
      if state.excluded { return .no }
    }
    return state.ownStatus
  }

  // MARK: The walk

  /// The point in a layer's space with its tracked error, and the decisions on its path so far.
  struct _PointState {
    var x: TrackedNumber
    var y: TrackedNumber
    /// Some decision on the path (or the layer's own bounds) is within rounding.
    var uncertain = false
    /// The world point (the flat form converts it through each layer's composite map).
    var world: (x: TrackedNumber, y: TrackedNumber)
    /// The layer's own candidacy (its bounds), once entered.
    var ownStatus = Status.no
    /// A clipping decision says no: nothing in the subtree is a candidate.
    var excluded = false

    init(_ p: Point) {
      x = TrackedNumber(p.x)
      y = TrackedNumber(p.y)
      world = (x, y)
    }
  }

  /// Calls `visit` with each layer in descending hit-test order (top-most first, a layer after
  /// its sublayers) and its status, skipping subtrees that certainly hold no candidate, until
  /// `visit` answers false.
  func _walk(_ p: Point, _ visit: (Int, Status) -> Bool) {
    guard p.x.isFinite, p.y.isFinite, !layers.isEmpty else { return }
    struct Frame {
      var layer: Int
      var state: _PointState
      var next: Int
      var depth: Int
    }
    guard let first = _enter(0, _PointState(p), depth: 0, target: true) else { return }
    if first.excluded {
      return
    }
    var stack = [Frame(layer: 0, state: first, next: 0, depth: 0)]
    while let top = stack.last {
      let kids = childrenTopFirst[top.layer]
      if top.next < kids.count {
        stack[stack.count - 1].next += 1
        let c = Int(kids[top.next])
        if let s = _enter(c, top.state, depth: top.depth + 1, target: true), !s.excluded {
          stack.append(Frame(layer: c, state: s, next: 0, depth: top.depth + 1))
        }
        continue
      }
      stack.removeLast()
      if !visit(top.layer, top.state.ownStatus) { return }
    }
  }

  /// Enters layer m from its parent's point state: admission, the level's inverse, w, the
  /// distortion limit, clipping and the layer's own bounds. nil when the layer (and its subtree)
  /// is certainly not reached; `excluded` when a clip certainly excludes the point.
  func _enter(_ m: Int, _ parent: _PointState, depth: Int, target: Bool) -> _PointState? {
    let s = states[m]
    let layer = layers[m]
    guard
      semantics.admits(hidden: s.isHidden, userInteractionEnabled: layer.isUserInteractionEnabled, opacity: s.opacity)
    else { return nil }
    let level = _level(m)
    guard level.valid else { return nil }
    let k = Self.operationsPerLevel * Double(depth + 2) * Self.unitRoundoff
    var out = parent
    // Invertibility: an exactly zero determinant, or one within rounding of zero.
    let det = level.determinant
    if det.value == .zero { return nil }
    if !(det.value.magnitude.double > 4 * Self.operationsPerLevel * Self.unitRoundoff * det.magnitude)
      || !level.doubleInverseIsFinite
    {
      // Within rounding of singular, or an inverse that Double cannot hold.
      out.uncertain = true
    }
    let a = level.adjugate
    let X = parent.x * a.m11 + parent.y * a.m21 + a.m41
    let Y = parent.x * a.m12 + parent.y * a.m22 + a.m42
    let Z = parent.x * a.m14 + parent.y * a.m24 + a.m44
    // The flat form's computation: the world point through the composite map from the world.
    let path = _path(m)
    let c = path.fromWorld
    let (px, py) = parent.world
    let Xf = px * c.m11 + py * c.m21 + c.m41
    let Yf = px * c.m12 + py * c.m22 + c.m42
    let Zf = px * c.m14 + py * c.m24 + c.m44
    if !level.map.isAffine {
      // w at the preimage is det / Z: in front of the viewer when Z and det have one sign.
      let zSign = Z.value.hi
      guard zSign.isFinite else { return nil }
      if !(Z.value.magnitude.double > k * Z.magnitude) || !(Zf.value.magnitude.double > k * Zf.magnitude) {
        out.uncertain = true
      } else if (zSign > 0) != (det.value.hi > 0) {
        return nil
      }
    }
    let qx = X / Z
    let qy = Y / Z
    let fx = Xf / Zf
    let fy = Yf / Zf
    // The exact point (either way: they are equal up to double-double rounding), with the
    // larger of the two computations' magnitudes.
    out.x = TrackedNumber(
      value: qx.value, magnitude: Swift.max(qx.magnitude, fx.magnitude.isNaN ? .infinity : fx.magnitude))
    out.y = TrackedNumber(
      value: qy.value, magnitude: Swift.max(qy.magnitude, fy.magnitude.isNaN ? .infinity : fy.magnitude))
    // The distortion limit on the composite 2D map to the world (a rule on affine composites).
    switch path.distortion {
    case .yes: return nil
    case .withinRounding: out.uncertain = true
    case .no: break
    }
    let inside = _inside(s.bounds, out.x, out.y, k)
    if semantics.clipsDescent(masksToBounds: layer.masksToBounds) {
      switch inside {
      case .no:
        out.excluded = true
        out.ownStatus = .no
        return out
      case .withinRounding: out.uncertain = true
      case .yes: break
      }
    }
    switch inside {
    case .no: out.ownStatus = .no
    case .withinRounding: out.ownStatus = .withinRounding
    case .yes: out.ownStatus = out.uncertain ? .withinRounding : .yes
    }
    // A candidate on an uncertain path is itself uncertain; an excluded one stays excluded.
    if out.ownStatus == .yes && out.uncertain { out.ownStatus = .withinRounding }
    return out
  }

  /// Whether the composite 2D map distorts beyond `GeometryLimits.distortion` (the frame's
  /// degenerate rule: a² + b² + c² + d² > limit x |ad - bc|, for a non-zero finite determinant).
  func _distortion(_ w: TrackedHomography, _ k: Double) -> Status {
    let d2 = w.m11 * w.m22 - w.m12 * w.m21
    guard d2.value != .zero, d2.value.isFinite else { return .no }
    let sq = w.m11 * w.m11 + w.m12 * w.m12 + w.m21 * w.m21 + w.m22 * w.m22
    let absDet = d2.value.hi < 0 ? -d2 : d2
    let margin = sq - TrackedNumber(GeometryLimits.distortion) * absDet
    if !(margin.value.magnitude.double > k * margin.magnitude) { return .withinRounding }
    return margin.value.hi > 0 ? .yes : .no
  }

  /// Whether the exact local point is inside bounds `b` (CGRect: min inclusive, max exclusive;
  /// null, empty and NaN bounds contain nothing), against the tolerance `k` x magnitude plus the
  /// rounding of the bounds' far edges (origin + size, rounded once in Double).
  func _inside(_ b: Rect, _ x: TrackedNumber, _ y: TrackedNumber, _ k: Double) -> Status {
    if b.isNull || !(b.size.width != 0) || !(b.size.height != 0) || b.origin.x.isNaN || b.origin.y.isNaN
      || b.size.width.isNaN || b.size.height.isNaN
    {
      return .no
    }
    let ox = DoubleDouble(b.origin.x)
    let oy = DoubleDouble(b.origin.y)
    let ex = ox + DoubleDouble(b.size.width)
    let ey = oy + DoubleDouble(b.size.height)
    let (x0, x1) = b.size.width < 0 ? (ex, ox) : (ox, ex)
    let (y0, y1) = b.size.height < 0 ? (ey, oy) : (oy, ey)
    let qx = x.value
    let qy = y.value
    guard qx.isFinite, qy.isFinite, x.magnitude.isFinite, y.magnitude.isFinite else {
      // Infinite coordinates: IEEE comparisons decide only where no rounding is involved.
      if qx.isNaN || qy.isNaN { return .withinRounding }
      return .withinRounding
    }
    let inside = qx >= x0 && qx < x1 && qy >= y0 && qy < y1
    guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else {
      // An infinite edge is never near a finite point; the finite edges decide.
      let dx0 = x0.isFinite ? (qx - x0).magnitude.double : .infinity
      let dx1 = x1.isFinite ? (qx - x1).magnitude.double : .infinity
      let dy0 = y0.isFinite ? (qy - y0).magnitude.double : .infinity
      let dy1 = y1.isFinite ? (qy - y1).magnitude.double : .infinity
      let tol = k * Swift.max(x.magnitude, y.magnitude) + _edgeError(b)
      if Swift.min(dx0, dx1) <= tol || Swift.min(dy0, dy1) <= tol { return .withinRounding }
      return inside ? .yes : .no
    }
    // The L-infinity distance from q to the rectangle's boundary.
    let dx = inside ? Swift.min((qx - x0).double, (x1 - qx).double) : Swift.max((x0 - qx).double, (qx - x1).double)
    let dy = inside ? Swift.min((qy - y0).double, (y1 - qy).double) : Swift.max((y0 - qy).double, (qy - y1).double)
    let margin = inside ? Swift.min(dx, dy) : Swift.max(dx, dy, 0)
    let tol = k * Swift.max(x.magnitude, y.magnitude) + _edgeError(b)
    if !(margin > tol) { return .withinRounding }
    return inside ? .yes : .no
  }

  /// How far Double's far edges (origin + size, one rounding) and standardised edges can be from
  /// the exact ones.
  func _edgeError(_ b: Rect) -> Double {
    let e = (Swift.abs(b.origin.x) + Swift.abs(b.size.width) + Swift.abs(b.origin.y) + Swift.abs(b.size.height))
    return 4 * Self.unitRoundoff * e
  }

  // MARK: Levels

  /// One layer's map into its parent's plane, exactly: `T(-anchor) * transform * T(position,
  /// zPosition) * [parent's sublayerTransform about its anchor]`, flattened; its adjugate and
  /// determinant.
  struct _Level {
    var map: TrackedHomography
    var adjugate: TrackedHomography
    var determinant: TrackedNumber
    /// Every entry is a finite number (otherwise no computation inverts the map).
    var valid: Bool
    /// The inverse's entries fit in a Double.
    var doubleInverseIsFinite: Bool
  }

  /// What a layer's path fixes whatever the point: the composite map from the world (the
  /// product of the levels' adjugates, what the flat form's computations multiply out, whose
  /// magnitudes can be far larger than a level-by-level conversion's: coordinates near 1e12
  /// under perspective), the composite map to the world while every level is affine, and the
  /// distortion limit's verdict on it.
  struct _Path {
    var fromWorld: TrackedHomography
    var forward: TrackedHomography?
    var distortion: Status
  }

  lazy var _paths = [_Path?](repeating: nil, count: _tree.layers.count)

  /// Layer m's path values, computed for it and the ancestors that lack them (top down).
  func _path(_ m: Int) -> _Path {
    if let p = _paths[m] { return p }
    var chain: [Int] = []
    var a = m
    while a >= 0 && _paths[a] == nil {
      chain.append(a)
      a = Int(parentOf[a])
    }
    for c in chain.reversed() {
      let p = Int(parentOf[c])
      let identity = TrackedHomography(TrackedMatrix4(.identity))
      let parent = p >= 0 ? _paths[p]! : _Path(fromWorld: identity, forward: identity, distortion: .no)
      let level = _level(c)
      var depth = 0
      var up = p
      while up >= 0 {
        depth += 1
        up = Int(parentOf[up])
      }
      let k = Self.operationsPerLevel * Double(depth + 2) * Self.unitRoundoff
      var path = _Path(
        fromWorld: TrackedHomography.concat(parent.fromWorld, level.adjugate), forward: nil, distortion: .no)
      if let f = parent.forward, level.map.isAffine {
        let w = TrackedHomography.concat(level.map, f)
        path.forward = w
        path.distortion = _distortion(w, k)
      }
      _paths[c] = path
    }
    return _paths[m]!
  }

  func _level(_ m: Int) -> _Level {
    if let l = _levels[m] { return l }
    let s = states[m]
    let p = Int(parentOf[m])
    func anchor(_ s: LayerState) -> (TrackedNumber, TrackedNumber, TrackedNumber) {
      (
        TrackedNumber(s.bounds.origin.x) + TrackedNumber(s.anchorPoint.x) * TrackedNumber(s.bounds.size.width),
        TrackedNumber(s.bounds.origin.y) + TrackedNumber(s.anchorPoint.y) * TrackedNumber(s.bounds.size.height),
        TrackedNumber(s.anchorPointZ)
      )
    }
    let a = anchor(s)
    var t = TrackedMatrix4(translation: -a.0, -a.1, -a.2)
    t = TrackedMatrix4.concat(t, TrackedMatrix4(s.transform))
    t = TrackedMatrix4.concat(
      t,
      TrackedMatrix4(translation: TrackedNumber(s.position.x), TrackedNumber(s.position.y), TrackedNumber(s.zPosition)))
    if p >= 0 && !states[p].sublayerTransform.isIdentity {
      let pa = anchor(states[p])
      let around = TrackedMatrix4.concat(
        TrackedMatrix4.concat(
          TrackedMatrix4(translation: -pa.0, -pa.1, -pa.2), TrackedMatrix4(states[p].sublayerTransform)),
        TrackedMatrix4(translation: pa.0, pa.1, pa.2))
      t = TrackedMatrix4.concat(t, around)
    }
    let map = TrackedHomography(t)
    let (adj, det) = map.adjugateAndDeterminant
    let valid = map.entries.allSatisfy { $0.value.isFinite } && det.value.isFinite
    let d = det.value.double
    let finite = adj.entries.allSatisfy { ($0.value.double / d).isFinite }
    let l = _Level(map: map, adjugate: adj, determinant: det, valid: valid, doubleInverseIsFinite: finite)
    _levels[m] = l
    return l
  }
}
