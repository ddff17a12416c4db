import LayerModel
import Presentation
import Scenes
import Testing

@testable import HitTesting

/// The window grid's single-precision boxes: each holds every point its exact box holds (edges
/// and corners included, at magnitudes up to the indexes' limit), and the scan of a run of them
/// (`OutwardBox.firstHolding`, four boxes a branch in inline C) finds the same first box as
/// testing each in turn, from every start, in runs of every length (the scan's four-box
/// blocks and its tail).
@Suite struct OutwardBoxTests {
  @Test func aBoxIsSixteenBytesOfFourFloats() {
    #expect(MemoryLayout<OutwardBox>.stride == 16 && MemoryLayout<OutwardBox>.alignment == 4)
  }

  @Test(arguments: [1.0, 1e6, 1e29])
  func theScanFindsTheFirstBoxThatHolds(scale: Double) {
    var rng = SplitMix64(seed: UInt64(scale.exponent) &+ 7)
    for _ in 0..<200 {
      let n = rng.below(23)
      var exact: [Box] = []
      for _ in 0..<n {
        let x = rng.uniform(-1, 1) * scale
        let y = rng.uniform(-1, 1) * scale
        let w = rng.below(4) == 0 ? 0 : rng.uniform(0, 0.5) * scale
        let h = rng.below(4) == 0 ? 0 : rng.uniform(0, 0.5) * scale
        exact.append(rng.below(9) == 0 ? Box.nothing : Box(minX: x, minY: y, maxX: x + w, maxY: y + h))
      }
      let boxes = exact.map(OutwardBox.init)
      // Points inside, on edges and corners of the boxes, and anywhere.
      var points = (0..<8).map { _ in Point(rng.uniform(-1.5, 1.5) * scale, rng.uniform(-1.5, 1.5) * scale) }
      for b in exact where b.minX <= b.maxX {
        points.append(Point(b.minX, b.minY))
        points.append(Point(b.maxX, b.maxY))
        points.append(Point(rng.uniform(b.minX, b.maxX), b.maxY))
      }
      for p in points {
        for (b, o) in zip(exact, boxes) where b.minX <= p.x && p.x <= b.maxX && b.minY <= p.y && p.y <= b.maxY {
          #expect(o.holds(p), "\(o) does not hold \(p), which \(b) does")
        }
        boxes.withUnsafeBufferPointer { buffer in
          guard let base = buffer.baseAddress else { return }
          for from in 0...n {
            let expected = (from..<n).first { boxes[$0].holds(p) } ?? n
            let found = OutwardBox.firstHolding(p, in: base, from: from, to: n)
            #expect(found == expected, "from \(from) of \(n) at \(p): \(found), one by one \(expected)")
          }
        }
      }
    }
  }
}
