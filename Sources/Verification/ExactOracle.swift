import LayerModel
import Presentation

/// The authoritative answer to "which layer is under this point", and how sure it is: the
/// flat form (docs/semantics.md) evaluated from the presentation state in double-double
/// arithmetic, so its own error (about 2^-100 relative) is far below the rounding of any Double
/// computation it judges.
///
/// For each row it decides whether the row is a candidate at p: **yes**, **no**, or
/// **within rounding**: some decision on the row's path (its own bounds, a clipping ancestor's
/// bounds, a level's w > 0 test, a level's invertibility) has an exact margin no larger than
/// the *measured* error of the Double computations that make that decision, i.e. the distance
/// between the exact local point and the ones `tree-walk` (one level at a time) and the index
/// strategies (through the composite world map) compute, times a safety factor of 4. Only there
/// may two correct Double implementations differ; a 1e-6 pt error anywhere else is caught.
///
/// An answer is **acceptable** when it is a yes-or-within-rounding candidate and every row
/// above it is no-or-within-rounding (nil: every row is), where the rounding is that of the
/// computation that produced the answer (`Computation`). Cost: O(depth) double-double
/// operations per row examined; used only to judge answers that differ.
public struct ExactOracle {
  public let frame: PresentationFrame
  let state: (Int) -> LayerState
  let masksToBounds: (Int) -> Bool

  /// The safety factor on the measured rounding error.
  public static let errorFactor = 4.0

  /// How certain a row's candidacy is.
  public enum Status: Sendable, Equatable {
    case yes, no, withinRounding
  }

  /// Which Double computation an answer came from: its rounding is the tolerance.
  public enum Computation: Sendable {
    /// `tree-walk` (and CALayer's recursive walk): the point converted one level at a time,
    /// w > 0 tested at every level.
    case walk
    /// The index strategies: the flat form's exact test through each row's composite world
    /// map, w > 0 tested at the row and its projective and clipping ancestors.
    case flat
  }

  /// An oracle for `frame`, with each model layer's presentation state (by `LayerID` raw value)
  /// and `masksToBounds`.
  public init(frame: PresentationFrame, state: @escaping (Int) -> LayerState, masksToBounds: @escaping (Int) -> Bool) {
    self.frame = frame
    self.state = state
    self.masksToBounds = masksToBounds
  }

  /// An oracle for the frame `builder` built last.
  public init(builder: PresentationFrameBuilder) {
    self.init(
      frame: builder.frame, state: { builder.presentationState(ofLayer: $0) },
      masksToBounds: { builder.layer(LayerID(Int32($0))).masksToBounds })
  }

  /// Whether `answer`, computed by `computation`, is acceptable at world point `p` (see the
  /// type's documentation).
  public func accepts(_ answer: LayerID?, at p: Point, by computation: Computation) -> Bool {
    var answerRow = -1
    if let answer {
      guard let r = frame.row(of: answer) else { return false }
      if status(row: r, at: p, by: computation) == .no { return false }
      answerRow = r
    }
    var r = frame.count - 1
    while r > answerRow {
      if _mayHold(r, p) && status(row: r, at: p, by: computation) == .yes { return false }
      r -= 1
    }
    return true
  }

  /// A cheap filter: a row whose world box, widened by a relative 1e-6, misses p is certainly
  /// not a candidate (the boxes hold every candidate point with a relative 1e-9 to spare).
  func _mayHold(_ r: Int, _ p: Point) -> Bool {
    let x0 = frame.worldBox[r].minX
    let x1 = frame.worldBox[r].maxX
    let y0 = frame.worldBox[r].minY
    let y1 = frame.worldBox[r].maxY
    // An empty box: unreachable, empty bounds, or clipped away by more than the padding.
    if !(x0 <= x1 && y0 <= y1) { return false }
    let padX = (abs(x0) + abs(x1) + abs(p.x)) * 1e-6 + 1e-300
    let padY = (abs(y0) + abs(y1) + abs(p.y)) * 1e-6 + 1e-300
    return p.x >= x0 - padX && p.x <= x1 + padX && p.y >= y0 - padY && p.y <= y1 + padY
  }

  /// Row r's candidacy at world point p, as far as `computation` can resolve it.
  public func status(row r: Int, at p: Point, by computation: Computation) -> Status {
    guard p.x.isFinite, p.y.isFinite else { return .no }
    var path: [Int] = []
    var c = r
    while c >= 0 {
      path.append(c)
      c = Int(frame.parent[c])
    }
    path.reverse()
    var uncertain = false
    // The point in the parent's space: exactly, as tree-walk computes it (one level at a time),
    // and the exact product of the levels' third coordinates (the composite map's).
    var q = (x: DoubleDouble(p.x), y: DoubleDouble(p.y))
    var qWalk = p
    var wProduct = DoubleDouble.one
    for y in path {
      let flags = frame.flags[y]
      // Admission and the distortion limit are rules on the presentation values and the
      // frame's maps, decided identically by every computation.
      if flags.contains(.hidden) || flags.contains(.notInteractive) || flags.contains(.degenerate) { return .no }
      let m = Int(frame.layer[y].rawValue)
      let s = state(m)
      let parentState: LayerState? = frame.parent[y] >= 0 ? state(Int(frame.layer[Int(frame.parent[y])].rawValue)) : nil
      let level = _ExactLevel(s, parent: parentState)
      let doubleSingular = flags.contains(.singular)
      guard let (adj, det) = level.adjugateAndDeterminant(), det.isFinite, !(det == .zero) else {
        if doubleSingular { return .no }
        uncertain = true
        return .withinRounding
      }
      if doubleSingular { return .withinRounding }
      // Converting down: [q, 1] * adj = (X, Y, Z); the level's w at the preimage is det / Z.
      let X = q.x * adj.m11 + q.y * adj.m21 + adj.m41
      let Y = q.x * adj.m12 + q.y * adj.m22 + adj.m42
      let Z = q.x * adj.m14 + q.y * adj.m24 + adj.m44
      let z = Z / det
      let nq = (x: X / Z, y: Y / Z)
      // The Double walk, as tree-walk does it.
      let h = frame.fromParentMap(y)
      let zWalk = qWalk.x * h.m14 + qWalk.y * h.m24 + h.m44
      let walkDown = Point(
        x: (qWalk.x * h.m11 + qWalk.y * h.m21 + h.m41) / zWalk, y: (qWalk.x * h.m12 + qWalk.y * h.m22 + h.m42) / zWalk)
      wProduct = wProduct * z
      // The flat computation through the composite map, for guard rows and the row itself.
      let g = frame.fromWorldMap(y)
      let zFlat = p.x * g.m14 + p.y * g.m24 + g.m44
      let flatPoint = Point(
        x: (p.x * g.m11 + p.y * g.m21 + g.m41) / zFlat, y: (p.x * g.m12 + p.y * g.m22 + g.m42) / zFlat)
      // w > 0: at every level for the walk; for the composite at the row and its guard rows
      // (projective or clipping) for the flat form.
      if computation == .walk {
        switch Self._sign(z, errors: [zWalk]) {
        case .no: return .no
        case .withinRounding: uncertain = true
        case .yes: break
        }
      } else if !level.isAffine || y == r || flags.contains(.clips) {
        switch Self._sign(wProduct, errors: [zFlat]) {
        case .no: return .no
        case .withinRounding: uncertain = true
        case .yes: break
        }
      }
      q = nq
      qWalk = walkDown
      // Inside the bounds: at a clipping ancestor, and at the row itself.
      if y == r || flags.contains(.clips) {
        switch _inside(s.bounds, q, computed: computation == .walk ? walkDown : flatPoint) {
        case .no: return .no
        case .withinRounding: uncertain = true
        case .yes: break
        }
      }
    }
    return uncertain ? .withinRounding : .yes
  }

  /// The sign of an exact value against the Double values that decided it.
  static func _sign(_ exact: DoubleDouble, errors computed: [Double]) -> Status {
    guard exact.isFinite else { return .withinRounding }
    var err = 0.0
    for c in computed {
      let e = (DoubleDouble(c) - exact).magnitude.double
      err = Swift.max(err, e.isNaN ? .infinity : e)
    }
    let margin = exact.magnitude.double
    if margin <= errorFactor * err + 1e-28 * Swift.max(1, abs(exact.hi)) { return .withinRounding }
    return exact.hi > 0 ? .yes : .no
  }

  /// Whether the exact local point is inside the bounds (CGRect: min inclusive, max exclusive),
  /// against the Double points that decided it and the rounding of the bounds' own edges.
  func _inside(_ b: Rect, _ q: (x: DoubleDouble, y: DoubleDouble), computed c: Point) -> Status {
    // Null, zero-sized or NaN bounds contain nothing, exactly and in Double.
    if b.isNull || !(b.size.width != 0) || !(b.size.height != 0) || b.origin.x.isNaN || b.origin.y.isNaN {
      return .no
    }
    let ox = DoubleDouble(b.origin.x)
    let oy = DoubleDouble(b.origin.y)
    let ex = ox + DoubleDouble(b.size.width)
    let ey = oy + DoubleDouble(b.size.height)
    let (x0, x1) = b.size.width < 0 ? (ex, ox) : (ox, ex)
    let (y0, y1) = b.size.height < 0 ? (ey, oy) : (oy, ey)
    guard q.x.isFinite, q.y.isFinite else {
      // Infinite bounds or a point at infinity: IEEE comparisons decide, identically in Double.
      let inside = q.x >= x0 && q.x < x1 && q.y >= y0 && q.y < y1
      return inside ? .yes : .no
    }
    // The error of the Double decision: the computed points' distance from the exact one,
    // plus the rounding of the Double edges (min + size rounded once).
    var err = Swift.max((DoubleDouble(c.x) - q.x).magnitude.double, (DoubleDouble(c.y) - q.y).magnitude.double)
    if err.isNaN { err = .infinity }
    let edgeErr = Swift.max(
      (DoubleDouble(b.maxX) - (b.size.width < 0 ? ox : ex)).magnitude.double,
      (DoubleDouble(b.maxY) - (b.size.height < 0 ? oy : ey)).magnitude.double,
      (DoubleDouble(b.minX) - x0).magnitude.double, (DoubleDouble(b.minY) - y0).magnitude.double)
    err = err + (edgeErr.isNaN ? 0 : edgeErr)
    let inside = q.x >= x0 && q.x < x1 && q.y >= y0 && q.y < y1
    // The L-infinity distance from q to the rectangle's boundary.
    let dx = inside ? Swift.min((q.x - x0).double, (x1 - q.x).double) : Swift.max((x0 - q.x).double, (q.x - x1).double)
    let dy = inside ? Swift.min((q.y - y0).double, (y1 - q.y).double) : Swift.max((y0 - q.y).double, (q.y - y1).double)
    let margin = inside ? Swift.min(dx, dy) : Swift.max(dx, dy, 0)
    let scale = Swift.max(1, abs(q.x.hi), abs(q.y.hi))
    if !(margin > Self.errorFactor * err + 1e-28 * scale) { return .withinRounding }
    return inside ? .yes : .no
  }
}

/// One layer's map into its parent's plane (docs/semantics.md, "Geometry"), in double-double:
/// the 3x3 homography of `T(-anchor) * transform * T(position, zPosition) * [parent's
/// sublayerTransform about its anchor]` flattened to rows and columns 1, 2 and 4.
struct _ExactLevel {
  typealias M4 = [DoubleDouble]  // 16 entries, row-major
  var h:
    (
      m11: DoubleDouble, m12: DoubleDouble, m14: DoubleDouble, m21: DoubleDouble, m22: DoubleDouble,
      m24: DoubleDouble, m41: DoubleDouble, m42: DoubleDouble, m44: DoubleDouble
    )
  var isAffine: Bool

  init(_ s: LayerState, parent: LayerState?) {
    func dd(_ t: Transform3D) -> M4 { t.elements.map { DoubleDouble($0) } }
    func translation(_ x: DoubleDouble, _ y: DoubleDouble, _ z: DoubleDouble) -> M4 {
      var m = dd(.identity)
      m[12] = x
      m[13] = y
      m[14] = z
      return m
    }
    func concat(_ a: M4, _ b: M4) -> M4 {
      var r = [DoubleDouble](repeating: .zero, count: 16)
      for i in 0..<4 {
        for j in 0..<4 {
          var acc = DoubleDouble.zero
          for k in 0..<4 { acc = acc + a[i * 4 + k] * b[k * 4 + j] }
          r[i * 4 + j] = acc
        }
      }
      return r
    }
    func anchor(_ s: LayerState) -> (DoubleDouble, DoubleDouble, DoubleDouble) {
      (
        DoubleDouble(s.bounds.origin.x) + DoubleDouble(s.anchorPoint.x) * DoubleDouble(s.bounds.size.width),
        DoubleDouble(s.bounds.origin.y) + DoubleDouble(s.anchorPoint.y) * DoubleDouble(s.bounds.size.height),
        DoubleDouble(s.anchorPointZ)
      )
    }
    let a = anchor(s)
    var m = translation(-a.0, -a.1, -a.2)
    m = concat(m, dd(s.transform))
    m = concat(m, translation(DoubleDouble(s.position.x), DoubleDouble(s.position.y), DoubleDouble(s.zPosition)))
    if let parent, !parent.sublayerTransform.isIdentity {
      let pa = anchor(parent)
      let around = concat(
        concat(translation(-pa.0, -pa.1, -pa.2), dd(parent.sublayerTransform)), translation(pa.0, pa.1, pa.2))
      m = concat(m, around)
    }
    h = (m[0], m[1], m[3], m[4], m[5], m[7], m[12], m[13], m[15])
    isAffine = h.m14 == .zero && h.m24 == .zero && h.m44 == .one
  }

  /// The adjugate (the inverse times the determinant) and the determinant, or nil when an
  /// entry is not a number.
  func adjugateAndDeterminant() -> (
    (
      m11: DoubleDouble, m12: DoubleDouble, m14: DoubleDouble, m21: DoubleDouble, m22: DoubleDouble,
      m24: DoubleDouble, m41: DoubleDouble, m42: DoubleDouble, m44: DoubleDouble
    ), DoubleDouble
  )? {
    let (m11, m12, m14, m21, m22, m24, m41, m42, m44) = h
    for v in [m11, m12, m14, m21, m22, m24, m41, m42, m44] where v.isNaN { return nil }
    let c11 = m22 * m44 - m24 * m42
    let c12 = m24 * m41 - m21 * m44
    let c14 = m21 * m42 - m22 * m41
    let det = m11 * c11 + m12 * c12 + m14 * c14
    let adj = (
      m11: c11, m12: m14 * m42 - m12 * m44, m14: m12 * m24 - m14 * m22,
      m21: c12, m22: m11 * m44 - m14 * m41, m24: m14 * m21 - m11 * m24,
      m41: c14, m42: m12 * m41 - m11 * m42, m44: m11 * m22 - m12 * m21
    )
    return (adj, det)
  }
}
