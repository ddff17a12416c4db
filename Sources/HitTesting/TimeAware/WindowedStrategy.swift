import Clocks
import Columns
import LayerModel
import Presentation

/// A time-aware strategy over windows: the moving groups' bounds over a time window (or
/// segment) in an `Index`, built for the next window on the builder's thread while the current
/// one answers (double-buffered), so the frame that crosses a window swaps two indexes instead
/// of paying a re-index; fixed layers and each group's members indexed once (`MotionGroups`).
/// A query searches the world group, then the groups whose bounds the index proposes
/// (`CandidateSearch`). `window-grid`, `linear-bvh` and the peers' `embree-motion` are this
/// with different indexes.
///
/// Update: O(1) inside a window; a swap and a posted build when one ends (the first window, a
/// time jump or a scene change builds on the calling thread). Query: the index's candidates
/// plus the groups' members, each candidate evaluated lazily once a frame.
public struct WindowedStrategy<Index: MotionIndex>: _TimeAwareShell {
  public static var name: String { Index.name }
  public static var summary: String { Index.summary }
  public static var family: StrategyFamily { Index.family }

  public var state: _TimeAwareState<_WindowsAhead<Index>>?

  public init() {}

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let s = state else { return nil }
    let search = s.windows._beginBatch()
    var query = _CountedWindowQuery(search: search, counter: counter, windows: _OneWindow(fraction: search.fraction))
    query.search._begin(p, &query.counter)
    let looked = s.windows.front.index.visit(p, at: query.search.fraction, &query)
    let answer = query.search._finish(looked: looked, &query.counter)
    counter = query.counter
    s._endBatch(query.search)
    return answer
  }

  // Inlinable, so the loop is compiled where the index is concrete (this module's strategies in
  // BenchKit's table, a peer's in its module): the index's visit is a direct call to its body
  // for `WindowSearch` (`MotionIndex.visit(_:at:search:)`, specialised in the index's module),
  // and the search's work per entry (`WindowSearch`, not generic) is inlined there.
  @inlinable
  public func answer(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>) {
    _ = _answer(points, into: results)
  }

  @inlinable
  public func answerCounting(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>)
    -> Int
  {
    _answer(points, into: results)
  }

  /// The batch of queries; answers the groups and members tested.
  @inlinable @inline(__always)
  func _answer(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>) -> Int {
    guard let s = state, s.isCurrent else { _staleFrame(Self.name) }
    let index = s.windows._frontIndex
    var search = s.windows._beginBatch()
    let n = Swift.min(points.count, results.count)
    var i = 0
    while i < n {
      let p = points[i]
      search.begin(p)
      let looked = index.visit(p, at: search.fraction, search: &search)
      results[i] = search.finish(looked: looked)
      i &+= 1
    }
    s._endBatch(search)
    return search.tested
  }
}
