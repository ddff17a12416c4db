import LayerModel
import Presentation

/// Counts work per query (boxes or nodes tested) and, for inspection, sees each exact test.
/// `NoCounter` compiles to nothing.
public protocol WorkCounter {
  mutating func tested(_ n: Int)
  /// A layer about to get the exact test (a candidate). Nothing by default.
  mutating func evaluated(_ layer: LayerID)
}

extension WorkCounter {
  @inlinable @inline(__always) public mutating func evaluated(_ layer: LayerID) {}
}

/// A counter that counts nothing: specialised away.
public struct NoCounter: WorkCounter {
  @inlinable public init() {}
  @inlinable @inline(__always) public mutating func tested(_ n: Int) {}
}

/// A counter that adds up the work.
public struct TallyCounter: WorkCounter {
  public var count = 0
  @inlinable public init() {}
  @inlinable @inline(__always) public mutating func tested(_ n: Int) { count &+= n }
}

/// A counter that lists the layers given the exact test, in the order tested (for
/// `hitbench render`; it allocates, so it is never used in a measured loop).
public struct CandidateRecorder: WorkCounter {
  public var layers: [LayerID] = []
  public init() {}
  public mutating func tested(_ n: Int) {}
  public mutating func evaluated(_ layer: LayerID) { layers.append(layer) }
}

extension PresentationFrame {
  /// `isCandidate(r, p)`, shown to `counter` first: every strategy's exact test goes through
  /// here, so an inspection sees the candidates the strategy really tested.
  @inlinable @inline(__always)
  public func isCandidate<Counter: WorkCounter>(_ r: Int, _ p: Point, counting counter: inout Counter) -> Bool {
    counter.evaluated(layer[r])
    return isCandidate(r, p)
  }
}
