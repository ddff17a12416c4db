import LayerModel
import Presentation

/// A BVH built once (binned SAH) over every row, then refitted each frame: leaf boxes from the
/// rows' new world boxes, interior boxes and priorities bottom-up. It is rebuilt when the row
/// order or topology changed (`orderGeneration`), or when refitting has let the tree's SAH cost
/// grow past `rebuildRatio` times its cost when built (moving layers make boxes overlap).
///
/// Update: O(n) refit (a rebuild now and then). Query: as the SAH BVH while the tree is good.
/// `Builder` is the rebuild's; `update` is this type's own.
public struct RefitBVH: BVHStrategy {
  public static let name = "bvh-refit"
  public static let summary =
    "SAH BVH built once and refitted per frame, rebuilt when SAH cost grows 1.5x: cheap updates under motion"

  /// Rebuild when the refitted tree's SAH cost exceeds this multiple of its cost at build time.
  public static let rebuildRatio: Float = 1.5

  /// The tree (built by binned SAH) and its frame; queries, inspection and the footprint are
  /// `BVHStrategy`'s.
  public var _bvh = BVH<SAHBuilder>()
  var builtGeneration = -1
  var builtCount = -1
  var builtCost: Float = 0
  /// Rebuilds so far (for reports and tests).
  public private(set) var rebuilds = 0

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    let sameFrameObject = _bvh.binding.frame === frame
    _bvh.binding.bind(frame)
    defer { _bvh.tree._checkInvariants(frame) }
    if !sameFrameObject || frame.orderGeneration != builtGeneration || frame.count != builtCount {
      _rebuild(frame)
      return
    }
    _refit(frame)
    if _bvh.tree.sahCost() > Self.rebuildRatio * builtCost { _rebuild(frame) }
  }

  mutating func _rebuild(_ frame: PresentationFrame) {
    _bvh.tree.load(frame, hittableOnly: false)
    _bvh.builder.build(&_bvh.tree)
    _bvh.tree.finish(frame)
    builtGeneration = frame.orderGeneration
    builtCount = frame.count
    builtCost = _bvh.tree.sahCost()
    rebuilds += 1
  }

  /// New prim boxes from the frame, then node boxes and priorities bottom-up. O(n).
  mutating func _refit(_ frame: PresentationFrame) {
    let rows = _bvh.tree.primRow
    _bvh.tree.primBox.withUnsafeMutableBufferPointer { boxes in
      for k in 0..<rows.count {
        let r = Int(rows[k])
        boxes[k] = frame.flags[r].contains(.hittable) ? _worldBox(frame, r) : _emptyBox
      }
    }
    _bvh.tree._fitBoxes()
    _bvh.tree.finish(frame)
  }
}
