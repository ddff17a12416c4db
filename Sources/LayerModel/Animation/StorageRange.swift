/// Where one record's elements sit in an array the whole program shares: the first index and
/// how many, 8 bytes. `StorageRange.none` (start -1) marks an absent list, such as the
/// per-segment timing functions of a record without them.
package struct StorageRange: Sendable, Hashable, BitwiseCopyable {
  package var start: Int32
  package var count: Int32

  package init(start: Int32 = 0, count: Int32 = 0) { (self.start, self.count) = (start, count) }

  package static let none = StorageRange(start: -1, count: 0)

  package var isPresent: Bool { start >= 0 }
  package var indices: Range<Int> { Int(start)..<Int(start) + Int(count) }
}

extension UnsafeMutableBufferPointer {
  /// The elements of `r` (bounds-checked as slicing is).
  package subscript(range r: StorageRange) -> UnsafeBufferPointer<Element> {
    UnsafeBufferPointer(rebasing: self[r.indices])
  }
}
