/// A seeded 64-bit generator (SplitMix64, Steele, Lea and Flood 2014): one add, two
/// multiply-xorshifts per number; deterministic on every platform. Used by every generator and
/// workload instead of the system generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  @inlinable public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A Double uniform in [0, 1).
  @inlinable public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A Double uniform in [a, b).
  @inlinable public mutating func uniform(_ a: Double, _ b: Double) -> Double {
    a + (b - a) * unit()
  }

  /// An Int uniform in 0..<n (n > 0), by Lemire's multiply-shift (bias below 2^-32 for small n).
  @inlinable public mutating func below(_ n: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(n).multipliedFullWidth(by: next())).high)
  }

  /// True with probability p.
  @inlinable public mutating func chance(_ p: Double) -> Bool { unit() < p }
}
