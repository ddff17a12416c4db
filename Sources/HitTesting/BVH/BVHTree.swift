import Columns
import LayerModel
import Presentation

/// A BVH over a set of prims (frame rows with Float world boxes), the storage every builder
/// fills and every BVH strategy queries. Arrays are reused across builds: no allocation once
/// they have grown to the scene's size.
public struct BVHTree {
  public var nodes: [BVHNode] = []
  /// Prim order as the leaves reference it; each leaf's prims in descending row.
  public var primRow: [Int32] = []
  public var primBox: [SIMD4<Float>] = []
  @usableFromInline let stack = QueryScratch<Int32>()

  public init() {}

  /// Loads the prims: `rows` with their conservative Float world boxes from `frame`.
  mutating func load(_ frame: PresentationFrame, hittableOnly: Bool) {
    primRow.removeAll(keepingCapacity: true)
    primBox.removeAll(keepingCapacity: true)
    // Upper bounds for the whole frame: no growth later, whatever becomes hittable.
    if primRow.capacity < frame.count { primRow.reserveCapacity(frame.count) }
    if primBox.capacity < frame.count { primBox.reserveCapacity(frame.count) }
    if nodes.capacity < 2 * frame.count { nodes.reserveCapacity(2 * frame.count) }
    for r in 0..<frame.count {
      let hittable = frame.flags[r].contains(.hittable)
      if hittableOnly && !hittable { continue }
      primRow.append(Int32(r))
      primBox.append(hittable ? _worldBox(frame, r) : _emptyBox)
    }
  }

  /// After a build: sorts each leaf's prims by descending row and fills `maxPriority` bottom-up
  /// (children always follow their parent in `nodes`). `hittable` says which prims count.
  mutating func finish(_ frame: PresentationFrame) {
    stack.reserve(2 * frame.count + 2)  // the most nodes a tree over this frame can have
    guard !nodes.isEmpty else { return }
    primRow.withUnsafeMutableBufferPointer { rows in
      primBox.withUnsafeMutableBufferPointer { boxes in
        nodes.withUnsafeMutableBufferPointer { ns in
          for i in (0..<ns.count).reversed() {
            let n = ns[i]
            if n.isLeaf {
              let a = Int(n.first)
              let b = a + Int(n.count)
              // Descending rows: leaves hold at most a handful of prims.
              _insertionSort(rows.baseAddress!, boxes.baseAddress!, a..<b, by: >)
              var best: Int32 = -1
              for k in a..<b where frame.flags[Int(rows[k])].contains(.hittable) { best = Swift.max(best, rows[k]) }
              ns[i].maxPriority = best
            } else {
              ns[i].maxPriority = Swift.max(ns[Int(n.first)].maxPriority, ns[Int(n.second)].maxPriority)
            }
          }
        }
      }
    }
  }

  /// A top-down build's first step: the tree emptied, the root over every prim pushed on
  /// `work` (nothing when there are no prims).
  mutating func _startBuild(_ work: inout [(node: Int32, start: Int32, end: Int32)]) {
    nodes.removeAll(keepingCapacity: true)
    work.removeAll(keepingCapacity: true)
    let n = primRow.count
    guard n > 0 else { return }
    nodes.append(BVHNode(box: _emptyBox, first: 0, second: 0, count: 0, maxPriority: -1))
    if work.capacity < n { work.reserveCapacity(n) }
    work.append((0, 0, Int32(n)))
  }

  /// Splits `node`, over prims start..<end, at `mid`: two new children, pushed on `work`.
  mutating func _split(
    _ node: Int32, _ start: Int32, _ mid: Int32, _ end: Int32, _ work: inout [(node: Int32, start: Int32, end: Int32)]
  ) {
    let left = Int32(nodes.count)
    nodes.append(BVHNode(box: _emptyBox, first: 0, second: 0, count: 0, maxPriority: -1))
    nodes.append(BVHNode(box: _emptyBox, first: 0, second: 0, count: 0, maxPriority: -1))
    nodes[Int(node)].first = left
    nodes[Int(node)].second = left + 1
    nodes[Int(node)].count = 0
    work.append((left, start, mid))
    work.append((left + 1, mid, end))
  }

  /// Every node's box from its prims, bottom-up (children always follow their parent). O(nodes).
  mutating func _fitBoxes() {
    nodes.withUnsafeMutableBufferPointer { ns in
      primBox.withUnsafeBufferPointer { pb in
        var i = ns.count - 1
        while i >= 0 {
          let nd = ns[i]
          if nd.isLeaf {
            var box = _emptyBox
            for k in Int(nd.first)..<Int(nd.first + nd.count) { box = _union(box, pb[k]) }
            ns[i].box = box
          } else {
            ns[i].box = _union(ns[Int(nd.first)].box, ns[Int(nd.second)].box)
          }
          i -= 1
        }
      }
    }
  }

  /// The SAH cost of the tree relative to its root: sum over nodes of area / root area times
  /// (1 for an interior node, prim count for a leaf).
  func sahCost() -> Float {
    guard !nodes.isEmpty else { return 0 }
    let rootArea = Swift.max(_halfPerimeter(nodes[0].box), 1e-30)
    var cost: Float = 0
    for i in 0..<nodes.count {
      let n = nodes[i]
      cost += _halfPerimeter(n.box) / rootArea * (n.isLeaf ? Float(n.count) : 1)
    }
    return cost
  }

  public var memoryFootprint: Int {
    nodes.capacity * MemoryLayout<BVHNode>.stride + primRow.capacity * 4 + primBox.capacity * 16 + stack.capacity * 4
  }

  /// Best-first query: children visited in descending `maxPriority`, a node skipped when it
  /// cannot beat the best row found; leaves test prims in descending row with the exact test.
  @inlinable
  public func query<Counter: WorkCounter>(_ f: PresentationFrame, _ p: Point, _ counter: inout Counter) -> LayerID? {
    guard !nodes.isEmpty else { return nil }
    let px = Float(p.x)
    let py = Float(p.y)
    var best: Int32 = -1
    stack.withUnsafeMutablePointer { s in
      nodes.withUnsafeBufferPointer { ns in
        primRow.withUnsafeBufferPointer { rows in
          primBox.withUnsafeBufferPointer { boxes in
            var sp = 1
            s[0] = 0
            while sp > 0 {
              sp &-= 1
              let n = ns[Int(s[sp])]
              if n.maxPriority <= best { continue }
              counter.tested(1)
              let b = n.box
              guard px >= b.x && py >= b.y && px <= b.z && py <= b.w else { continue }
              if n.isLeaf {
                var k = Int(n.first)
                let end = k &+ Int(n.count)
                while k < end {
                  let r = rows[k]
                  if r <= best { break }
                  let pb = boxes[k]
                  counter.tested(1)
                  if px >= pb.x && py >= pb.y && px <= pb.z && py <= pb.w
                    && f.isCandidate(Int(r), p, counting: &counter)
                  {
                    best = r
                    break
                  }
                  k &+= 1
                }
              } else {
                let l = n.first
                let r = n.second
                // Push the lower-priority child first so the higher one is visited first.
                if ns[Int(l)].maxPriority > ns[Int(r)].maxPriority {
                  s[sp] = r
                  s[sp &+ 1] = l
                } else {
                  s[sp] = l
                  s[sp &+ 1] = r
                }
                sp &+= 2
              }
            }
          }
        }
      }
    }
    return best >= 0 ? f.layer[Int(best)] : nil
  }
}

/// Row r's world box as a conservative Float box (empty when the row's box is empty).
@inlinable func _worldBox(_ f: PresentationFrame, _ r: Int) -> SIMD4<Float> {
  guard f.worldBox[r].minX <= f.worldBox[r].maxX, f.worldBox[r].minY <= f.worldBox[r].maxY else { return _emptyBox }
  return SIMD4(
    _floatDown(f.worldBox[r].minX), _floatDown(f.worldBox[r].minY), _floatUp(f.worldBox[r].maxX),
    _floatUp(f.worldBox[r].maxY))
}

/// A way of building a `BVHTree`'s hierarchy over its loaded prims.
public protocol BVHBuilder {
  static var name: String { get }
  static var summary: String { get }
  init()
  /// Builds `tree.nodes` over `tree.primRow` / `tree.primBox`, reordering the prims.
  mutating func build(_ tree: inout BVHTree)
}

/// A BVH rebuilt from scratch every frame by `Builder`: the body of the two BVH strategies
/// (`BVHStrategy`: `BinnedSAHBVH`, `MortonBVH`). It is not a strategy itself: a generic type's
/// conformance is one for every `Builder`, so the protocol's query loop would run unspecialised
/// for it (scripts/check-specialisation.sh caught exactly that); each strategy is a concrete type.
///
/// Update: the builder's cost over the hittable rows. Query: O(log n) nodes on spread-out
/// scenes, pruned by priority. Memory: 32 bytes per node plus 20 per prim.
public struct BVH<Builder: BVHBuilder> {
  @usableFromInline var binding = FrameBinding()
  @usableFromInline var tree = BVHTree()
  var builder = Builder()

  public init() {}

  public mutating func update(with frame: PresentationFrame) {
    binding.bind(frame)
    defer { tree._checkInvariants(frame) }
    tree.load(frame, hittableOnly: true)
    builder.build(&tree)
    tree.finish(frame)
  }

  @inlinable public var isCurrent: Bool { binding.isCurrent }

  public var memoryFootprint: Int { tree.memoryFootprint }

  @inlinable
  public func hitTest<Counter: WorkCounter>(_ p: Point, counter: inout Counter) -> LayerID? {
    _checkCurrent(binding)
    return tree.query(binding.frame, p, &counter)
  }
}
