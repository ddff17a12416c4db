import LayerModel

extension Homography {
  /// The infinity norm (largest absolute row sum) of the 3x3 matrix.
  public var normInfinity: Double {
    Swift.max(
      abs(m11) + abs(m12) + abs(m14), Swift.max(abs(m21) + abs(m22) + abs(m24), abs(m41) + abs(m42) + abs(m44)))
  }
}

extension PresentationFrame {
  /// The relative tolerance of the flat form's exact test: two correct computations of a row's
  /// local point (one level at a time, or through the composite world map) may differ by about
  /// `relativeTolerance * (1 + |q|) * cond`, where cond is the composite map's condition number.
  public static let relativeTolerance = 1e-9

  /// The condition number of row `r`'s world map, `|toWorld| * |fromWorld|` (infinity norms).
  public func condition(_ r: Int) -> Double {
    toWorld[r].normInfinity * fromWorld[r].normInfinity
  }

  /// Whether world point `p` lies within floating-point tolerance of a decision boundary of row
  /// `r`'s candidacy: an edge of its own bounds, an edge of a guard ancestor's bounds, or the
  /// w = 0 horizon of a guard ancestor. Where this is false, every correct computation agrees
  /// on whether `r` is a candidate, so a disagreement about `r` is a bug.
  public func isNearDecisionBoundary(row r: Int, _ p: Point) -> Bool {
    var c = r
    while c >= 0 {
      if _nearEdges(c, p) { return true }
      c = Int(guardRow[c])
    }
    return false
  }

  private func _nearEdges(_ c: Int, _ p: Point) -> Bool {
    let h = fromWorld[c]
    let cond = Swift.max(condition(c), 1)
    guard cond.isFinite else { return true }
    let z = p.x * h.m14 + p.y * h.m24 + h.m44
    let zScale = abs(p.x * h.m14) + abs(p.y * h.m24) + abs(h.m44)
    if abs(z) <= Self.relativeTolerance * zScale * cond { return true }
    let qx = (p.x * h.m11 + p.y * h.m21 + h.m41) / z
    let qy = (p.x * h.m12 + p.y * h.m22 + h.m42) / z
    guard qx.isFinite, qy.isFinite else { return false }
    let tol = Self.relativeTolerance * (1 + abs(qx) + abs(qy)) * cond
    let x0 = boundsMinX[c]
    let x1 = boundsMaxX[c]
    let y0 = boundsMinY[c]
    let y1 = boundsMaxY[c]
    let inX = qx >= x0 - tol && qx <= x1 + tol
    let inY = qy >= y0 - tol && qy <= y1 + tol
    let nearX = abs(qx - x0) <= tol || abs(qx - x1) <= tol
    let nearY = abs(qy - y0) <= tol || abs(qy - y1) <= tol
    return (nearX && inY) || (nearY && inX)
  }
}
