import LayerModel

extension LazyPresentation {
  /// Checks the evaluation state (with `HITBENCH_INTERNAL_CHECKS`): the columns sized for the
  /// scene; the frame's rows the model layers (row m is layer m, with its parent and subtree);
  /// depths; lean tracks their layers'; the static order a permutation of the rows; and the stamps: none from a later
  /// frame than the current one, a row composed in this frame evaluated in it (or pinned) and
  /// every composed or evaluated row's parent done first (`ensure` and `evaluate` work top
  /// down), a pinned row pinned whole under a pinned parent (`pin`'s contract: nothing above it
  /// moves). Run when a frame starts (over the previous frame's evaluations) and after the
  /// scene is re-read. O(layers).
  func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let n = scene.count
      let sizes = [
        evaluated.count, composed.count, sorted.count, depth.count, rank.count, leanRows.count, chain.count,
      ]
      precondition(sizes.allSatisfy { $0 >= n }, "lazy presentation: columns smaller than the scene's \(n) layers")
      let f = builder.frame
      precondition(f.count == n, "lazy presentation: the frame has \(f.count) rows for \(n) layers")
      var seen = [Bool](repeating: false, count: n)
      @inline(__always) func current(_ s: UInt32) -> Bool { s == stamp || s == Self.permanent }
      for m in 0..<n {
        let p = Int(scene.parent[m])
        precondition(
          f.layer[m] == LayerID(Int32(m)) && f.parent[m] == Int32(p)
            && f.subtreeEnd[m] == Int32(m) + scene.subtreeSize[m],
          "lazy presentation: row \(m) is not layer \(m)")
        precondition(depth[m] == (p < 0 ? 0 : depth[p] + 1), "lazy presentation: layer \(m)'s depth")
        let r = Int(rank[m])
        precondition(
          r >= 0 && r < n && !seen[r], "lazy presentation: static rank \(r) of layer \(m) out of range or shared")
        seen[r] = true
        let slot = Int(leanRows[m].trackSlot)
        precondition(
          slot < 0 || (slot < builder.tracks.count && builder.tracks[slot].layer == Int32(m)),
          "lazy presentation: layer \(m)'s lean track")
        let e = evaluated[m]
        let c = composed[m]
        precondition(
          (e <= stamp || e == Self.permanent) && (c <= stamp || c == Self.permanent) && sorted[m] <= stamp,
          "lazy presentation: layer \(m) stamped in a later frame")
        if c == Self.permanent {
          precondition(e == Self.permanent, "lazy presentation: layer \(m) pinned but not its values")
          precondition(
            p < 0 || composed[p] == Self.permanent, "lazy presentation: layer \(m) pinned, its parent \(p) not")
        }
        if current(c) {
          precondition(current(e), "lazy presentation: layer \(m) composed before it was evaluated")
          precondition(p < 0 || current(composed[p]), "lazy presentation: layer \(m) composed before its parent \(p)")
        }
        if current(e) {
          precondition(p < 0 || current(evaluated[p]), "lazy presentation: layer \(m) evaluated before its parent \(p)")
        }
      }
    #endif
  }
}
