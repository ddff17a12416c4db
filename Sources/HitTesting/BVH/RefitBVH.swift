import LayerModel
import Presentation

/// A BVH built once (binned SAH) over every row, then refitted each frame: leaf boxes from the
/// rows' new world boxes, interior boxes and priorities bottom-up. It is rebuilt when the row
/// order or topology changed (`orderGeneration`), or when refitting has let the tree's SAH cost
/// grow past `rebuildRatio` times its cost when built (moving layers make boxes overlap).
///
/// After a build that recomputed only some rows (`PresentationFrame.changedRuns()`), only their
/// prims are refitted, with their leaves and the ancestors whose box or priority changes.
///
/// Update: O(n) refit (a rebuild now and then); O(changed rows x depth) after a build that
/// recomputed a few. Query: as the SAH BVH while the tree is good. `Builder` is the rebuild's;
/// `update` is this type's own. 16 bytes a row for the links a partial refit follows.
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
  /// For a refit of just the changed rows: each row's prim, each prim's leaf and each node's
  /// parent (-1: the root), filled by the first such refit after a rebuild (`linksCurrent`) and
  /// sized by the rebuild, so neither a refit of every row nor the first partial one pays or
  /// allocates for them.
  var primOf: [Int32] = []
  var leafOf: [Int32] = []
  var parentOf: [Int32] = []
  var linksCurrent = false
  /// Prims refitted by the last update.
  var _reindexed = 0

  public init() {}

  public var counters: StrategyCounters { StrategyCounters(reindexed: _reindexed) }

  public mutating func update(with frame: PresentationFrame) {
    let sameFrameObject = _bvh.binding.frame === frame
    let follows = _bvh.binding.isFollowed(by: frame)
    _bvh.binding.bind(frame)
    defer {
      _bvh.tree._checkInvariants(frame)
      _checkLinks()
    }
    if !sameFrameObject || frame.orderGeneration != builtGeneration || frame.count != builtCount {
      _rebuild(frame)
      return
    }
    // The cost is compared after every refit, partial ones too: checked only now and then, a
    // tree that the moving rows loosened answered queries about 40% slower in between (idle).
    if follows { _refitChanged(frame) } else { _refit(frame) }
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
    _reindexed = frame.count
    linksCurrent = false
    let n = frame.count
    if primOf.count != n {
      primOf = [Int32](repeating: -1, count: n)
      leafOf = [Int32](repeating: -1, count: n)
    }
    if parentOf.count < _bvh.tree.nodes.count { parentOf = [Int32](repeating: -1, count: 2 * n + 2) }
  }

  mutating func _fillLinks() {
    let nodes = _bvh.tree.nodes
    let rows = _bvh.tree.primRow
    precondition(primOf.count == rows.count && parentOf.count >= nodes.count, "links sized by the last rebuild")
    parentOf.withUnsafeMutableBufferPointer { parent in
      leafOf.withUnsafeMutableBufferPointer { leaf in
        primOf.withUnsafeMutableBufferPointer { prim in
          if !nodes.isEmpty { parent[0] = -1 }
          for i in 0..<nodes.count {
            let n = nodes[i]
            if n.isLeaf {
              for k in Int(n.first)..<Int(n.first + n.count) { leaf[k] = Int32(i) }
            } else {
              parent[Int(n.first)] = Int32(i)
              parent[Int(n.second)] = Int32(i)
            }
          }
          for k in 0..<rows.count { prim[Int(rows[k])] = Int32(k) }
        }
      }
    }
    linksCurrent = true
  }

  /// Refits the prims of `frame.changedRuns()` in place, then from each one's leaf upwards every
  /// node whose box or priority changes (recomputed from its children, so a shrinking box
  /// shrinks its ancestors too; a walk stops where nothing changed, since a node recomputed
  /// later in the pass reads its children's final boxes). O(changed rows x depth).
  mutating func _refitChanged(_ frame: PresentationFrame) {
    if !linksCurrent { _fillLinks() }
    let runs = frame.changedRuns()
    var moved = 0
    _bvh.tree.primBox.withUnsafeMutableBufferPointer { boxes in
      for i in 0..<runs.count {
        for r in runs[i].rows {
          boxes[Int(primOf[r])] = frame.flags[r].contains(.hittable) ? _worldBox(frame, r) : _emptyBox
          moved += 1
        }
      }
    }
    let rows = _bvh.tree.primRow
    let boxes = _bvh.tree.primBox
    _bvh.tree.nodes.withUnsafeMutableBufferPointer { ns in
      for i in 0..<runs.count {
        for r in runs[i].rows {
          var node = Int(leafOf[Int(primOf[r])])
          while node >= 0 {
            let n = ns[node]
            var box = _emptyBox
            var best: Int32 = -1
            if n.isLeaf {
              for k in Int(n.first)..<Int(n.first + n.count) {
                box = _union(box, boxes[k])
                if frame.flags[Int(rows[k])].contains(.hittable) { best = Swift.max(best, rows[k]) }
              }
            } else {
              box = _union(ns[Int(n.first)].box, ns[Int(n.second)].box)
              best = Swift.max(ns[Int(n.first)].maxPriority, ns[Int(n.second)].maxPriority)
            }
            if box == n.box && best == n.maxPriority { break }
            ns[node].box = box
            ns[node].maxPriority = best
            node = Int(parentOf[node])
          }
        }
      }
    }
    _reindexed = moved
  }

  /// Checks the links a partial refit follows, when filled (with `HITBENCH_INTERNAL_CHECKS`).
  func _checkLinks() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active, linksCurrent else { return }
      let t = _bvh.tree
      for (k, r) in t.primRow.enumerated() {
        precondition(primOf[Int(r)] == Int32(k), "row \(r): prim link")
        let leaf = t.nodes[Int(leafOf[k])]
        precondition(leaf.isLeaf && Int(leaf.first) <= k && k < Int(leaf.first + leaf.count), "prim \(k): leaf link")
      }
      for i in 1..<Swift.max(t.nodes.count, 1) {
        let p = t.nodes[Int(parentOf[i])]
        precondition(!p.isLeaf && (Int(p.first) == i || Int(p.second) == i), "node \(i): parent link")
      }
    #endif
  }

  /// New prim boxes from the frame, then node boxes and priorities bottom-up. O(n).
  mutating func _refit(_ frame: PresentationFrame) {
    _reindexed = _bvh.tree.primRow.count
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
