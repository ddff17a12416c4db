/// A BVH rebuilt every frame by a binned SAH build (`SAHBuilder`): the best trees, the
/// costliest rebuild.
///
/// Update: the builder's cost over the hittable rows. Query: O(log n) nodes on spread-out
/// scenes, pruned by priority. Memory: 32 bytes per node plus 20 per prim.
public struct BinnedSAHBVH: BVHStrategy {
  public var _bvh = BVH<SAHBuilder>()

  public init() {}
}
