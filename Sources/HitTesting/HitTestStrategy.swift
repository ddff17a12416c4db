import LayerModel
import Presentation

/// A way of answering "which layer is under this point" for one presentation frame: the
/// candidate with the largest row under the frame's semantics (the flat form of docs/semantics.md).
/// `update` is called once per frame (build, rebuild or refit); `hitTest` then answers queries
/// until the next update. Strategies are value types driven through generics (`QueryLoop`,
/// `StrategyKind.dispatch`), never through `any HitTestStrategy` per query.
public protocol HitTestStrategy {
  /// The CLI name (`tree-walk`, `grid`, ...).
  static var name: String { get }
  /// One line: what it is and when to pick it.
  static var summary: String { get }

  init()

  /// Prepares for queries on `frame` (which stays alive and unchanged until the next update).
  mutating func update(with frame: PresentationFrame)

  /// The answer for world point `p`, counting boxes or nodes tested into `counter`.
  func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID?

  /// Bytes held by the index (not counting the frame).
  var memoryFootprint: Int { get }

  /// Whether the strategy can answer now: its index still describes the frame it was updated
  /// with (see `FrameBinding`).
  var isCurrent: Bool { get }
}

extension HitTestStrategy {
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

/// Stops the process: a strategy was asked about a frame rebuilt since its update.
@usableFromInline func _staleFrame(_ strategy: String) -> Never {
  fatalError("\(strategy): queried after its presentation frame was rebuilt; call update(with:) first")
}
