import LayerModel
import Presentation

/// A BVH strategy: a concrete type per builder over the shared `BVH<Builder>` body, so the
/// protocol's query loop is specialised for each (a generic strategy type would share one
/// conformance, and with it the unspecialised loop). A conforming type declares only its
/// `_bvh` and `init()`; everything else comes from here.
public protocol BVHStrategy: FrameStrategy, IndexInspection {
  associatedtype Builder: BVHBuilder
  /// The tree and the frame it was built from (internal state; public only as the
  /// requirement that gives the defaults below their storage).
  var _bvh: BVH<Builder> { get set }
}

extension BVHStrategy {
  public static var name: String { Builder.name }
  public static var summary: String { Builder.summary }

  public mutating func update(with frame: PresentationFrame) { _bvh.update(with: frame) }

  @inlinable public var isCurrent: Bool { _bvh.isCurrent }

  public var memoryFootprint: Int { _bvh.memoryFootprint }

  /// The tree of the last update (for inspection).
  public var tree: BVHTree { _bvh.tree }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _bvh.hitTest(p, counter: &counter)
  }

  public func inspectedBoxes() -> [InspectedBox] { _bvh.tree.inspectedNodes() }
}
