import LayerModel
import Presentation
import Testing

@testable import HitTesting

/// The index work of a query alone (`_HeldCount`, which `costOfCandidates` times and counts to
/// take the index's share out of a cost per candidate) walks the index as the query did: to its
/// end where the query went on, and no further than its offers where it stopped.
@Suite struct HeldCountTests {
  /// Entries 0 and 2 hold the point (0.5, 0.5); 1 does not; one outside group holds it.
  static let bounds = [
    LinearBox(start: Box(minX: 0, minY: 0, maxX: 1, maxY: 1), end: Box(minX: 0, minY: 0, maxX: 1, maxY: 1)),
    LinearBox(start: Box(minX: 2, minY: 2, maxX: 3, maxY: 3), end: Box(minX: 2, minY: 2, maxX: 3, maxY: 3)),
    LinearBox(start: Box(minX: 0, minY: 0, maxX: 2, maxY: 2), end: Box(minX: 0, minY: 0, maxX: 2, maxY: 2)),
  ]
  static let point = Point(0.5, 0.5)

  /// Offers entries 0, 1, 2 as an index would until the visit says stop: the offers made and
  /// the entries counted as holding the point.
  static func visit(_ query: _QueryOffers, ranked: Bool = false) -> (offers: Int, held: Int) {
    // Groups 1, 2, 3 of ranks 10, 20, 30: the largest rank up to each.
    var keys: [WindowEntry] = []
    for rank: Int32 in [10, 20, 30] {
      keys.append(
        WindowEntry(
          group: rank / 10, prefixMaxRank: rank, root: rank / 10, maxRank: rank, leanRoot: false,
          exactWithin: .infinity))
    }
    return bounds.withUnsafeBufferPointer { b in
      keys.withUnsafeBufferPointer { k in
        var count = _HeldCount(
          bound: b.baseAddress!, entries: k.baseAddress!, ranked: ranked,
          outsideBound: UnsafeBufferPointer(rebasing: b[0..<1]), fraction: 0, _OneWindow(fraction: 0), point, query)
        var offers = 0
        for e in 0..<Int32(b.count) where !count.skips(upTo: e) {
          offers += 1
          if !count.offer(e) { break }
        }
        return (offers, count.held)
      }
    }
  }

  /// A query that went on to the index's end (an unordered index's, or one offered nothing
  /// whose scan still ran): every entry, whatever it was offered. Counting only its offers
  /// stopped at the first entry, or never scanned at all.
  @Test func aQueryThatWentOnIsWalkedToTheEnd() {
    for offers in [0, 1, 3] {
      let r = Self.visit(_QueryOffers(offers: offers, stopped: false))
      #expect(r.offers == 3 && r.held == 3, "\(offers) offers: \(r)")
    }
  }

  /// A query that stopped at its second offer: the walk ends there too.
  @Test func aQueryThatStoppedIsWalkedAsFar() {
    let r = Self.visit(_QueryOffers(offers: 2, stopped: true))
    #expect(r.offers == 2 && r.held == 2, "\(r)")
  }

  /// With the scene's static order, the walk skips what the query's answer rules out (a
  /// banded BVH's query skips a band when nothing up to it can beat its best so far): here the
  /// entries whose groups rank at most 20, the answer's; nothing without an answer or an order.
  @Test func whatTheAnswerRulesOutIsSkipped() {
    #expect(Self.visit(_QueryOffers(offers: 3, stopped: false, bestRank: 20), ranked: true) == (1, 2))
    #expect(Self.visit(_QueryOffers(offers: 3, stopped: false, bestRank: -1), ranked: true) == (3, 3))
    #expect(Self.visit(_QueryOffers(offers: 3, stopped: false, bestRank: 20), ranked: false) == (3, 3))
  }
}
