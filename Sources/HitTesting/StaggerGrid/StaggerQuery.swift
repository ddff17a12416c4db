import Clocks
import Columns
import LayerModel
import Presentation

/// One batch of stagger-grid queries: the groups' search, the linked grid and the groups' windows
/// and bounds as plain pointers. A group the grid offers is searched only when its bounds
/// interpolated at the batch's time within its own window hold the point. No reference count
/// per query or candidate.
struct _StaggerQuery<Counter: WorkCounter> {
  var search: CandidateSearch
  /// Unmanaged, called through a guaranteed reference: no reference count per query.
  let grid: Unmanaged<LinkedBoxGrid>
  let time: Double
  let start: UnsafePointer<Double>
  let end: UnsafePointer<Double>
  let line: UnsafePointer<LinearBox>
  /// Grid entries looked at and queries answered (for the window length's cost model).
  var scanned = 0
  var queries = 0

  @inline(__always)
  init(
    search: CandidateSearch, grid: LinkedBoxGrid, time: Double, start: UnsafeMutablePointer<Double>,
    end: UnsafeMutablePointer<Double>, line: UnsafeMutablePointer<LinearBox>
  ) {
    self.search = search
    self.grid = Unmanaged.passUnretained(grid)
    self.time = time
    self.start = UnsafePointer(start)
    self.end = UnsafePointer(end)
    self.line = UnsafePointer(line)
  }

  /// Whether group g's bounds hold p at the batch's time: its lines at the time's fraction of
  /// its own window.
  @inline(__always) func _holds(_ g: Int, _ p: Point) -> Bool {
    line[g].holds(p, at: LinearBox.fraction(time, from: start[g], to: end[g]))
  }

  @inline(__always)
  mutating func query(_ p: Point, _ counter: inout Counter) -> LayerID? {
    search.reset()
    search.group(0, p, &counter)
    queries &+= 1
    scanned &+= grid._withUnsafeGuaranteedRef { linked in
      linked.visit(p) { e in
        let g = Int(e)
        counter.tested(1)
        if search.canBeat(g) && _holds(g, p) { search.group(g, p, &counter) }
        return true
      }
    }
    return search.answer
  }

  /// The grid's work for p alone: what `costOfCandidates` subtracts.
  @inline(__always)
  func proposalsOnly(_ p: Point) -> Int {
    var held = 0
    _ = grid._withUnsafeGuaranteedRef { linked in
      linked.visit(p) { e in
        if _holds(Int(e), p) { held &+= 1 }
        return true
      }
    }
    return held
  }
}
