/// Counts work per query (boxes or nodes tested). `NoCounter` compiles to nothing.
public protocol WorkCounter {
  mutating func tested(_ n: Int)
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
