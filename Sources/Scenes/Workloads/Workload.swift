import LayerModel
import Presentation

#if canImport(Glibc)
  import Glibc
#endif

/// Which points are asked each frame (docs/scenes.md).
public enum Workload: String, CaseIterable, Sendable {
  /// Uniform over the root's bounds with a 10% margin: the unbiased average.
  case uniform
  /// A few fingers (up to five) dragging coherently at the frame rate, each frame's queries
  /// split among them with a little jitter (coalesced touches, gesture recognisers).
  case touch
  /// Clustered around one pointer moving smoothly (hover, cursor tracking).
  case hover
  /// Nine in ten points on three busy regions, the rest uniform (buttons people tap).
  case hotspot
  /// Points that hit nothing but the root: the worst case for early exits.
  case miss

  public var summary: String {
    switch self {
    case .uniform: "uniform over the root bounds with a 10% margin"
    case .touch: "up to 5 fingers dragging coherently, queries split among them"
    case .hover: "clustered around a smoothly moving pointer"
    case .hotspot: "90% of points on 3 busy regions, 10% uniform"
    case .miss: "points that hit nothing but the root"
    }
  }
}

/// Makes each frame's points, deterministic from the seed and the frame index (so every
/// strategy sees the same points). Runs outside timed regions; `fill` writes into a caller's
/// buffer and allocates nothing.
public struct WorkloadGenerator {
  public let workload: Workload
  public let area: Rect
  public let seed: UInt64

  /// `area`: the root layer's frame in world space (points are drawn around it).
  public init(_ workload: Workload, area: Rect, seed: UInt64) {
    self.workload = workload
    self.area = area.standardized
    self.seed = seed
  }

  /// Writes frame `frame`'s points (at clock time `time`) into `out`. For `miss`, `hitsOnlyRoot`
  /// says whether a point hits nothing but the root; points failing it are redrawn (up to 64
  /// times, then a point outside the root is used, which hits nothing).
  public func fill(
    _ out: UnsafeMutableBufferPointer<Point>, frame: Int, time: Double, hitsOnlyRoot: (Point) -> Bool = { _ in true }
  ) {
    var rng = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: frame) &* 0x9E37_79B9_7F4A_7C15))
    let x0 = area.minX - area.width * 0.1
    let y0 = area.minY - area.height * 0.1
    let w = area.width * 1.2
    let h = area.height * 1.2
    @inline(__always) func uniform(_ rng: inout SplitMix64) -> Point {
      Point(x0 + w * rng.unit(), y0 + h * rng.unit())
    }
    switch workload {
    case .uniform:
      for i in 0..<out.count { out[i] = uniform(&rng) }
    case .touch:
      let fingers = Swift.max(1, Swift.min(out.count, 5))
      for i in 0..<out.count {
        let f = i % fingers
        // Each finger follows its own Lissajous path over the area (a drag at the frame rate).
        var fr = SplitMix64(seed: seed &+ UInt64(f) &* 7919)
        let ax = fr.uniform(0.2, 0.45)
        let ay = fr.uniform(0.2, 0.45)
        let wx = fr.uniform(0.3, 1.2)
        let wy = fr.uniform(0.3, 1.2)
        let phase = fr.uniform(0, 6.28)
        let cx = area.midX + area.width * ax * sin(wx * time + phase)
        let cy = area.midY + area.height * ay * cos(wy * time + phase)
        out[i] = Point(cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2))
      }
    case .hover:
      let cx = area.midX + area.width * 0.4 * sin(0.7 * time)
      let cy = area.midY + area.height * 0.4 * sin(1.1 * time + 1)
      for i in 0..<out.count {
        // A Gaussian cluster (Box-Muller), sigma 20 points.
        let u = Swift.max(rng.unit(), 1e-12)
        let r = 20 * (-2 * log(u)).squareRoot()
        let a = 2 * Double.pi * rng.unit()
        out[i] = Point(cx + r * cos(a), cy + r * sin(a))
      }
    case .hotspot:
      var hs = SplitMix64(seed: seed ^ 0x407)
      let spots = (0..<3).map { _ in Point(area.minX + area.width * hs.unit(), area.minY + area.height * hs.unit()) }
      for i in 0..<out.count {
        if rng.chance(0.9) {
          let s = spots[rng.below(3)]
          out[i] = Point(s.x + rng.uniform(-30, 30), s.y + rng.uniform(-30, 30))
        } else {
          out[i] = uniform(&rng)
        }
      }
    case .miss:
      for i in 0..<out.count {
        var p = uniform(&rng)
        var tries = 0
        while !hitsOnlyRoot(p) && tries < 64 {
          p = uniform(&rng)
          tries += 1
        }
        if tries == 64 { p = Point(area.maxX + area.width + rng.unit(), area.maxY + area.height + rng.unit()) }
        out[i] = p
      }
    }
  }
}
