import LayerModel
import Presentation

/// The flattened tree with subtree skipping (a compositor's hit-test region list): each row
/// carries the bounding box of every hittable world box in its subtree; a query descends from
/// the root, top-most sublayers first, skipping any subtree whose box misses the point, and
/// runs the exact test on rows whose own box holds it. The first exact hit is the answer.
///
/// Update: O(n) (one reverse pass unions boxes into parents). Query: O(subtrees under the
/// point); memory 24 bytes per row.
public struct FlatTree: FrameStrategy {
  public static let name = "flat-tree"
  public static let summary =
    "preorder array with subtree boxes, skipping subtrees off the point: O(n) update, fast on clustered scenes"

  @usableFromInline struct _Visit: BitwiseCopyable {
    @usableFromInline var row: Int32
    @usableFromInline var next: Int32

    @inlinable init(row: Int32, next: Int32) {
      self.row = row
      self.next = next
    }
  }

  @usableFromInline var binding = FrameBinding()
  @usableFromInline var subtreeBox: [SIMD4<Float>] = []
  @usableFromInline var links = _ChildLinks()
  @usableFromInline let stack = QueryScratch<_Visit>()

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    binding.bind(frame)
    let n = frame.count
    if subtreeBox.count != n { subtreeBox = [SIMD4<Float>](repeating: .zero, count: n) }
    links.link(frame)
    let empty = SIMD4<Float>(.infinity, .infinity, -.infinity, -.infinity)
    subtreeBox.withUnsafeMutableBufferPointer { boxes in
      for r in 0..<n {
        boxes[r] =
          frame.flags[r].contains(.hittable)
          ? SIMD4(
            _floatDown(frame.worldBox[r].minX), _floatDown(frame.worldBox[r].minY), _floatUp(frame.worldBox[r].maxX),
            _floatUp(frame.worldBox[r].maxY)) : empty
      }
      var r = n - 1
      while r > 0 {
        let p = Int(frame.parent[r])
        let a = boxes[p]
        let b = boxes[r]
        boxes[p] = SIMD4(
          Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.max(a.z, b.z), Swift.max(a.w, b.w))
        r -= 1
      }
    }
    stack.reserve(n + 1)
    _checkInvariants()
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { subtreeBox.capacity * 16 + links.memoryFootprint + stack.capacity * 8 }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _checkCurrent(binding)
    let f = binding.frame
    guard f.count > 0 else { return nil }
    let px = Float(p.x)
    let py = Float(p.y)
    return stack.withUnsafeMutablePointer { s in
      subtreeBox.withUnsafeBufferPointer { boxes -> LayerID? in
        @inline(__always) func holds(_ r: Int) -> Bool {
          let b = boxes[r]
          return px >= b.x && py >= b.y && px <= b.z && py <= b.w
        }
        counter.tested(1)
        guard holds(0) else { return nil }
        var sp = 1
        s[0] = _Visit(row: 0, next: links.lastChild[0])
        while sp > 0 {
          let top = s[sp &- 1]
          if top.next >= 0 {
            let c = Int(top.next)
            s[sp &- 1].next = links.prevSibling[c]
            counter.tested(1)
            if holds(c) {
              s[sp] = _Visit(row: Int32(c), next: links.lastChild[c])
              sp &+= 1
            }
            continue
          }
          sp &-= 1
          let r = Int(top.row)
          if p.x >= f.worldBox[r].minX && p.x <= f.worldBox[r].maxX && p.y >= f.worldBox[r].minY
            && p.y <= f.worldBox[r].maxY
            && f.isCandidate(r, p, counting: &counter)
          {
            return f.layer[r]
          }
        }
        return nil
      }
    }
  }
}
