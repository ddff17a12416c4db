import LayerModel

/// Rows `start ..< end` of a frame.
public struct RowRun: Sendable, Hashable, BitwiseCopyable {
  public var start: Int32
  public var end: Int32

  @inlinable public init(start: Int32, end: Int32) { (self.start, self.end) = (start, end) }

  @inlinable public var rows: Range<Int> { Int(start)..<Int(end) }
}

extension PresentationFrame {
  /// The rows the last build recomputed, as ascending, disjoint runs, when it recomputed only
  /// some (`recomputedEveryRow` false): every row outside them holds exactly what it held after
  /// the build before (generation - 1), so an index updated with that build can move just
  /// these rows. Empty when the build recomputed every row (a first build, a new order or
  /// structure, a changed root, more runs than the builder records) or none.
  @_lifetime(borrow self)
  public func changedRuns() -> Span<RowRun> {
    _overrideLifetime(
      Span(_unsafeElements: UnsafeBufferPointer(start: _changedRuns._unsafeStorage, count: _changedRunCount)),
      borrowing: self)
  }

  /// The rows in `changedRuns()`.
  public var changedRowCount: Int {
    var n = 0
    for i in 0..<_changedRunCount { n += _changedRuns[i].rows.count }
    return n
  }
}
