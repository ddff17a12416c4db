import LayerModel
import Presentation

/// A BVH rebuilt every frame as a linear BVH over Morton-ordered centroids (`LinearBuilder`):
/// a cheap rebuild, looser trees.
///
/// Update: the builder's cost over the hittable rows. Query: O(log n) nodes on spread-out
/// scenes, pruned by priority. Memory: 32 bytes per node plus 20 per prim.
public struct MortonBVH: FrameStrategy {
  public static var name: String { LinearBuilder.name }
  public static var summary: String { LinearBuilder.summary }

  @usableFromInline var _bvh = BVH<LinearBuilder>()

  public init() {}

  public mutating func update(with frame: PresentationFrame) { _bvh.update(with: frame) }

  @inlinable public var isCurrent: Bool { _bvh.isCurrent }

  public var memoryFootprint: Int { _bvh.memoryFootprint }

  /// The tree of the last update (for inspection).
  public var tree: BVHTree { _bvh.tree }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _bvh.hitTest(p, counter: &counter)
  }
}
