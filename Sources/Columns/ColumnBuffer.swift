/// Memory for `capacity` elements of a trivial type, owned by exactly one value (it cannot be
/// copied, so it cannot be freed twice) and freed with it. Grown, never shrunk, at least twofold
/// (a size that creeps up from frame to frame allocates a logarithmic number of times), so the
/// steady state of whatever owns it allocates nothing. Elements are read and written by index
/// (bounds-checked with `HITBENCH_INTERNAL_CHECKS`, as the test suite builds) or, in a hot
/// loop, through a pointer valid only inside `withUnsafeMutableBufferPointer`. No reference
/// counting, no exclusivity checks, no copy-on-write.
public struct ColumnBuffer<Element: BitwiseCopyable>: ~Copyable {
  @usableFromInline var _base: UnsafeMutablePointer<Element>
  @usableFromInline var _capacity: Int
  @usableFromInline var _count: Int

  // Every method is inlinable, so that it is specialised where it is called: a generic body
  // called across modules looks up type metadata at each call (about 400 instructions a
  // `reserve` of an Int32 column) and fills element by element through the value witness.

  /// Elements the storage holds.
  @inlinable public var capacity: Int { _capacity }
  /// Elements in use: indices below it are valid (set by `reserve`).
  @inlinable public var count: Int { _count }

  /// An empty buffer (no allocation of any size that matters).
  @inlinable public init() {
    _base = .allocate(capacity: 1)
    _capacity = 0
    _count = 0
  }

  /// `count` copies of `value`.
  @inlinable public init(repeating value: Element, count: Int) {
    self.init()
    reserve(count, filling: value)
  }

  @inlinable deinit { _base.deallocate() }

  /// Makes `n` elements usable, keeping the first `min(n, count)` when it does not grow and
  /// none when it does; with `filling`, every one of the `n` is set to it.
  @inlinable public mutating func reserve(_ n: Int, filling value: Element? = nil) {
    precondition(n >= 0, "a negative size")
    if n > _capacity {
      _base.deallocate()
      _capacity = Swift.max(n, _capacity * 2, 16)
      _base = .allocate(capacity: _capacity)
    }
    _count = n
    if let value { _base.initialize(repeating: value, count: n) }
  }

  /// Frees the storage: the buffer is empty, as new (the next `reserve` allocates).
  @inlinable public mutating func release() {
    _base.deallocate()
    _base = .allocate(capacity: 1)
    _capacity = 0
    _count = 0
  }

  /// Makes `n` elements usable, keeping every existing one (grows by copying).
  @inlinable public mutating func resize(_ n: Int, filling value: Element) {
    precondition(n >= 0, "a negative size")
    if n > _capacity {
      let grown = Swift.max(n, _capacity * 2, 16)
      let bigger = UnsafeMutablePointer<Element>.allocate(capacity: grown)
      bigger.initialize(from: _base, count: _count)
      _base.deallocate()
      _base = bigger
      _capacity = grown
    }
    if n > _count { (_base + _count).initialize(repeating: value, count: n - _count) }
    _count = n
  }

  /// Element i (checked against `count` with `HITBENCH_INTERNAL_CHECKS`). Writes go through the
  /// storage, so an owner need not be mutable to write (no exclusivity check per element).
  @inlinable @inline(__always) public subscript(i: Int) -> Element {
    get {
      _checkIndex(i)
      return _base[i]
    }
    nonmutating set {
      _checkIndex(i)
      _base[i] = newValue
    }
  }

  @inlinable @inline(__always) func _checkIndex(_ i: Int) {
    #if HITBENCH_INTERNAL_CHECKS
      precondition(i >= 0 && i < count, "index \(i) outside 0..<\(count)")
    #endif
  }

  /// The elements in use, for a hot loop: the pointer is valid only inside `body` (any
  /// `reserve` or `resize` may move the storage).
  @inlinable @inline(__always)
  public func withUnsafeMutableBufferPointer<R, E: Error>(_ body: (UnsafeMutableBufferPointer<Element>) throws(E) -> R)
    throws(E) -> R
  {
    try body(UnsafeMutableBufferPointer(start: _base, count: count))
  }

  /// The same, read-only.
  @inlinable @inline(__always)
  public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R
  {
    try body(UnsafeBufferPointer(start: _base, count: count))
  }

  /// Bytes held.
  @inlinable public var memoryFootprint: Int { capacity * MemoryLayout<Element>.stride }

  /// The storage, for a view that a scoped method of this package builds over several columns
  /// at once (`MotionGroups.withView`): valid while the owner neither reserves nor goes away,
  /// which the scope guarantees. Not for anything that outlives the scope.
  @inlinable package var _unsafeStorage: UnsafeMutablePointer<Element> { _base }

  /// The storage with its count, under the same terms as `_unsafeStorage`.
  @inlinable package var _unsafeBuffer: UnsafeBufferPointer<Element> {
    UnsafeBufferPointer(start: _base, count: _count)
  }
}
