/// Animations compiled into plain records over flat blocks: what the frame builder evaluates
/// every frame instead of the animation classes. One program holds every layer's animations
/// (`append` returns the layer's record range); nothing in it is a class or an existential.
///
/// Two evaluators mirror the classes' control flow step for step and share their arithmetic
/// (interpolation, endpoints, keyframe segments, springs), so a compiled animation gives the
/// same bits as `Animation.apply` (tested for every kind in PresentationTests):
/// - the **lean** lane: animations of position, bounds, anchorPoint, anchorPointZ, zPosition and
///   opacity (and their sub-paths), whose values are 1, 2 or 4 numbers evaluated on a vector of
///   11 numbers (`LeanValues`); basic, spring and keyframe (linear, paced, discrete) animations,
///   additive or cumulative, and groups of them;
/// - the **general** lane: everything else (transforms and their sub-paths, hidden, cubic
///   keyframes, paths with rotationMode, mixed value kinds) on a whole `LayerState`, with the
///   values kept as `AnimatableValue`s in a flat block.
package struct AnimationProgram {
  package var records: [AnimationRecord] = []
  /// Key times of keyframe records (derived ones for paced modes and paths).
  package var times: [Double] = []
  /// Lean-lane values: keyframe values and basic endpoints, `width` numbers each.
  package var numbers: [Double] = []
  /// General-lane values: keyframe values and basic endpoints.
  package var values: [AnimatableValue] = []
  package var segments: [PathSegment] = []
  package var curves: [TimingFunction] = []
  package var springs: [SpringCoefficients] = []
  /// Per record: the keyframe segment the last evaluation used (forward playback starts the next
  /// search there; a jump falls back to a binary search).
  package var cursors: [Int32] = []

  package init() {}

  package mutating func removeAll() {
    records.removeAll(keepingCapacity: true)
    times.removeAll(keepingCapacity: true)
    numbers.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
    segments.removeAll(keepingCapacity: true)
    curves.removeAll(keepingCapacity: true)
    springs.removeAll(keepingCapacity: true)
    cursors.removeAll(keepingCapacity: true)
  }

  /// Compiles `animations` (in the order they apply) and answers their record range and
  /// whether every record is on the lean lane.
  package mutating func append(_ animations: [Animation]) -> (range: Range<Int32>, lean: Bool) {
    let start = Int32(records.count)
    var lean = true
    for a in animations { lean = _compile(a) && lean }
    return (start..<Int32(records.count), lean)
  }

  // MARK: Compiling

  /// Compiles one animation (a group with its children); answers whether it is lean.
  @discardableResult
  mutating func _compile(_ a: Animation) -> Bool {
    let index = records.count
    var r = AnimationRecord(timing: a.timing, removedOnCompletion: a.isRemovedOnCompletion)
    r.timingFunction = _curve(a.timingFunction)
    records.append(r)
    cursors.append(0)
    switch a {
    case let g as AnimationGroup:
      records[index].kind = .group
      var lean = true
      for child in g.animations { lean = _compile(child) && lean }
      records[index].end = Int32(records.count)
      records[index].lane = lean ? .lean : .general
      return lean
    case let p as PropertyAnimation:
      records[index].keyPath = p.keyPath
      records[index].additive = p.isAdditive
      records[index].cumulative = p.isCumulative
      let layout = LeanValues.layout(p.keyPath)
      records[index].offset = layout.offset
      records[index].width = layout.width
      if let k = p as? KeyframeAnimation {
        _compileKeyframes(k, index, layout)
      } else if let b = p as? BasicAnimation {
        _compileBasic(b, index, layout)
      }
      records[index].end = Int32(records.count)
      return records[index].lane == .lean
    default:
      // A plain Animation does nothing (as `Animation.apply`).
      records[index].kind = .none
      records[index].end = Int32(records.count)
      return true
    }
  }

  mutating func _curve(_ f: TimingFunction?) -> Int32 {
    guard let f else { return -1 }
    curves.append(f)
    return Int32(curves.count - 1)
  }

  /// Whether every value fits the key path's lean layout (kind and width).
  static func _fitsLean(_ vs: [AnimatableValue?], _ keyPath: AnimatableKeyPath, _ layout: LeanValues.Layout) -> Bool {
    guard layout.width > 0 else { return false }
    for v in vs {
      guard let v else { continue }
      switch (v, layout.width) {
      case (.scalar, 1) where keyPath.valueKind == "number": continue
      case (.point, 2) where keyPath.valueKind == "point": continue
      case (.size, 2) where keyPath.valueKind == "size": continue
      case (.rect, 4) where keyPath.valueKind == "rect": continue
      default: return false
      }
    }
    return true
  }

  mutating func _appendNumbers(_ v: AnimatableValue) {
    switch v {
    case .scalar(let x): numbers.append(x)
    case .point(let p): numbers += [p.x, p.y]
    case .size(let s): numbers += [s.width, s.height]
    case .rect(let r): numbers += [r.origin.x, r.origin.y, r.size.width, r.size.height]
    default: break
    }
  }

  mutating func _compileBasic(_ b: BasicAnimation, _ i: Int, _ layout: LeanValues.Layout) {
    if let s = b as? SpringAnimation {
      records[i].kind = .spring
      springs.append(s.coefficients)
      records[i].spring = Int32(springs.count - 1)
    } else {
      records[i].kind = .basic
    }
    let ends = [b.fromValue, b.toValue, b.byValue]
    records[i].endpointMask = (b.fromValue != nil ? 1 : 0) | (b.toValue != nil ? 2 : 0) | (b.byValue != nil ? 4 : 0)
    if Self._fitsLean(ends, b.keyPath, layout) {
      records[i].lane = .lean
      records[i].valueRange.start = Int32(numbers.count)
      for e in ends { if let e { _appendNumbers(e) } }
    } else {
      records[i].lane = .general
      records[i].valueRange.start = Int32(values.count)
      for e in ends { if let e { values.append(e) } }
    }
  }

  mutating func _compileKeyframes(_ k: KeyframeAnimation, _ i: Int, _ layout: LeanValues.Layout) {
    records[i].kind = .keyframe
    let p = k._prepare()
    records[i].mode = k.calculationMode
    records[i].rotationMode = k.rotationMode
    records[i].keyRange.start = Int32(times.count)
    records[i].keyRange.count = Int32(p.keyTimes.count)
    times += p.keyTimes
    if let fs = k.timingFunctions {
      records[i].curveRange.start = Int32(curves.count)
      records[i].curveRange.count = Int32(fs.count)
      curves += fs
    }
    let simpleMode = k.calculationMode == .linear || k.calculationMode == .paced || k.calculationMode == .discrete
    if k.path == nil, simpleMode, k.values.count >= 2, Self._fitsLean(k.values, k.keyPath, layout) {
      records[i].lane = .lean
      // Position points in a plain track are interpolated `a + (b - a) u`, as the class's fast
      // path does; everything else `a (1 - u) + b u`.
      records[i].positionTrack = k.keyPath == .position && !k.isAdditive && !k.isCumulative
      records[i].valueRange.start = Int32(numbers.count)
      records[i].valueRange.count = Int32(k.values.count)
      for v in k.values { _appendNumbers(v) }
      return
    }
    records[i].lane = .general
    records[i].valueRange.start = Int32(values.count)
    records[i].valueRange.count = Int32(k.values.count)
    values += k.values
    if let path = k.path {
      records[i].isPath = true
      if case .move(let q)? = path.first { records[i].pathStart = q }
      records[i].segmentRange.start = Int32(segments.count)
      records[i].segmentRange.count = Int32(p.segments.count)
      segments += p.segments
    }
    // The class's own fast path for number keyframes (same arithmetic as the general one) is
    // reproduced by the general evaluator; nothing to mark.
  }
}

/// One compiled animation. `end` is one past its last record (a group's children follow it).
package struct AnimationRecord: Sendable {
  package enum Kind: UInt8, Sendable { case none, basic, spring, keyframe, group }
  package enum Lane: UInt8, Sendable { case lean, general }

  package var timing: MediaTiming
  package var removedOnCompletion: Bool
  package var kind = Kind.none
  package var lane = Lane.lean
  package var keyPath = AnimatableKeyPath.position
  package var additive = false
  package var cumulative = false
  package var positionTrack = false
  package var isPath = false
  package var mode = CalculationMode.linear
  package var rotationMode: RotationMode?
  package var pathStart: Point?
  /// Lean lane: the key path's first component in `LeanValues` and its number of components.
  package var offset: Int32 = 0
  package var width: Int32 = 0
  package var timingFunction: Int32 = -1
  /// Where the record's key times, values, path segments and per-segment timing functions
  /// sit in the program's arrays.
  package var keyRange = StorageRange()
  package var valueRange = StorageRange()
  package var segmentRange = StorageRange()
  package var curveRange = StorageRange.none
  package var spring: Int32 = -1
  /// Which of from (1), to (2), by (4) a basic or spring animation has, stored in that order.
  package var endpointMask: UInt8 = 0
  package var end: Int32 = 0

  init(timing: MediaTiming, removedOnCompletion: Bool) {
    self.timing = timing
    self.removedOnCompletion = removedOnCompletion
  }
}

/// The 11 animatable numbers the lean lane works on: position (x, y), bounds (origin x, y, size
/// width, height), anchorPoint (x, y), anchorPointZ, zPosition, opacity. A key path is a
/// contiguous run of them. 88 bytes, inline.
package struct LeanValues: Sendable {
  package var v: InlineArray<11, Double>

  package struct Layout: Sendable {
    package var offset: Int32
    package var width: Int32
  }

  package static func layout(_ k: AnimatableKeyPath) -> Layout {
    switch k {
    case .position: Layout(offset: 0, width: 2)
    case .positionX: Layout(offset: 0, width: 1)
    case .positionY: Layout(offset: 1, width: 1)
    case .bounds: Layout(offset: 2, width: 4)
    case .boundsOrigin: Layout(offset: 2, width: 2)
    case .boundsSize: Layout(offset: 4, width: 2)
    case .boundsWidth: Layout(offset: 4, width: 1)
    case .boundsHeight: Layout(offset: 5, width: 1)
    case .anchorPoint: Layout(offset: 6, width: 2)
    case .anchorPointZ: Layout(offset: 8, width: 1)
    case .zPosition: Layout(offset: 9, width: 1)
    case .opacity: Layout(offset: 10, width: 1)
    default: Layout(offset: 0, width: 0)
    }
  }

  package init(
    position: Point, bounds: Rect, anchorPoint: Point, anchorPointZ: Double, zPosition: Double, opacity: Double
  ) {
    v = [
      position.x, position.y, bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height, anchorPoint.x,
      anchorPoint.y, anchorPointZ, zPosition, opacity,
    ]
  }

  package init(_ s: LayerState) {
    self.init(
      position: s.position, bounds: s.bounds, anchorPoint: s.anchorPoint, anchorPointZ: s.anchorPointZ,
      zPosition: s.zPosition, opacity: s.opacity)
  }

  /// Writes the 11 numbers into a layer state (the general lane's starting point).
  package func write(into s: inout LayerState) {
    s.position = Point(x: v[0], y: v[1])
    s.bounds = Rect(x: v[2], y: v[3], width: v[4], height: v[5])
    s.anchorPoint = Point(x: v[6], y: v[7])
    s.anchorPointZ = v[8]
    s.zPosition = v[9]
    s.opacity = v[10]
  }

  package var position: Point { Point(x: v[0], y: v[1]) }
  package var bounds: Rect { Rect(x: v[2], y: v[3], width: v[4], height: v[5]) }
  package var anchorPoint: Point { Point(x: v[6], y: v[7]) }
  package var anchorPointZ: Double { v[8] }
  package var zPosition: Double { v[9] }
  package var opacity: Double { v[10] }

  /// `width` (1, 2 or 4) numbers from `offset` as the first lanes of a vector (the rest 0).
  /// Built whole, never lane by lane: a lane written at a variable index goes through memory
  /// and the vector's reload then stalls.
  /// `offset` and `width` come from `layout` (offset + width <= 11), so the accesses are unchecked.
  @inline(__always) package func load(_ offset: Int, _ width: Int) -> SIMD4<Double> {
    switch width {
    case 1: SIMD4(v[unchecked: offset], 0, 0, 0)
    case 2: SIMD4(v[unchecked: offset], v[unchecked: offset &+ 1], 0, 0)
    default:
      SIMD4(v[unchecked: offset], v[unchecked: offset &+ 1], v[unchecked: offset &+ 2], v[unchecked: offset &+ 3])
    }
  }

  @inline(__always) package mutating func store(_ x: SIMD4<Double>, _ offset: Int, _ width: Int) {
    v[unchecked: offset] = x.x
    if width >= 2 { v[unchecked: offset &+ 1] = x.y }
    if width == 4 {
      v[unchecked: offset &+ 2] = x.z
      v[unchecked: offset &+ 3] = x.w
    }
  }
}
