/// A BVH rebuilt every frame as a linear BVH over Morton-ordered centroids (`LinearBuilder`):
/// a cheap rebuild, looser trees.
///
/// Update: the builder's cost over the hittable rows. Query: O(log n) nodes on spread-out
/// scenes, pruned by priority. Memory: 32 bytes per node plus 20 per prim.
public struct MortonBVH: BVHStrategy {
  public var _bvh = BVH<LinearBuilder>()

  public init() {}
}
