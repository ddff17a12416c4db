import Allocations
import LayerModel
import Presentation
import Scenes
import Testing

@testable import HitTesting

/// Each motion index alone: over box sets of every shape (a handful, many small, heavy-tailed
/// sizes that overflow the grid's entry budget, huge and point-sized boxes), its candidates for
/// a point are a superset of the boxes holding it, in descending order where it says so, and
/// a rebuild of as many boxes after the first allocates nothing.
@Suite struct MotionIndexTests {
  /// Box sets by name: (start, end) boxes.
  static func boxes(_ shape: String, seed: UInt64) -> ([Box], [Box]) {
    var rng = SplitMix64(seed: seed)
    func box(_ size: Double) -> Box {
      let x = rng.uniform(0, 1000)
      let y = rng.uniform(0, 800)
      return Box(minX: x, minY: y, maxX: x + size * rng.uniform(0.5, 1), maxY: y + size * rng.uniform(0.5, 1))
    }
    var start: [Box] = []
    switch shape {
    case "few": start = (0..<5).map { _ in box(200) }
    case "small": start = (0..<3000).map { _ in box(8) }
    // One box in ten a hundred times the others: the grid's side follows the mean, so the
    // large ones cover about a hundred cells each, more than its entry budget in total.
    case "heavy-tailed": start = (0..<3000).map { i in box(i % 10 == 0 ? 300 : 0.5) }
    case "huge-and-points":
      start = (0..<2000).map { i in i % 3 == 0 ? box(0) : i % 3 == 1 ? box(900) : box(20) }
    // A hundred and more boxes over most points (particles at a million): linear-bvh's tree
    // splits its top by entry (bands).
    case "piled": start = (0..<5000).map { _ in box(300) }
    default: Issue.record("unknown shape \(shape)")
    }
    // Small boxes move little (a window box covering the motion would hide their sizes).
    let motion = shape == "heavy-tailed" ? 0.2 : 30
    let end = start.map { b in
      let dx = rng.uniform(-motion, motion)
      let dy = rng.uniform(-motion, motion)
      return Box(minX: b.minX + dx, minY: b.minY + dy, maxX: b.maxX + dx, maxY: b.maxY + dy)
    }
    return (start, end)
  }

  static let shapes = ["few", "small", "heavy-tailed", "huge-and-points", "piled"]

  func check<I: MotionIndex>(_ type: I.Type, _ shape: String) {
    let (start, end) = Self.boxes(shape, seed: 7)
    let (window, last) = (start, end)
    var index = I()
    index.reserve(start.count)
    let linear = zip(window, last).map { LinearBox(start: $0, end: $1) }
    linear.withUnsafeBufferPointer { index.rebuild($0) }
    var rng = SplitMix64(seed: 11)
    var missed = 0
    var unordered = 0
    // Random points, then points exactly on an edge of a box interpolated at a random fraction
    // (an index that stores its boxes at lower precision must round them outward).
    for q in 0..<4000 {
      var p = Point(rng.uniform(-50, 1100), rng.uniform(-50, 900))
      var fraction = rng.uniform(0, 1)
      if q >= 2000 {
        let i = Int(rng.next() % UInt64(start.count))
        fraction = q % 4 == 0 ? 0 : q % 4 == 1 ? 1 : fraction
        let b = LinearBox(start: window[i], end: last[i]).at(fraction)
        p = q % 2 == 0 ? Point(b.minX, b.minY) : Point(b.maxX, b.maxY)
      }
      var visitor = ListingVisitor()
      _ = index.visit(p, at: fraction, &visitor)
      let out = visitor.listed
      let listed = Set(out)
      for i in start.indices where LinearBox(start: window[i], end: last[i]).holds(p, at: fraction) {
        if !listed.contains(Int32(i)) { missed += 1 }
      }
      if I.isOrdered && out.count > 1 { unordered += (1..<out.count).filter { out[$0 - 1] <= out[$0] }.count }
    }
    #expect(missed == 0, "\(I.name) on \(shape): \(missed) boxes holding the point not listed")
    #expect(unordered == 0, "\(I.name) on \(shape): \(unordered) candidates out of descending order")
    if AllocationCounter.isAvailable {
      // The same number of boxes, moved: the rebuild reuses every table.
      let (start2, end2) = Self.boxes(shape, seed: 8)
      let (window2, last2) = (start2, end2)
      let linear2 = zip(window2, last2).map { LinearBox(start: $0, end: $1) }
      // Bytes on this thread, where the rebuild runs (the request count is the process's, and
      // the registered workers of tests running in parallel allocate meanwhile).
      let used = AllocationCounter.measure {
        index.reserve(start2.count)
        linear2.withUnsafeBufferPointer { index.rebuild($0) }
      }
      #expect(
        used.callingThreadBytes == 0,
        "\(I.name) on \(shape): a rebuild of as many boxes allocated \(used.callingThreadBytes) bytes")
    }
  }

  @Test(arguments: shapes) func windowGrid(_ shape: String) { check(WindowGridIndex.self, shape) }

  @Test(arguments: shapes) func linearBVH(_ shape: String) { check(LinearBVHIndex.self, shape) }

  /// The heavy-tailed set needs more cell entries than the grid's budget: the largest boxes go
  /// to the overflow list and the entries stay within it.
  @Test func windowGridKeepsItsEntryBudget() {
    let (start, end) = Self.boxes("heavy-tailed", seed: 7)
    let window = zip(start, end).map { $0.union($1) }
    var index = WindowGridIndex()
    index.reserve(window.count)
    window.map { LinearBox(start: $0, end: $0) }.withUnsafeBufferPointer { index.rebuild($0) }
    let storage = index.storage
    #expect(storage.entries.count <= window.count * _GridStorage.entriesPerBox)
    #expect(storage.overflow.count > 0 && storage.overflow.count < window.count / 5)
  }

  /// A visit stopped after k offers (a search that found what nothing after can beat) offers
  /// the first k entries of the whole visit and looks at no entry beyond the k-th: over every
  /// shape (the heavy-tailed one merges the overflow list in), for both indexes.
  @Test(arguments: shapes) func aStoppedVisitOffersThePrefixAndLooksNoFurther(_ shape: String) {
    stoppedVisits(WindowGridIndex.self, shape)
    stoppedVisits(LinearBVHIndex.self, shape)
  }

  func stoppedVisits<I: MotionIndex>(_ type: I.Type, _ shape: String) {
    let (start, end) = Self.boxes(shape, seed: 7)
    let (window, last) = (start, end)
    var index = I()
    index.reserve(window.count)
    zip(window, last).map { LinearBox(start: $0, end: $1) }.withUnsafeBufferPointer { index.rebuild($0) }
    var rng = SplitMix64(seed: 5)
    var differing = 0
    var overrun = 0
    var offeredInAll = 0
    for _ in 0..<2000 {
      let p = Point(rng.uniform(-50, 1100), rng.uniform(-50, 900))
      let s = rng.uniform(0, 1)
      var whole = ListingVisitor()
      let lookedWhole = index.visit(p, at: s, &whole)
      let n = whole.listed.count
      offeredInAll += n
      guard n > 1 else { continue }
      let k = 1 + Int(rng.next() % UInt64(n - 1))
      var stopped = ListingVisitor(limit: k)
      let looked = index.visit(p, at: s, &stopped)
      if stopped.listed != Array(whole.listed[0..<k]) { differing += 1 }
      if looked > lookedWhole || (I.isOrdered && k < n && looked == lookedWhole) { overrun += 1 }
    }
    #expect(offeredInAll > 0)
    #expect(differing == 0, "\(I.name) on \(shape): \(differing) stopped visits offer other entries than the whole")
    #expect(overrun == 0, "\(I.name) on \(shape): \(overrun) stopped visits looked at too much")
  }
}

/// Lists the entries a visit offers, stopping after `limit` of them.
extension MotionIndexTests {
  /// Where boxes pile up, linear-bvh's tree splits its top by entry, and a query that has found
  /// a box skips the bands below it (entry e taken as rank e, as a static order ranks groups):
  /// it finds the highest entry holding the point, as a visit of every entry does, in a
  /// fraction of the offers. Where they do not pile up, one band.
  @Test func aPiledTreeSkipsTheBandsBelowWhatItFound() {
    let (start, end) = Self.boxes("piled", seed: 3)
    let linear = zip(start, end).map { LinearBox(start: $0, end: $1) }
    var index = LinearBVHIndex()
    index.reserve(linear.count)
    linear.withUnsafeBufferPointer { index.rebuild($0) }
    let bands = (0..<index.tree.nodes).count { index.tree.node[$0].count < 0 }
    #expect(bands >= 3, "\(bands) band nodes")
    var rng = SplitMix64(seed: 9)
    var wrong = 0
    var (offersSkipping, offersAll) = (0, 0)
    for _ in 0..<2000 {
      let p = Point(rng.uniform(-50, 1100), rng.uniform(-50, 900))
      let s = rng.uniform(0, 1)
      let highest = linear.indices.last { linear[$0].holds(p, at: s) }.map { Int32($0) } ?? -1
      var best = HighestVisitor(boxes: linear, point: p, fraction: s)
      offersSkipping += index.visit(p, at: s, &best)
      var all = ListingVisitor()
      offersAll += index.visit(p, at: s, &all)
      if best.best != highest { wrong += 1 }
    }
    #expect(wrong == 0, "\(wrong) queries found another entry than the highest holding the point")
    #expect(offersSkipping * 3 < offersAll, "\(offersSkipping) offers skipping bands, \(offersAll) without")
    let (few, fewEnd) = Self.boxes("small", seed: 3)
    var sparse = LinearBVHIndex()
    sparse.reserve(few.count)
    zip(few, fewEnd).map { LinearBox(start: $0, end: $1) }.withUnsafeBufferPointer { sparse.rebuild($0) }
    #expect((0..<sparse.tree.nodes).allSatisfy { sparse.tree.node[$0].count >= 0 }, "a band where boxes do not pile")
  }
}

/// A query's search in miniature: the highest entry whose box holds the point (entry e ranks e).
struct HighestVisitor: MotionIndexVisitor {
  let boxes: [LinearBox]
  let point: Point
  let fraction: Double
  var best: Int32 = -1

  mutating func offer(_ e: Int32) -> Bool {
    if e > best && boxes[Int(e)].holds(point, at: fraction) { best = e }
    return true
  }

  func skips(upTo e: Int32) -> Bool { e <= best }
}

struct ListingVisitor: MotionIndexVisitor {
  var listed: [Int32] = []
  var limit = Int.max

  mutating func offer(_ e: Int32) -> Bool {
    listed.append(e)
    return listed.count < limit
  }
}
