/// A column owned by the frame builder: a manually allocated buffer of a trivial type, grown
/// (never shrunk) to the scene's size and freed by its owner. No reference counting, no
/// exclusivity checks, no copy-on-write in the passes that read and write it.
package struct ColumnBuffer<Element> {
  package private(set) var base: UnsafeMutablePointer<Element>
  package private(set) var capacity: Int

  package init() {
    base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    capacity = 0
  }

  /// Makes room for n elements, filling new storage with `value` (contents are not kept).
  package mutating func reserve(_ n: Int, filling value: Element) {
    if n > capacity {
      base.deallocate()
      capacity = n
      base = UnsafeMutablePointer<Element>.allocate(capacity: n)
    }
    base.initialize(repeating: value, count: n)
  }

  package func free() { base.deallocate() }

  @inline(__always) package subscript(i: Int) -> Element {
    get { base[i] }
    nonmutating set { base[i] = newValue }
  }
}
