import LayerModel

extension PresentationFrameBuilder {
  /// Pass 2: the row order. Sorts the sublayers of every parent (full) or of the parents whose
  /// sublayers' order keys changed, stably by (key, model index); when the order changed, the
  /// rows of the affected subtrees are renumbered (all rows on a full build). Answers whether
  /// any row moved (pass 3 then recomputes every row).
  func _order(full: Bool) -> Bool {
    let scene = self.scene
    let n = _layerCount
    var changed = false
    if full {
      for m in 0..<n where scene.childStart[m + 1] - scene.childStart[m] >= 2 { _ = _sortSublayers(m) }
      _clearResort()
      changed = _assignRows(from: 0) || changed
      return true
    }
    guard resortCount > 0 else { return false }
    for k in 0..<resortCount {
      let p = Int(resortList[k])
      if _sortSublayers(p) { changed = _assignRows(from: p) || changed }
    }
    _clearResort()
    return changed
  }

  func _clearResort() {
    for k in 0..<resortCount { resort[Int(resortList[k])] = false }
    resortCount = 0
  }

  /// Sorts layer p's sublayers by (order key, model index) in place; answers whether their order
  /// changed. (key, index) is a total order, so every sort gives the same list: an insertion
  /// sort first (lists are short, or nearly sorted when an animated zPosition moves a layer a
  /// few places), a heap sort when that would take too many moves. No allocation.
  func _sortSublayers(_ p: Int) -> Bool {
    let a = Int(scene.childStart[p])
    let b = Int(scene.childStart[p + 1])
    guard b - a >= 2 else { return false }
    if p == scene._faults.orderParent { return _sortSublayersWithSwap(p, a, b) }
    let keys = orderKey._unsafeStorage
    let list = sortedChildren._unsafeStorage
    @inline(__always) func less(_ x: Int32, _ y: Int32) -> Bool {
      let kx = keys[Int(x)]
      let ky = keys[Int(y)]
      return kx != ky ? kx < ky : x < y
    }
    var sorted = true
    for i in (a + 1)..<b where less(list[i], list[i - 1]) {
      sorted = false
      break
    }
    if sorted { return false }
    var budget = 8 * (b - a) + 64
    var i = a + 1
    while i < b {
      let v = list[i]
      var j = i - 1
      while j >= a && less(v, list[j]) {
        list[j + 1] = list[j]
        j -= 1
        budget -= 1
      }
      list[j + 1] = v
      if budget < 0 { break }
      i += 1
    }
    if budget < 0 { _heapSort(list + a, b - a, less) }
    return true
  }

  /// Fault injection (`InjectedFaults.orderParent`): the sublayers sorted from their model
  /// order, then the two top-most swapped. Answers whether the list changed.
  func _sortSublayersWithSwap(_ p: Int, _ a: Int, _ b: Int) -> Bool {
    let list = sortedChildren._unsafeStorage
    let before = (list[b - 2], list[b - 1])
    for k in a..<b { list[k] = scene.childList[k] }
    let keys = orderKey._unsafeStorage
    _heapSort(list + a, b - a) { x, y in
      let kx = keys[Int(x)]
      let ky = keys[Int(y)]
      return kx != ky ? kx < ky : x < y
    }
    let top = list[b - 1]
    list[b - 1] = list[b - 2]
    list[b - 2] = top
    return before != (list[b - 2], list[b - 1])
  }

  /// In-place heap sort of `count` ids by `less`: O(k log k), no allocation.
  func _heapSort(_ buf: UnsafeMutablePointer<Int32>, _ count: Int, _ less: (Int32, Int32) -> Bool) {
    @inline(__always) func swapAt(_ i: Int, _ j: Int) {
      let t = buf[i]
      buf[i] = buf[j]
      buf[j] = t
    }
    func siftDown(_ start: Int, _ end: Int) {
      var root = start
      while 2 * root + 1 < end {
        var child = 2 * root + 1
        if child + 1 < end && less(buf[child], buf[child + 1]) { child += 1 }
        if less(buf[root], buf[child]) {
          swapAt(root, child)
          root = child
        } else {
          return
        }
      }
    }
    var start = count / 2 - 1
    while start >= 0 {
      siftDown(start, count)
      start -= 1
    }
    var end = count - 1
    while end > 0 {
      swapAt(0, end)
      siftDown(0, end)
      end -= 1
    }
  }

  /// Numbers the rows of layer p's subtree in preorder with sorted sublayers, starting at p's
  /// row, and writes the frame's structure columns for them. Answers whether any row moved.
  func _assignRows(from p: Int) -> Bool {
    let f = frame
    let scene = self.scene
    var changed = false
    var r = Int(p == 0 ? 0 : rowOf[p])
    var sp = 0
    stack[0] = Int32(p)
    sp = 1
    while sp > 0 {
      sp -= 1
      let m = Int(stack[sp])
      if f._layer[r].rawValue != Int32(m) { changed = true }
      f._layer[r] = LayerID(Int32(m))
      rowOf[m] = Int32(r)
      let parentModel = Int(scene.parent[m])
      f._parent[r] = parentModel < 0 ? -1 : rowOf[parentModel]
      f._subtreeEnd[r] = Int32(r) + scene.subtreeSize[m]
      r += 1
      var k = Int(scene.childStart[m + 1]) - 1
      let a = Int(scene.childStart[m])
      while k >= a {
        stack[sp] = sortedChildren[k]
        sp += 1
        k -= 1
      }
    }
    if changed { f.orderGeneration &+= 1 }
    return changed
  }
}
