import LayerModel
import Presentation

extension MotionBounds {
  /// Checks the classification and the last window's boxes (with `HITBENCH_INTERNAL_CHECKS`):
  /// the columns sized for the scene; a layer moves exactly when it or an ancestor is
  /// animated; piecewise-linear layers animated under a fixed parent; and for every layer
  /// computed for the current window, its parent computed for it too (ancestors first), a
  /// fixed layer exact, a layer under one that can never be hit never a candidate, and its
  /// box and the clip it passes down inside its parent's clip. Run after `compute` and after
  /// the scene is re-read. O(layers).
  func _checkInvariants() {
    #if HITBENCH_INTERNAL_CHECKS
      guard InternalChecks.active else { return }
      let n = scene.count
      let sizes = [moves.count, fixedBox.count, kind.count, boxes.count, clipBox.count, computed.count]
      precondition(
        sizes.allSatisfy { $0 >= n } && piecewiseLinear.count >= n && chain.count > n,
        "motion bounds: columns smaller than the scene's \(n) layers")
      @inline(__always) func inside(_ b: Box, _ clip: Box) -> Bool {
        // Outside only where a comparison says so (a NaN edge, from a hostile scene, decides nothing).
        b.isEmpty || !(b.minX < clip.minX || b.minY < clip.minY || b.maxX > clip.maxX || b.maxY > clip.maxY)
      }
      for m in 0..<n {
        let p = Int(scene.parent[m])
        precondition(
          moves[m] == (scene.animatesHitTesting(m, under: semantics) || (p >= 0 && moves[p])),
          "motion bounds: layer \(m) \(moves[m] ? "moves" : "is fixed") against its animations")
        if piecewiseLinear[m] {
          precondition(
            p >= 0 && !moves[p] && scene.animatesHitTesting(m, under: semantics),
            "motion bounds: layer \(m) piecewise linear without being animated under a fixed parent")
        }
        precondition(computed[m] <= _windowStamp, "motion bounds: layer \(m) computed for a later window")
        guard computed[m] == _windowStamp else { continue }
        precondition(p < 0 || computed[p] == _windowStamp, "motion bounds: layer \(m) computed before its parent \(p)")
        if !moves[m] { precondition(kind[m] == .exact, "motion bounds: fixed layer \(m) is not exact") }
        if p >= 0 && kind[p] == .never {
          precondition(kind[m] == .never && boxes[m].isEmpty, "motion bounds: layer \(m) under a never-hit parent")
        }
        let parentClip = p < 0 ? Box.everything : clipBox[p]
        precondition(inside(boxes[m], parentClip), "motion bounds: layer \(m)'s box outside its parent's clip")
        precondition(inside(clipBox[m], parentClip), "motion bounds: layer \(m)'s clip outside its parent's")
      }
    #endif
  }
}
