import LayerModel
import Presentation

/// The reference: what Core Animation does. A depth-first descent of the presentation tree from
/// the root, converting the point one level at a time through each layer's inverse map,
/// skipping hidden (or, under UIView, non-interactive) subtrees, refusing to descend past a
/// clipping layer that does not contain the point, asking sublayers top-most first and
/// answering the first hit. An explicit stack, so a 100,000-deep chain is safe.
///
/// Update: O(n) (child links). Query: O(layers visited), one homography per visit; no index.
public struct TreeWalk: FrameStrategy {
  public static let name = "tree-walk"
  public static let summary =
    "the reference: Core Animation's recursive descent, one level at a time; no update cost, O(layers) per query"
  public static let columns: FrameColumns = .structure

  @usableFromInline struct _Visit: BitwiseCopyable {
    @usableFromInline var row: Int32
    @usableFromInline var next: Int32
    @usableFromInline var q: Point

    @inlinable init(row: Int32, next: Int32, q: Point) {
      self.row = row
      self.next = next
      self.q = q
    }
  }

  @usableFromInline var binding = FrameBinding()
  @usableFromInline var links = _ChildLinks()
  @usableFromInline let stack = QueryScratch<_Visit>()

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    binding.bind(frame)
    links.link(frame)
    stack.reserve(frame.count + 1)
    _checkInvariants()
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { links.memoryFootprint + stack.capacity * MemoryLayout<_Visit>.stride }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _checkCurrent(binding)
    let f = binding.frame
    guard f.count > 0 else { return nil }
    let skip = PresentationFrame.Flags.closesSubtree.rawValue
    return stack.withUnsafeMutablePointer { s in
      // Enters row r with the point in its parent's space; false when the subtree is out.
      @inline(__always) func enter(_ r: Int, _ pp: Point, _ sp: inout Int) {
        counter.tested(1)
        let flags = f.flags[r]
        guard flags.rawValue & skip == 0, let q = f._fromParent(r, pp) else { return }
        if flags.contains(.clips) && !f._contains(r, q) { return }
        s[sp] = _Visit(row: Int32(r), next: links.lastChild[r], q: q)
        sp &+= 1
      }
      var sp = 0
      enter(0, p, &sp)
      while sp > 0 {
        let top = s[sp &- 1]
        if top.next >= 0 {
          let c = Int(top.next)
          s[sp &- 1].next = links.prevSibling[c]
          enter(c, top.q, &sp)
          continue
        }
        let r = Int(top.row)
        let q = top.q
        if f._contains(r, q) { return f.layer[r] }
        sp &-= 1
      }
      return nil
    }
  }
}
