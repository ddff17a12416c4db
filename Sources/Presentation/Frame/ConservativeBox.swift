import LayerModel

/// Boxes that hold every point where the exact test can accept a layer: the image of its local
/// bounds under its map to the world (or to a group's space), padded for the rounding of the
/// corners and of the exact test itself. Every index (frame, time-aware, peer) filters with
/// these and decides with the exact test, so they must never be smaller than what the test
/// accepts, however badly conditioned the map.
public enum ConservativeBox {
  /// The rounding of the exact test, componentwise: a world point of magnitude up to (px, py)
  /// converted by `inverse` lands within (ex, ey) of its exact local point (a few ulps of each
  /// coordinate's terms: |px||a'| + |py||c'| + |tx'| for x), and that local error is stretched
  /// back into the world by the map's own entries. Diagonal scalings (1e-6 by 1e5) keep the
  /// pad relative to each axis; nearly singular maps get what they need.
  @inlinable @inline(__always)
  public static func affineSlack(_ w: AffineMap, inverse m: AffineMap, reachX px: Double, reachY py: Double) -> (
    x: Double, y: Double
  ) {
    let ex = 0x1p-49 * (px * abs(m.a) + py * abs(m.c) + abs(m.tx))
    let ey = 0x1p-49 * (px * abs(m.b) + py * abs(m.d) + abs(m.ty))
    return (abs(w.a) * ex + abs(w.c) * ey, abs(w.b) * ex + abs(w.d) * ey)
  }

  /// How far `m.apply(p)` (computed in Double) can be from the exact image of p, per axis: a
  /// few ulps of each coordinate's terms. What a filter must widen a box by when it tests a
  /// point converted by another map than the exact test's (a time-aware strategy's group space).
  @inlinable @inline(__always)
  public static func conversionError(_ m: AffineMap, _ p: Point) -> (x: Double, y: Double) {
    let ax = abs(p.x)
    let ay = abs(p.y)
    return (
      0x1p-49 * (ax * abs(m.a) + ay * abs(m.c) + abs(m.tx)), 0x1p-49 * (ax * abs(m.b) + ay * abs(m.d) + abs(m.ty))
    )
  }

  /// The same for a homography, whose image `q` of p is given: the homogeneous coordinates'
  /// errors over the third one.
  @inlinable
  public static func conversionError(_ m: Homography, _ p: Point, _ q: Point) -> (x: Double, y: Double) {
    let ax = abs(p.x)
    let ay = abs(p.y)
    let z = abs(p.x * m.m14 + p.y * m.m24 + m.m44)
    let eX = 0x1p-49 * (ax * abs(m.m11) + ay * abs(m.m21) + abs(m.m41))
    let eY = 0x1p-49 * (ax * abs(m.m12) + ay * abs(m.m22) + abs(m.m42))
    let eZ = 0x1p-49 * (ax * abs(m.m14) + ay * abs(m.m24) + abs(m.m44))
    guard z > 0 else { return (.infinity, .infinity) }
    return ((eX + abs(q.x) * eZ) / z, (eY + abs(q.y) * eZ) / z)
  }

  /// The world box of local bounds under an affine map: the box of the four mapped corners
  /// (the image of a rectangle is their parallelogram), padded by a relative 1e-9 against the
  /// corners' rounding and by `affineSlack` for the exact test's own rounding (which a
  /// well-conditioned map keeps to a few ulps, and a nearly singular one does not). The whole
  /// plane when a corner is not finite.
  @inlinable @inline(__always)
  public static func affine(_ w: AffineMap, inverse: AffineMap, _ b: Box) -> Box {
    translated(cornerSums(w, b), w, inverse: inverse)
  }

  /// The box of a rectangle's corners under an affine map's linear part alone (each corner's
  /// `x a + y c` and `x b + y d`, before the translation is added): what `translated` moves.
  /// A layer that only translates keeps these across positions (`MotionBounds`).
  @inlinable @inline(__always)
  public static func cornerSums(_ w: AffineMap, _ b: Box) -> Box {
    let x0 = b.minX * w.a
    let x1 = b.maxX * w.a
    let y0 = b.minY * w.c
    let y1 = b.maxY * w.c
    let u0 = b.minX * w.b
    let u1 = b.maxX * w.b
    let v0 = b.minY * w.d
    let v1 = b.maxY * w.d
    return Box(
      minX: Swift.min(Swift.min(x0 + y0, x1 + y0), Swift.min(x1 + y1, x0 + y1)),
      minY: Swift.min(Swift.min(u0 + v0, u1 + v0), Swift.min(u1 + v1, u0 + v1)),
      maxX: Swift.max(Swift.max(x0 + y0, x1 + y0), Swift.max(x1 + y1, x0 + y1)),
      maxY: Swift.max(Swift.max(u0 + v0, u1 + v0), Swift.max(u1 + v1, u0 + v1)))
  }

  /// `affine`'s box from the corner sums of its linear part (`cornerSums`) and the map with its
  /// translation: bit for bit the box `affine` gives, since rounding is monotone (the least of
  /// the corners plus tx is the least of each corner plus tx, each rounded once).
  @inlinable @inline(__always)
  public static func translated(_ sums: Box, _ w: AffineMap, inverse: AffineMap) -> Box {
    let minX = sums.minX + w.tx
    let minY = sums.minY + w.ty
    let maxX = sums.maxX + w.tx
    let maxY = sums.maxY + w.ty
    let slack = affineSlack(
      w, inverse: inverse, reachX: Swift.max(abs(minX), abs(maxX)), reachY: Swift.max(abs(minY), abs(maxY)))
    return padded(minX, minY, maxX, maxY, slackX: slack.x, slackY: slack.y)
  }

  /// The same under a homography: the four corners when all are in front of the viewer (then
  /// the whole rect is, and its image is their convex hull), else the whole plane. The exact
  /// test's rounding, componentwise as for affine maps: the homogeneous local point's error
  /// divided by its third coordinate (at least 1 / the largest w of the corners), stretched back
  /// by the map's Jacobian (its entries, and its projective row times the point, over the
  /// smallest w).
  public static func projective(_ h: Homography, inverse m: Homography, _ b: Box) -> Box {
    guard let a = h.apply(Point(b.minX, b.minY)), let c1 = h.apply(Point(b.maxX, b.minY)),
      let c2 = h.apply(Point(b.maxX, b.maxY)), let d = h.apply(Point(b.minX, b.maxY))
    else { return .everything }
    let minX = Swift.min(Swift.min(a.x, c1.x), Swift.min(c2.x, d.x))
    let minY = Swift.min(Swift.min(a.y, c1.y), Swift.min(c2.y, d.y))
    let maxX = Swift.max(Swift.max(a.x, c1.x), Swift.max(c2.x, d.x))
    let maxY = Swift.max(Swift.max(a.y, c1.y), Swift.max(c2.y, d.y))
    let px = Swift.max(abs(minX), abs(maxX))
    let py = Swift.max(abs(minY), abs(maxY))
    let qx = Swift.max(abs(b.minX), abs(b.maxX))
    let qy = Swift.max(abs(b.minY), abs(b.maxY))
    let w0 = b.minX * h.m14 + b.minY * h.m24 + h.m44
    let w1 = b.maxX * h.m14 + b.minY * h.m24 + h.m44
    let w2 = b.maxX * h.m14 + b.maxY * h.m24 + h.m44
    let w3 = b.minX * h.m14 + b.maxY * h.m24 + h.m44
    let wMin = Swift.min(Swift.min(w0, w1), Swift.min(w2, w3))
    let wMax = Swift.max(Swift.max(w0, w1), Swift.max(w2, w3))
    let eX = 0x1p-49 * (px * abs(m.m11) + py * abs(m.m21) + abs(m.m41))
    let eY = 0x1p-49 * (px * abs(m.m12) + py * abs(m.m22) + abs(m.m42))
    let eZ = 0x1p-49 * (px * abs(m.m14) + py * abs(m.m24) + abs(m.m44))
    // The local error, over |Z|: `inverse` is the forward map's inverse up to a scale k (a
    // composed inverse is), so Z = k / w at every point and |Z| >= |k| / wMax; k from a corner.
    let k = abs((a.x * m.m14 + a.y * m.m24 + m.m44) * w0)
    guard k > 0 else { return .everything }
    let ex = (eX + qx * eZ) * wMax / k
    let ey = (eY + qy * eZ) * wMax / k
    // The Jacobian of the forward map: (entry + coordinate x projective entry) / w.
    let slackX = ((abs(h.m11) + px * abs(h.m14)) * ex + (abs(h.m21) + px * abs(h.m24)) * ey) / wMin
    let slackY = ((abs(h.m12) + py * abs(h.m14)) * ex + (abs(h.m22) + py * abs(h.m24)) * ey) / wMin
    guard slackX.isFinite, slackY.isFinite else { return .everything }
    return padded(minX, minY, maxX, maxY, slackX: slackX, slackY: slackY)
  }

  @inlinable @inline(__always)
  public static func padded(
    _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, slackX: Double, slackY: Double
  ) -> Box {
    // One sum times zero is 0 exactly when all six are finite.
    guard (minX * 0 + maxX * 0) + (minY * 0 + maxY * 0) + (slackX * 0 + slackY * 0) == 0 else { return .everything }
    let padX = (abs(minX) + abs(maxX)) * 1e-9 + slackX + 1e-300
    let padY = (abs(minY) + abs(maxY)) * 1e-9 + slackY + 1e-300
    return Box(minX: minX - padX, minY: minY - padY, maxX: maxX + padX, maxY: maxY + padY)
  }
}
