import Clocks
import Columns
import LayerModel
import Presentation

/// One batch of stagger-grid queries: the groups' search, the linked grid and the groups' boxes as
/// plain pointers, and room for a query's proposals. No reference count per query or candidate.
struct _StaggerQuery<Counter: WorkCounter> {
  var search: CandidateSearch
  /// Unmanaged, called through a guaranteed reference: no reference count per query.
  let grid: Unmanaged<LinkedBoxGrid>
  let box: UnsafePointer<Box>
  let proposals: UnsafeMutablePointer<Int32>
  var scanned = 0

  @inline(__always)
  init(
    search: CandidateSearch, grid: LinkedBoxGrid, box: UnsafeMutablePointer<Box>,
    proposals: UnsafeMutablePointer<Int32>
  ) {
    self.search = search
    self.grid = Unmanaged.passUnretained(grid)
    self.box = UnsafePointer(box)
    self.proposals = proposals
  }

  @inline(__always)
  mutating func query(_ p: Point, _ counter: inout Counter) -> LayerID? {
    search.reset()
    search.group(0, p, &counter)
    let n = grid._withUnsafeGuaranteedRef { $0.entries(at: p, into: proposals) }
    scanned &+= n
    var k = 0
    while k < n {
      let g = Int(proposals[k])
      k &+= 1
      counter.tested(1)
      if search.canBeat(g) && box[g].holds(p) { search.group(g, p, &counter) }
    }
    return search.answer
  }

  /// The grid's work for p alone: what `costOfCandidates` subtracts.
  @inline(__always)
  mutating func proposalsOnly(_ p: Point) -> Int {
    let n = grid._withUnsafeGuaranteedRef { $0.entries(at: p, into: proposals) }
    var held = 0
    var k = 0
    while k < n {
      if box[Int(proposals[k])].holds(p) { held &+= 1 }
      k &+= 1
    }
    return held
  }
}
