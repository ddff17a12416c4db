import LayerModel
import Presentation

/// Core Animation's own method, end to end: `presentationLayer.hitTest(p)`. The walk of
/// tree-walk (from the root, one level at a time, skipping hidden and non-interactive subtrees,
/// refusing to descend past a clipping layer that does not contain the point, sublayers
/// top-most first), over the compiled model: a visited layer's presentation at t (its
/// animations, level map, flags) is computed when the walk first reaches it in a frame and kept
/// for the frame's other queries (`LazyPresentation`). Nothing is built per frame.
///
/// Update: O(layers with their own timing). Query: O(layers visited), plus one layer's
/// evaluation for each layer no earlier query of the frame visited. The answer for one query a
/// frame, and the honest naive baseline end to end.
public struct LazyWalk: SceneStrategy {
  public static let name = "lazy-walk"
  public static let summary =
    "Core Animation's presentationLayer.hitTest: the reference walk over the model, evaluating each visited layer at t once per frame"
  public static let family = StrategyFamily.lazy

  @usableFromInline struct _Visit: BitwiseCopyable {
    @usableFromInline var layer: Int32
    /// The next sublayer to enter, as an index into the sorted sublayer list (-1: done).
    @usableFromInline var next: Int32
    @usableFromInline var q: Point
  }

  @usableFromInline var lazy: LazyPresentation?
  @usableFromInline let stack = QueryScratch<_Visit>()
  @usableFromInline var updated = false
  /// The scene's change version at the update: a scene that changed since (its columns may
  /// have been resized) must not be walked until the next update.
  @usableFromInline var version = -1

  public init() {}

  public mutating func attach(to scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    lazy = LazyPresentation(scene: scene, semantics: semantics, columns: .structure)
    stack.reserve(scene.count + 1)
  }

  public mutating func update(at time: Double, animated: Bool) {
    guard let lazy else { preconditionFailure("lazy-walk: update before attach") }
    lazy.prepare(at: time, animated: animated)
    stack.reserve(lazy.count + 1)
    updated = true
    version = lazy.scene.changeVersion
  }

  public var isCurrent: Bool { updated && lazy?.scene.changeVersion == version }

  public var memoryFootprint: Int { stack.capacity * MemoryLayout<_Visit>.stride }

  public var counters: StrategyCounters {
    var c = StrategyCounters()
    c.presentations = lazy?.evaluations ?? 0
    return c
  }

  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    guard let lp = lazy, lp.count > 0 else { return nil }
    let f = lp.frame
    let skip = PresentationFrame.Flags.closesSubtree.rawValue
    return stack.withUnsafeMutablePointer { s in
      // Enters layer m with the point in its parent's space (tree-walk's `enter`).
      @inline(__always) func enter(_ m: Int, _ pp: Point, _ sp: inout Int) {
        counter.tested(1)
        lp.ensure(m)
        let flags = f.flags[m]
        guard flags.rawValue & skip == 0, let q = f._fromParent(m, pp) else { return }
        if flags.contains(.clips) && !f._contains(m, q) { return }
        let children = lp.sortSublayers(of: m)
        s[sp] = _Visit(layer: Int32(m), next: Int32(children) - 1, q: q)
        sp &+= 1
      }
      var sp = 0
      enter(0, p, &sp)
      while sp > 0 {
        let top = s[sp &- 1]
        let m = Int(top.layer)
        if top.next >= 0 {
          // Sorted when the layer was entered: this is the same list.
          let c = lp.sortedSublayer(Int(top.next), of: m)
          s[sp &- 1].next = top.next &- 1
          enter(c, top.q, &sp)
          continue
        }
        if f._contains(m, top.q) { return LayerID(Int32(m)) }
        sp &-= 1
      }
      return nil
    }
  }
}
