import LayerModel
import Presentation

/// A way of answering "which layer is under this point" at one frame time: the candidate with
/// the largest row under the semantics (the flat form of docs/semantics.md). Two families refine
/// it: `FrameStrategy` consumes a built presentation frame, `SceneStrategy` works from the
/// compiled scene and the clock. Strategies are value types; a frame's queries go through
/// `answer(_:into:)`, whose loop is specialised for each concrete strategy in this module (the
/// witness of every conformance calls the strategy's own `hitTest` directly), so nothing per
/// query goes through a protocol.
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

  /// Answers a frame's queries: `results[i]` for `points[i]`. Stops the process when the
  /// strategy is not current (every build checks, once per batch).
  func answer(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>)

  /// The same, answering the boxes or nodes tested (an untimed counting pass).
  func answerCounting(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>)
    -> Int

  /// Bytes held by the index (not counting the frame or the scene).
  var memoryFootprint: Int { get }

  /// Whether the strategy can answer now: it was updated, and (for a frame strategy) its index
  /// still describes the frame it was updated with (see `FrameBinding`).
  var isCurrent: Bool { get }

  /// Work done since the last update beyond box tests (lazy presentation evaluations, re-index
  /// work), for reports. Zero by default.
  var counters: StrategyCounters { get }
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
  /// Binds to a compiled scene under a semantics (untimed, like compiling the scene), with the
  /// run's options (a pinned window length): nothing is read from anywhere else later.
  mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions)

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

  // Not inlinable on purpose: each conformance's witness is this body specialised for the
  // concrete strategy here, where `hitTest` is visible; a caller in another module reaches it
  // through the witness, already specialised.
  public func answer(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>) {
    var counter = NoCounter()
    _answerLoop(points, into: results, &counter)
  }

  public func answerCounting(
    _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) -> Int {
    var counter = TallyCounter()
    _answerLoop(points, into: results, &counter)
    return counter.count
  }

  /// The batch loop of both: stops on a stale strategy once, then one `hitTest` per point.
  @usableFromInline @inline(__always)
  func _answerLoop<Counter: WorkCounter>(
    _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>,
    _ counter: inout Counter
  ) {
    if !isCurrent { _staleFrame(Self.name) }
    var i = 0
    let n = Swift.min(points.count, results.count)
    while i < n {
      results[i] = hitTest(points[i], counter: &counter)
      i &+= 1
    }
  }
}

extension FrameStrategy {
  public static var family: StrategyFamily { .rebuild }
  public static var columns: FrameColumns { .all }
}

extension SceneStrategy {
  /// Binds with the default options (window lengths chosen by cost).
  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics) {
    attach(to: scene, semantics: semantics, options: StrategyOptions())
  }
}

/// Stops the process: a strategy was asked about a frame rebuilt since its update.
@usableFromInline func _staleFrame(_ strategy: String) -> Never {
  fatalError("\(strategy): queried after its presentation frame was rebuilt; call update(with:) first")
}
