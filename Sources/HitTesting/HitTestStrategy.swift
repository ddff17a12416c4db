import LayerModel
import Presentation

/// A way of answering "which layer is under this point" for one presentation frame: the
/// candidate with the largest row under the frame's semantics (SEMANTICS.md's flat form).
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
}

extension HitTestStrategy {
  /// The answer for world point `p`.
  @inlinable public func hitTest(_ p: Point) -> LayerID? {
    var counter = NoCounter()
    return hitTest(p, counter: &counter)
  }

  /// Answers a batch: `results[i]` for `points[i]`.
  @inlinable public func hitTest(
    _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) {
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
