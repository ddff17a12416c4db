import LayerModel
import Presentation

/// Time-aware, incremental: Box2D's fat boxes in time instead of space. Each moving group keeps
/// its own window and the box bounding it over that window (`MotionBounds`), in a uniform grid
/// whose cells are linked lists; a group is re-bounded and re-inserted only when the clock
/// leaves its window. Windows start staggered over `phases` frames, so about the same number
/// of groups expire every frame instead of all at once (the per-frame cost is even, with no
/// rebuild spike). Fixed layers and each group's members are indexed once (`MotionGroups`).
///
/// Update: O(groups) to find the expired ones (a scan of their window ends) plus O(depth) per
/// re-inserted group. Query: O(cell list + candidates). Window length: as `window-grid`, from
/// the re-insert time per frame against the candidates per frame.
public struct StaggerGrid: SceneStrategy {
  public static let name = "stagger-grid"
  public static let summary =
    "time-aware: per-group time windows re-bounded only when they expire, staggered so every frame does the same small work"
  public static let family = StrategyFamily.timeAware

  @usableFromInline var state: _StaggerState?

  public init() {}

  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics) {
    state = _StaggerState(MotionGroups(scene: scene, semantics: semantics))
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let s = state else { preconditionFailure("stagger-grid: update before attach") }
    s.update(at: time, animated: animated)
  }

  /// Updated, and the scene has not changed since (its groups would no longer describe it).
  public var isCurrent: Bool { state?.isCurrent ?? false }
  public var memoryFootprint: Int { state?.memoryFootprint ?? 0 }
  public var counters: StrategyCounters { state?.counters ?? StrategyCounters() }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let s = state else { return nil }
    return s.hitTest(p, counter: &counter)
  }
}

@usableFromInline final class _StaggerState {
  let groups: MotionGroups
  /// Per group: its window and box.
  let start = ScratchBuffer<Double>()
  let end = ScratchBuffer<Double>()
  let boxes = ScratchBuffer<Box>()
  let grid = LinkedBoxGrid()
  var length = WindowLength()
  /// Windows of the first round end at t + length x (k + 1) / phases for group k mod phases.
  static let phases = 8
  var initialized = false
  var updated = false
  var animated = true
  var counters = StrategyCounters()
  /// Frames counted toward the next adaptation of the length (one "window" of the stagger is
  /// `phases` frames).
  var framesSinceAdapt = 0

  init(_ groups: MotionGroups) {
    self.groups = groups
  }

  var memoryFootprint: Int {
    grid.memoryFootprint + (start.capacity + end.capacity) * 8 + boxes.capacity * MemoryLayout<Box>.stride
  }

  func update(at t: Double, animated: Bool) {
    let g = groups
    let changed = g.refresh()
    g.lazy.prepare(at: t, animated: animated)
    g.motion.animated = animated
    counters = StrategyCounters()
    let count = g.root.count
    if changed || !initialized || animated != self.animated {
      start.reserve(count)
      end.reserve(count)
      boxes.reserve(count)
      for k in 0..<count {
        start.base[k] = .nan
        end.base[k] = .nan
        boxes.base[k] = .nothing
      }
      // The cells follow the first windows' boxes: about their mean extent, over their extent.
      var extent = g.hull[0]
      var size = 0.0
      var sized = 0
      for k in 1..<count {
        _ = g.motion.box(of: Int(g.root[k]), from: t, to: animated ? t + length.seconds : t)
        let b = g.windowBox(k)
        guard !b.isEmpty, b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { continue }
        extent = _union(extent, b)
        size += Swift.max(b.maxX - b.minX, b.maxY - b.minY)
        sized += 1
      }
      grid.reset(groups: count, extent: extent, cellSide: sized > 0 ? size / Double(sized) : 0)
      initialized = true
      self.animated = animated
    }
    let t0 = monotonicNanoseconds()
    var reinserted = 0
    var unbounded = 0
    let s = start.base
    let e = end.base
    let b = boxes.base
    for k in 1..<count where !(t >= s[k] && t < e[k]) {
      // A first window is shortened to its phase; later ones have the full length.
      let phase = Double((k % Self.phases) + 1) / Double(Self.phases)
      let first = s[k].isNaN
      let length = first ? self.length.seconds * phase : self.length.seconds
      let r = Int(g.root[k])
      _ = g.motion.box(of: r, from: t, to: animated ? t + length : t)
      if g.motion.isUnbounded(r) { unbounded += 1 }
      s[k] = t
      e[k] = t + length
      b[k] = g.windowBox(k)
      grid.move(k, to: b[k])
      reinserted += 1
    }
    self.length.reindexNs &+= monotonicNanoseconds() &- t0
    self.length.frames += 1
    framesSinceAdapt += 1
    if framesSinceAdapt >= Self.phases {
      self.length.windowEnded()
      framesSinceAdapt = 0
    }
    counters.reindexed = reinserted
    counters.unbounded = unbounded
    counters.windowSeconds = self.length.seconds
    updated = true
    version = groups.scene.changeVersion
  }

  var version = -1
  var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  @inline(__always)
  func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    let g = groups
    var best = MotionGroups.Best()
    var candidates = 0
    g.query(group: 0, p, &best, candidates: &candidates, counter: &counter)
    let b = boxes.base
    // p's cell list, then the overflow list.
    var n = grid.head(at: p)
    var overflowNext = true
    while true {
      if n < 0 {
        guard overflowNext else { break }
        overflowNext = false
        n = grid.head.base[grid.cells]
        continue
      }
      let k = Int(n) / LinkedBoxGrid.slots
      counter.tested(1)
      if b[k].holds(p) { g.query(group: k, p, &best, candidates: &candidates, counter: &counter) }
      n = grid.next.base[Int(n)]
    }
    counters.candidates &+= candidates
    counters.presentations = g.lazy.evaluations
    length.candidates &+= candidates
    return best.layer >= 0 ? LayerID(Int32(best.layer)) : nil
  }
}

/// A uniform grid of linked lists over a fixed extent, for entries that move one at a time:
/// each entry occupies up to `slots` cells (a node per cell, in a block of its own, so moving
/// it touches only its own nodes); an entry covering more cells, or reaching outside the
/// extent, goes on an overflow list every lookup visits. Nodes are doubly linked: a move is
/// O(cells it left + cells it entered). No allocation after `reset`.
final class LinkedBoxGrid {
  static let slots = 16
  var originX = 0.0
  var originY = 0.0
  var inverseSide = 1.0
  var columns = 1
  var rows = 1
  /// The first node of each cell's list, and of the overflow list (index `cells`); -1: empty.
  let head = ScratchBuffer<Int32>()
  /// Node i belongs to entry i / slots; its cell (-1: unused) and its neighbours.
  let nodeCell = ScratchBuffer<Int32>()
  let next = ScratchBuffer<Int32>()
  let prev = ScratchBuffer<Int32>()
  var cells = 1

  /// Sizes the grid for `groups` entries over `extent` with cells of about `cellSide` (at most
  /// 128 x 128), every entry unplaced.
  func reset(groups: Int, extent: Box, cellSide: Double) {
    var box = extent
    if box.isEmpty || !box.minX.isFinite || !box.maxX.isFinite || !box.minY.isFinite || !box.maxY.isFinite {
      box = Box(minX: 0, minY: 0, maxX: 1, maxY: 1)
    }
    let w = Swift.max(box.maxX - box.minX, 1e-9)
    let h = Swift.max(box.maxY - box.minY, 1e-9)
    let side = Swift.max(cellSide.isFinite ? cellSide : 0, Swift.max(w, h) / 128, 1e-9)
    originX = box.minX
    originY = box.minY
    inverseSide = 1 / side
    columns = _cellCount(w * inverseSide, limit: 128)
    rows = _cellCount(h * inverseSide, limit: 128)
    cells = columns * rows
    head.reserve(cells + 1)
    for c in 0...cells { head.base[c] = -1 }
    let nodes = groups * Self.slots
    nodeCell.reserve(nodes)
    next.reserve(nodes)
    prev.reserve(nodes)
    for i in 0..<nodes { nodeCell.base[i] = -1 }
  }

  var memoryFootprint: Int { (head.capacity + nodeCell.capacity + next.capacity + prev.capacity) * 4 }

  @inline(__always) func _cell(_ v: Double, _ origin: Double, _ count: Int) -> Int? {
    let c = (v - origin) * inverseSide
    guard c >= 0, c < Double(count) else { return nil }
    return Int(c)
  }

  func _unlink(_ node: Int) {
    let n = next.base[node]
    let p = prev.base[node]
    let c = Int(nodeCell.base[node])
    if p >= 0 { next.base[Int(p)] = n } else { head.base[c] = n }
    if n >= 0 { prev.base[Int(n)] = p }
    nodeCell.base[node] = -1
  }

  func _link(_ node: Int, _ c: Int) {
    let h = head.base[c]
    next.base[node] = h
    prev.base[node] = -1
    if h >= 0 { prev.base[Int(h)] = Int32(node) }
    head.base[c] = Int32(node)
    nodeCell.base[node] = Int32(c)
  }

  /// Places entry k in the cells its box covers (nowhere when empty).
  func move(_ k: Int, to box: Box) {
    let base = k * Self.slots
    for s in 0..<Self.slots where nodeCell.base[base + s] >= 0 { _unlink(base + s) }
    guard !box.isEmpty else { return }
    guard let x0 = _cell(box.minX, originX, columns), let x1 = _cell(box.maxX, originX, columns),
      let y0 = _cell(box.minY, originY, rows), let y1 = _cell(box.maxY, originY, rows),
      (x1 - x0 + 1) * (y1 - y0 + 1) <= Self.slots
    else {
      _link(base, cells)
      return
    }
    var s = 0
    for y in y0...y1 {
      for x in x0...x1 {
        _link(base + s, y * columns + x)
        s += 1
      }
    }
  }

  /// The first node of p's cell list (-1: empty, or p outside the extent); entries are
  /// node / `slots`, the list continues through `next`, and the overflow list is
  /// `head[cells]`.
  @inline(__always) func head(at p: Point) -> Int32 {
    guard let x = _cell(p.x, originX, columns), let y = _cell(p.y, originY, rows) else { return -1 }
    return head.base[y * columns + x]
  }
}
