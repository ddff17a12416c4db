import LayerModel
import Presentation

/// A way of answering "which layer is under this point" at one frame time: the candidate with
/// the largest row under the semantics (the flat form of docs/semantics.md). Two families refine
/// it: `FrameStrategy` consumes a built presentation frame, `SceneStrategy` works from the
/// compiled scene and the clock. Strategies are value types driven through generics
/// (`QueryLoop`, `StrategyKind.dispatch`), never through `any HitTestStrategy` per query.
public protocol HitTestStrategy {
  /// The CLI name (`tree-walk`, `grid`, ...).
  static var name: String { get }
  /// One line: what it is and when to pick it.
  static var summary: String { get }
  /// Which family the strategy belongs to (reports group by it).
  static var family: StrategyFamily { get }

  init()

  /// The answer for world point `p`, counting boxes or nodes tested into `counter`.
  func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID?

  /// Bytes held by the index (not counting the frame or the scene).
  var memoryFootprint: Int { get }

  /// Whether the strategy can answer now: it was updated, and (for a frame strategy) its index
  /// still describes the frame it was updated with (see `FrameBinding`).
  var isCurrent: Bool { get }

  /// Work done since the last update beyond box tests (lazy presentation evaluations, re-index
  /// work), for reports. Zero by default.
  var counters: StrategyCounters { get }
}

/// The families a strategy can belong to, as results report them.
public enum StrategyFamily: String, Sendable, CaseIterable {
  /// Consumes a presentation frame built for each time.
  case rebuild
  /// Computes presentation values only for the layers its walk visits.
  case lazy
  /// Indexes what animations can do over a time window instead of rebuilding per frame.
  case timeAware = "time-aware"
  /// An established library, through the harness (the optional peers package).
  case peer
}

/// Per-frame work counts of a strategy, beyond the boxes its queries test.
public struct StrategyCounters: Sendable, Equatable {
  /// Presentation values evaluated for single layers (lazy and time-aware strategies).
  public var presentations = 0
  /// Candidates whose exact test ran.
  public var candidates = 0
  /// Entries (re)inserted or rebuilt in an index during the last update.
  public var reindexed = 0
  /// Layers whose motion could not be bounded (candidates everywhere in their window).
  public var unbounded = 0
  /// The time window (or segment) an index over motion bounds uses, in seconds (0: none).
  public var windowSeconds = 0.0
  public init() {}
}

/// A strategy that consumes a built presentation frame: `update(with:)` once per frame, then
/// queries until the next update.
public protocol FrameStrategy: HitTestStrategy {
  /// The frame columns the strategy reads: the builder computes only these, so each strategy's
  /// frame costs only what it needs (tree-walk needs no maps from the world, boxes or guards).
  static var columns: FrameColumns { get }

  /// Prepares for queries on `frame` (which stays alive and unchanged until the next update).
  mutating func update(with frame: PresentationFrame)
}

/// A strategy that works from the compiled scene and the clock, with no built frame: bound once
/// to a scene, then `update(at:)` once per frame (everything it does per frame, re-indexing
/// included), then queries.
public protocol SceneStrategy: HitTestStrategy {
  /// Binds to a compiled scene under a semantics (untimed, like compiling the scene).
  mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics)

  /// Prepares to answer at clock time `time` (the presentation tree, or with `animated: false`
  /// the model tree).
  mutating func update(at time: Double, animated: Bool)
}

extension HitTestStrategy {
  public var counters: StrategyCounters { StrategyCounters() }

  /// The answer for world point `p`.
  @inlinable public func hitTest(_ p: Point) -> LayerID? {
    if !isCurrent { _staleFrame(Self.name) }
    var counter = NoCounter()
    return hitTest(p, counter: &counter)
  }

  /// Answers a batch: `results[i]` for `points[i]`.
  @inlinable public func hitTest(
    _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) {
    if !isCurrent { _staleFrame(Self.name) }
    var counter = NoCounter()
    for i in 0..<Swift.min(points.count, results.count) { results[i] = hitTest(points[i], counter: &counter) }
  }
}

extension FrameStrategy {
  public static var family: StrategyFamily { .rebuild }
  public static var columns: FrameColumns { .all }
}

/// Counts work per query (boxes or nodes tested). `NoCounter` compiles to nothing.
public protocol WorkCounter {
  mutating func tested(_ n: Int)
}

/// A counter that counts nothing: specialised away.
public struct NoCounter: WorkCounter {
  @inlinable public init() {}
  @inlinable @inline(__always) public mutating func tested(_ n: Int) {}
}

/// A counter that adds up the work.
public struct TallyCounter: WorkCounter {
  public var count = 0
  @inlinable public init() {}
  @inlinable @inline(__always) public mutating func tested(_ n: Int) { count &+= n }
}

/// The presentation frame a strategy was updated with, and the build it was updated with. A
/// frame object is rebuilt in place at every time step, and a rebuild can change what every row
/// means (and how many there are), so a strategy answers only while the frame still holds that
/// build: `QueryLoop` checks once per batch (always, even in -Ounchecked builds: a stale index
/// would read rows that changed meaning), each query asserts it in debug builds.
public struct FrameBinding {
  @usableFromInline var _frame: PresentationFrame
  @usableFromInline var _generation: UInt64

  public init() {
    _frame = PresentationFrame(semantics: .calayer)
    _generation = _frame.generation
  }

  /// Binds to `frame` as it is now.
  public mutating func bind(_ frame: PresentationFrame) {
    _frame = frame
    _generation = frame.generation
  }

  /// The bound frame.
  @inlinable public var frame: PresentationFrame { _frame }

  /// Whether the frame still holds the build the strategy was updated with.
  @inlinable public var isCurrent: Bool { _frame.generation == _generation }
}

/// Each query's own check that its frame was not rebuilt since the update (with
/// `HITBENCH_INTERNAL_CHECKS`; `QueryLoop` checks every batch in every build).
@inlinable @inline(__always) func _checkCurrent(_ binding: FrameBinding) {
  #if HITBENCH_INTERNAL_CHECKS
    precondition(binding.isCurrent, "queried after the frame was rebuilt")
  #endif
}

/// Stops the process: a strategy was asked about a frame rebuilt since its update.
@usableFromInline func _staleFrame(_ strategy: String) -> Never {
  fatalError("\(strategy): queried after its presentation frame was rebuilt; call update(with:) first")
}
