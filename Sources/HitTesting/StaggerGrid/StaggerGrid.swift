import Clocks
import Columns
import LayerModel
import Presentation

/// Time-aware, incremental: Box2D's fat boxes in time instead of space. Each moving group keeps
/// its own window and the box bounding it over that window (`MotionBounds`), in a uniform grid
/// whose cells are linked lists (`LinkedBoxGrid`); a group is re-bounded and moved only when
/// the clock leaves its window. The first windows end at times spread evenly over one window
/// length (a golden-ratio sequence), and every later window lasts one length, so about the same
/// number of groups expire every frame: the per-frame cost is even, with no re-index in any
/// frame. Groups wait in a min-heap by the end of their window, so a frame takes exactly the
/// expired ones whatever lengths their windows had. A group's bounds are exact lines where its
/// root moves piecewise linearly under no clipping ancestor (a proposed group is searched only
/// when the lines at the frame's fraction of its own window hold the point), else its window
/// box; the grid has levels of coarser cells, so a long window's box stays off the overflow
/// list. Fixed layers and each group's members are indexed once (`MotionGroups`); a query
/// searches them through the windowed strategies' search (`WindowSearch`), each group's bounds
/// interpolated in its own window.
///
/// Update: O(expired groups x (depth + log groups)). Query: O(one cell list per level +
/// candidates). Window length: as `window-grid`'s, from the re-bounding per frame against the
/// queries' measured time per frame.
public struct StaggerGrid: _TimeAwareShell {
  public static let name = "stagger-grid"
  public static let summary =
    "time-aware: per-group time windows re-bounded only when they expire, spread so every frame does the same small work"
  public static let family = StrategyFamily.timeAware

  public var state: _TimeAwareState<_StaggeredWindows>?

  public init() {}

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let s = state else { return nil }
    let own = s.windows._beginBatch()
    var query = _CountedWindowQuery(search: own.search, counter: counter, windows: own.windows)
    query.search._begin(p, &query.counter)
    let looked = s.windows.grid.visit(p, boxes: s.windows._boxes, &query)
    let answer = query.search._finish(looked: looked, &query.counter)
    counter = query.counter
    s._endBatch(query.search)
    return answer
  }

  public func answer(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>) {
    guard let s = state, s.isCurrent else { _staleFrame(Self.name) }
    _ = s.windows._answer(s, points, into: results)
  }

  public func answerCounting(_ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>)
    -> Int
  {
    guard let s = state, s.isCurrent else { _staleFrame(Self.name) }
    return s.windows._answer(s, points, into: results)
  }
}
