import LayerModel
import Presentation

/// A BVH built once (binned SAH) over every row, then refitted each frame: leaf boxes from the
/// rows' new world boxes, interior boxes and priorities bottom-up. It is rebuilt when the row
/// order or topology changed (`orderGeneration`), or when refitting has let the tree's SAH cost
/// grow past `rebuildRatio` times its cost when built (moving layers make boxes overlap).
///
/// Update: O(n) refit (a rebuild now and then). Query: as the SAH BVH while the tree is good.
public struct RefitBVH: FrameStrategy {
  public static let name = "bvh-refit"
  public static let summary =
    "SAH BVH built once and refitted per frame, rebuilt when SAH cost grows 1.5x: cheap updates under motion"

  /// Rebuild when the refitted tree's SAH cost exceeds this multiple of its cost at build time.
  public static let rebuildRatio: Float = 1.5

  @usableFromInline var binding = FrameBinding()
  @usableFromInline var tree = BVHTree()
  var builder = SAHBuilder()
  var builtGeneration = -1
  var builtCount = -1
  var builtCost: Float = 0
  /// Rebuilds so far (for reports and tests).
  public private(set) var rebuilds = 0

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    let sameFrameObject = binding.frame === frame
    binding.bind(frame)
    defer { tree._checkInvariants(frame) }
    if !sameFrameObject || frame.orderGeneration != builtGeneration || frame.count != builtCount {
      _rebuild(frame)
      return
    }
    _refit(frame)
    if tree.sahCost() > Self.rebuildRatio * builtCost { _rebuild(frame) }
  }

  mutating func _rebuild(_ frame: PresentationFrame) {
    tree.load(frame, hittableOnly: false)
    builder.build(&tree)
    tree.finish(frame)
    builtGeneration = frame.orderGeneration
    builtCount = frame.count
    builtCost = tree.sahCost()
    rebuilds += 1
  }

  /// New prim boxes from the frame, then node boxes and priorities bottom-up. O(n).
  mutating func _refit(_ frame: PresentationFrame) {
    let rows = tree.primRow
    tree.primBox.withUnsafeMutableBufferPointer { boxes in
      for k in 0..<rows.count {
        let r = Int(rows[k])
        boxes[k] = frame.flags[r].contains(.hittable) ? _worldBox(frame, r) : _emptyBox
      }
    }
    let prims = tree.primBox
    tree.nodes.withUnsafeMutableBufferPointer { ns in
      var i = ns.count - 1
      while i >= 0 {
        let n = ns[i]
        if n.isLeaf {
          var box = _emptyBox
          var best: Int32 = -1
          for k in Int(n.first)..<Int(n.first + n.count) {
            box = _union(box, prims[k])
            if frame.flags[Int(rows[k])].contains(.hittable) { best = Swift.max(best, rows[k]) }
          }
          ns[i].box = box
          ns[i].maxPriority = best
        } else {
          ns[i].box = _union(ns[Int(n.first)].box, ns[Int(n.second)].box)
          ns[i].maxPriority = Swift.max(ns[Int(n.first)].maxPriority, ns[Int(n.second)].maxPriority)
        }
        i -= 1
      }
    }
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { tree.memoryFootprint }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _checkCurrent(binding)
    return tree.query(binding.frame, p, &counter)
  }
}
