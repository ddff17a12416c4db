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

  /// Each edge is the nearest float on its outward side: at most (min) or at least (max) the
  /// double, and its float neighbour beyond it is not (`nextDown` / `nextUp` the reference):
  /// zeros of either sign, doubles between floats near zero and beyond the largest float, and
  /// doubles of random bit patterns.
  @Test func edgesAreTheNearestFloatsOutward() {
    var values: [Double] = [
      0, -0.0, 1, -1, 0x1p-149, -0x1p-149, 0x1p-150, -0x1p-150, 0x1p-160, -0x1p-160, 0x1p-126, -0x1p-126,
      Double(Float.greatestFiniteMagnitude), -Double(Float.greatestFiniteMagnitude), 1e39, -1e39, 1e30, -1e30,
      .infinity, -.infinity, 1 + 0x1p-30, -1 - 0x1p-30, 0.1, -0.1,
    ]
    var rng = SplitMix64(seed: 47)
    for _ in 0..<20_000 {
      let x = Double(bitPattern: rng.next())
      if !x.isNaN { values.append(x) }
      values.append(rng.uniform(-1, 1) * Double(rng.below(1 << 20)))
    }
    for x in values {
      let down = OutwardBox._down(x)
      let up = OutwardBox._up(x)
      let f = Float(x)
      #expect(down == (Double(f) > x ? f.nextDown : f), "down of \(x): \(down)")
      #expect(up == (Double(f) < x ? f.nextUp : f), "up of \(x): \(up)")
      #expect(Double(down) <= x && x <= Double(up), "\(x) outside \(down)...\(up)")
    }
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
