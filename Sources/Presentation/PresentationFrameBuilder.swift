import LayerModel

/// Builds the `PresentationFrame` of one model tree at any clock time. The tree's topology is
/// compiled once (`reloadTopology()` after adding or removing layers); each `build(at:)` then
/// evaluates every layer's timing and animations, orders siblings, and fills the frame's columns
/// in place: O(layers + animations), plus O(k log k) for a parent whose k sublayers' zPositions
/// are out of order, and no allocation.
public final class PresentationFrameBuilder {
  public let root: Layer
  public let semantics: HitTestSemantics
  /// The model layers in preorder: `layers[id.rawValue]` is the layer with that `LayerID`.
  public private(set) var layers: [Layer] = []
  /// The frame this builder fills; the same object on every build.
  public let frame: PresentationFrame

  private var modelParent: [Int32] = []
  private var childStart: [Int32] = []
  private var childList: [Int32] = []
  private var subtreeSize: [Int32] = []
  private var localTime: [Double] = []
  private var states: [LayerState] = []
  private var levelMap: [Homography] = []
  private var levelInverse: [Homography] = []
  private var levelInvertible: [Bool] = []
  private var masks: [Bool] = []
  private var interactive: [Bool] = []
  private var orderKey: [Double] = []
  private var sortedChildren: [Int32] = []
  private var stack: [Int32] = []
  private var rowOf: [Int32] = []
  private var clip: [_Box] = []
  /// Each layer's animations compiled at load: layer m's are
  /// `steps[stepStart[m] ..< stepStart[m + 1]]`, in the order they were added. Plain point
  /// keyframes become tracks over the contiguous `trackTimes` / `trackPoints` (no pointer
  /// chasing through animation objects, the measured cost of the build); anything else runs
  /// through its class.
  private var stepStart: [Int32] = []
  private var steps: [_AnimationStep] = []
  private var trackTimes: [Double] = []
  private var trackPoints: [Point] = []

  enum _AnimationStep {
    case generic(Animation)
    case pointTrack(_PointTrack)
  }

  struct _PointTrack {
    var timing: MediaTiming
    var removedOnCompletion: Bool
    var timingFunction: TimingFunction?
    var discrete: Bool
    var keyTimes: Range<Int>
    var points: Range<Int>
    var segmentFunctions: [TimingFunction]?
  }

  struct _Box {
    var minX: Double, minY: Double, maxX: Double, maxY: Double
    static let everything = _Box(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    static let nothing = _Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    func intersection(_ o: _Box) -> _Box {
      _Box(
        minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY), maxX: Swift.min(maxX, o.maxX),
        maxY: Swift.min(maxY, o.maxY))
    }
  }

  public init(root: Layer, semantics: HitTestSemantics = .calayer) {
    self.root = root
    self.semantics = semantics
    self.frame = PresentationFrame(semantics: semantics)
    reloadTopology()
  }

  /// Recompiles the topology and the animations: call after adding, removing or reordering
  /// layers, and after adding or removing animations (a stored animation is a copy, as in Core
  /// Animation, so it does not change in between). Layer properties are read live at every
  /// build. Allocates.
  public func reloadTopology() {
    layers = root.subtreeInPreorder
    let n = layers.count
    var index: [ObjectIdentifier: Int32] = [:]
    index.reserveCapacity(n)
    for (i, l) in layers.enumerated() { index[ObjectIdentifier(l)] = Int32(i) }
    modelParent = layers.map { l in l.superlayer.flatMap { index[ObjectIdentifier($0)] } ?? -1 }
    modelParent[0] = -1
    childStart = [Int32](repeating: 0, count: n + 1)
    childList = []
    childList.reserveCapacity(n)
    for (i, l) in layers.enumerated() {
      childStart[i] = Int32(childList.count)
      for c in l.sublayers { childList.append(index[ObjectIdentifier(c)]!) }
    }
    childStart[n] = Int32(childList.count)
    subtreeSize = [Int32](repeating: 1, count: n)
    for m in stride(from: n - 1, through: 1, by: -1) { subtreeSize[Int(modelParent[m])] += subtreeSize[m] }
    localTime = [Double](repeating: 0, count: n)
    states = layers.map { LayerState($0) }
    levelMap = [Homography](repeating: .identity, count: n)
    levelInverse = [Homography](repeating: .identity, count: n)
    levelInvertible = [Bool](repeating: true, count: n)
    masks = layers.map(\.masksToBounds)
    interactive = layers.map(\.isUserInteractionEnabled)
    orderKey = [Double](repeating: 0, count: n)
    sortedChildren = childList
    stack = []
    stack.reserveCapacity(n)
    rowOf = [Int32](repeating: 0, count: n)
    clip = [_Box](repeating: .everything, count: n)
    _compileAnimations()
    frame._reserve(n)
    frame.orderGeneration &+= 1
  }

  private func _compileAnimations() {
    stepStart = [Int32](repeating: 0, count: layers.count + 1)
    steps = []
    trackTimes = []
    trackPoints = []
    for (m, layer) in layers.enumerated() {
      stepStart[m] = Int32(steps.count)
      for (_, animation) in layer._animations {
        if let k = animation as? KeyframeAnimation, let t = k._pointTrack {
          let kt = trackTimes.count..<(trackTimes.count + t.keyTimes.count)
          trackTimes.append(contentsOf: t.keyTimes)
          let pts = trackPoints.count..<(trackPoints.count + t.points.count)
          trackPoints.append(contentsOf: t.points)
          steps.append(
            .pointTrack(
              _PointTrack(
                timing: k.timing, removedOnCompletion: k.isRemovedOnCompletion, timingFunction: k.timingFunction,
                discrete: t.discrete, keyTimes: kt, points: pts, segmentFunctions: t.segmentFunctions)))
        } else {
          animation._prepareForEvaluation()
          steps.append(.generic(animation))
        }
      }
    }
    stepStart[layers.count] = Int32(steps.count)
  }

  /// Applies layer m's compiled animations at its local time `t`: the same results as
  /// `Layer.presentationState(atLocalTime:)` (tested), from contiguous data.
  @inline(__always)
  private func _applySteps(_ m: Int, _ t: Double, _ s: inout LayerState) {
    var k = Int(stepStart[m])
    let end = Int(stepStart[m + 1])
    while k < end {
      switch steps[k] {
      case .generic(let animation):
        animation.apply(to: &s, atParentTime: t)
      case .pointTrack(let track):
        if let at = track.timing.activeTime(atParentTime: t, removedOnCompletion: track.removedOnCompletion) {
          let f = track.timingFunction?(at.progress) ?? at.progress
          s.position = trackTimes.withUnsafeBufferPointer { kts in
            trackPoints.withUnsafeBufferPointer { pts in
              KeyframeAnimation._pointAt(
                f, discrete: track.discrete, keyTimes: UnsafeBufferPointer(rebasing: kts[track.keyTimes]),
                points: UnsafeBufferPointer(rebasing: pts[track.points]), segmentFunctions: track.segmentFunctions)
            }
          }
        }
      }
      k += 1
    }
  }

  /// Fills `frame` with the presentation tree at clock time `time` (or, with `animated: false`,
  /// the model tree: what hit-testing the model during an animation sees).
  @discardableResult
  public func build(at time: Double, animated: Bool = true) -> PresentationFrame {
    let n = layers.count
    frame.time = time
    frame.count = n
    frame.generation &+= 1
    _evaluateLayers(at: time, animated: animated)
    _orderRows()
    _fillRows()
    frame._checkInvariants()
    return frame
  }

  /// Pass 1, model preorder (parents first): local time, presentation state, level map.
  private func _evaluateLayers(at time: Double, animated: Bool) {
    // States are written and read in place (330 bytes each: copies were a fifth of the build).
    states.withUnsafeMutableBufferPointer { buffer in
      let st = buffer.baseAddress!
      for m in 0..<layers.count {
        let layer = layers[m]
        let p = Int(modelParent[m])
        let parentTime = p < 0 ? time : localTime[p]
        let t = layer.timing.layerLocalTime(fromParent: parentTime)
        localTime[m] = t
        (st + m).pointee = LayerState(layer)
        if animated { _applySteps(m, t, &(st + m).pointee) }
        // The parent's state is copied only when its sublayerTransform matters (rare).
        let h = st[m].homographyToSuperlayer(parent: p < 0 || st[p].sublayerTransform.isIdentity ? nil : st[p])
        let s = UnsafePointer(st + m)
        levelMap[m] = h
        if let inv = h.inverted {
          levelInverse[m] = inv
          levelInvertible[m] = true
        } else {
          levelInverse[m] = .identity
          levelInvertible[m] = false
        }
        orderKey[m] = semantics.orderKey(zPosition: s.pointee.zPosition)
      }
    }
  }

  /// Pass 2: the row order. The model preorder when every parent's sublayers are already in
  /// key order; else a preorder with each out-of-order sibling list heap-sorted by (key, index).
  private func _orderRows() {
    let n = layers.count
    var inOrder = true
    for m in 0..<n {
      let a = Int(childStart[m])
      let b = Int(childStart[m + 1])
      if b - a < 2 { continue }
      sortedChildren.withUnsafeMutableBufferPointer { out in
        childList.withUnsafeBufferPointer { src in
          var sorted = true
          for k in a..<b {
            out[k] = src[k]
            if k > a && orderKey[Int(src[k])] < orderKey[Int(src[k - 1])] { sorted = false }
          }
          if !sorted {
            inOrder = false
            orderKey.withUnsafeBufferPointer { keys in _heapSort(out, a, b, keys) }
          }
        }
      }
    }
    var changed = false
    if inOrder {
      for m in 0..<n {
        if frame.layer[m].rawValue != Int32(m) { changed = true }
        frame._layer[m] = LayerID(Int32(m))
        rowOf[m] = Int32(m)
      }
    } else {
      stack.removeAll(keepingCapacity: true)
      stack.append(0)
      var r = 0
      while let m = stack.popLast() {
        if frame.layer[r].rawValue != m { changed = true }
        frame._layer[r] = LayerID(m)
        rowOf[Int(m)] = Int32(r)
        r += 1
        var k = Int(childStart[Int(m) + 1]) - 1
        let a = Int(childStart[Int(m)])
        while k >= a {
          stack.append(sortedChildren[k])
          k -= 1
        }
      }
    }
    if changed { frame.orderGeneration &+= 1 }
  }

  /// In-place heap sort of `buf[a..<b]` by (key, model index): O(k log k), no allocation.
  private func _heapSort(
    _ buf: UnsafeMutableBufferPointer<Int32>, _ a: Int, _ b: Int, _ keys: UnsafeBufferPointer<Double>
  ) {
    @inline(__always) func less(_ x: Int32, _ y: Int32) -> Bool {
      let kx = keys[Int(x)]
      let ky = keys[Int(y)]
      return kx != ky ? kx < ky : x < y
    }
    let count = b - a
    func siftDown(_ start: Int, _ end: Int) {
      var root = start
      while 2 * root + 1 < end {
        var child = 2 * root + 1
        if child + 1 < end && less(buf[a + child], buf[a + child + 1]) { child += 1 }
        if less(buf[a + root], buf[a + child]) {
          buf.swapAt(a + root, a + child)
          root = child
        } else {
          return
        }
      }
    }
    var start = count / 2 - 1
    while start >= 0 {
      siftDown(start, count)
      start -= 1
    }
    var end = count - 1
    while end > 0 {
      buf.swapAt(a, a + end)
      siftDown(0, end)
      end -= 1
    }
  }

  /// Pass 3, row order (parents first): structure, flags, world maps, guard chain, world boxes.
  private func _fillRows() {
    states.withUnsafeBufferPointer { st in _fillRows(st) }
  }

  private func _fillRows(_ st: UnsafeBufferPointer<LayerState>) {
    let f = frame
    for r in 0..<layers.count {
      let m = Int(f.layer[r].rawValue)
      let p = Int(modelParent[m])
      let pr = p < 0 ? -1 : Int(rowOf[p])
      let s = st.baseAddress! + m
      f._parent[r] = Int32(pr)
      f._subtreeEnd[r] = Int32(r) + subtreeSize[m]

      let admitted = semantics.admits(
        hidden: s.pointee.isHidden, userInteractionEnabled: interactive[m], opacity: s.pointee.opacity)
      var flags = PresentationFrame.Flags(rawValue: 0)
      if s.pointee.isHidden { flags.insert(.hidden) }
      if !s.pointee.isHidden && !admitted { flags.insert(.notInteractive) }
      let h = levelMap[m]
      let inv = levelInverse[m]
      f._fromParent[r] = inv
      if pr < 0 {
        f._toWorld[r] = h
        f._fromWorld[r] = inv
        f._guardRow[r] = -1
      } else {
        f._toWorld[r] = Homography.concat(h, f.toWorld[pr])
        f._fromWorld[r] = Homography.concat(f.fromWorld[pr], inv)
        let guardBits = PresentationFrame.Flags.clips.rawValue | PresentationFrame.Flags.projective.rawValue
        f._guardRow[r] = f.flags[pr].rawValue & guardBits == 0 ? f.guardRow[pr] : Int32(pr)
      }
      let parentReachable = pr < 0 || f.flags[pr].contains(.reachable)
      var reachable = admitted && levelInvertible[m] && parentReachable
      let tw = f.toWorld[r]
      if reachable && tw.isAffine && GeometryLimits.isTooDistorted(tw.m11, tw.m12, tw.m21, tw.m22) {
        reachable = false
        flags.insert(.degenerate)
      }
      let b = s.pointee.bounds
      let minX = b.isNull ? Double.infinity : b.minX
      let minY = b.isNull ? Double.infinity : b.minY
      let maxX = b.isNull ? -Double.infinity : b.maxX
      let maxY = b.isNull ? -Double.infinity : b.maxY
      f._boundsMinX[r] = minX
      f._boundsMinY[r] = minY
      f._boundsMaxX[r] = maxX
      f._boundsMaxY[r] = maxY
      let nonEmpty = maxX > minX && maxY > minY
      if reachable { flags.insert(.reachable) }
      if reachable && nonEmpty { flags.insert(.hittable) }
      if semantics.clipsDescent(masksToBounds: masks[m]) { flags.insert(.clips) }
      if !h.isAffine { flags.insert(.projective) }
      if !levelInvertible[m] { flags.insert(.singular) }
      f._flags[r] = flags

      let parentClip = pr < 0 ? _Box.everything : clip[pr]
      var box = _Box.nothing
      if reachable {
        box = (nonEmpty ? _quadBox(f.toWorld[r], minX, minY, maxX, maxY) : .nothing).intersection(parentClip)
      }
      f._worldMinX[r] = box.minX
      f._worldMinY[r] = box.minY
      f._worldMaxX[r] = box.maxX
      f._worldMaxY[r] = box.maxY
      clip[r] = flags.contains(.clips) ? (reachable && nonEmpty ? box : .nothing) : parentClip
    }
  }

  /// The world box of a bounds rect: the box of its four mapped corners when all are in front of
  /// the viewer and finite (then the whole rect is, and its image is their convex hull), padded by
  /// a relative 1e-9 against rounding; the whole plane otherwise.
  private func _quadBox(_ h: Homography, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> _Box {
    guard let a = h.apply(Point(x0, y0)), let b = h.apply(Point(x1, y0)), let c = h.apply(Point(x1, y1)),
      let d = h.apply(Point(x0, y1))
    else { return .everything }
    let minX = Swift.min(Swift.min(a.x, b.x), Swift.min(c.x, d.x))
    let maxX = Swift.max(Swift.max(a.x, b.x), Swift.max(c.x, d.x))
    let minY = Swift.min(Swift.min(a.y, b.y), Swift.min(c.y, d.y))
    let maxY = Swift.max(Swift.max(a.y, b.y), Swift.max(c.y, d.y))
    guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return .everything }
    let padX = (abs(minX) + abs(maxX)) * 1e-9 + 1e-300
    let padY = (abs(minY) + abs(maxY)) * 1e-9 + 1e-300
    return _Box(minX: minX - padX, minY: minY - padY, maxX: maxX + padX, maxY: maxY + padY)
  }

  /// The model layer of an id.
  public func layer(_ id: LayerID) -> Layer { layers[Int(id.rawValue)] }

  /// Model layer m's presentation state at the last build (its model values with every active
  /// animation applied): what the frame's rows were computed from.
  public func presentationState(ofLayer m: Int) -> LayerState { states[m] }
}
