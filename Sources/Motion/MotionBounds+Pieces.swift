import Columns
import LayerModel
import Presentation

/// A straight stretch of a translated layer's motion (`_translatedLines`' closed form), kept
/// between windows when `MotionBounds.reusesPieces`: from clock time `start` to `end` its padded
/// world box moves linearly from `from` to `to`. A window inside it has as exact lines the boxes
/// interpolated at its ends: no walk of its local time, no shape, no knot. Windows follow one
/// another, so one piece answers every window up to the layer's next breakpoint (a key time or
/// an iteration's end). 88 bytes a layer.
struct _TranslatedPiece {
  var start: Double
  var end: Double
  /// `clockTimeError` over the piece: at least its error over any window inside it (the error
  /// grows with the times' magnitudes, which a window inside does not exceed).
  var dt: Double
  var from: Box
  var to: Box

  /// No piece: holds no window. (Not `none`, which an optional's parameter, such as
  /// `ColumnBuffer.reserve`'s filling, would read as nil.)
  static let nothing = _TranslatedPiece(start: .infinity, end: -.infinity, dt: .infinity, from: .nothing, to: .nothing)

  /// Whether the window [t0, t1] lies inside: from the start to 16 local-time errors before the
  /// end (the evaluation can put a time a few errors before a breakpoint past it, as
  /// `_translatedLines` allows for between its knots), and long enough for the local time's
  /// resolution (`linearBounds`' own condition, with the piece's error).
  @inline(__always) func holds(from t0: Double, to t1: Double) -> Bool {
    t0 >= start && t1 <= end - 16 * dt && dt * 0x1p20 <= t1 - t0
  }

  /// The box at clock time t, interpolated.
  @inline(__always) func box(at t: Double) -> Box {
    let u = (t - start) / (end - start)
    return Box(
      minX: from.minX + (to.minX - from.minX) * u, minY: from.minY + (to.minY - from.minY) * u,
      maxX: from.maxX + (to.maxX - from.maxX) * u, maxY: from.maxY + (to.maxY - from.maxY) * u)
  }
}

extension MotionBounds {
  /// Layer m's lines over [t0, t1] from its kept piece, nil when the piece does not hold the
  /// window: two boxes interpolated, about 100 instructions with the call, against about 1,400
  /// for `_translatedLines` with its walk and shape.
  @inline(__always) func _pieceLines(_ m: Int, _ region: Box?, from t0: Double, to t1: Double) -> (
    start: Box, end: Box
  )? {
    let piece = pieces[m]
    guard piece.holds(from: t0, to: t1) else { return nil }
    _checkPieceRegion(m, region, keeping: false)
    // The pads `_lines` adds are in the piece's boxes already.
    return (_faulty(piece.box(at: t0)), _faulty(piece.box(at: t1)))
  }

  /// Whether a window [t0, t1] that layer m's kept piece does not hold should start a new one:
  /// not when it starts inside that piece (it crosses the piece's end, a breakpoint: its lines
  /// are `_translatedLines`', and the next window starts the next piece), nor when windows this
  /// long would cross the layer's breakpoints too often for pieces to pay
  /// (`windowsPerSpacing`).
  @inline(__always) func _startsPiece(
    _ m: Int, _ k: Int, _ program: FrozenAnimationProgram, from t0: Double, to t1: Double
  )
    -> Bool
  {
    let piece = pieces[m]
    if piece.start <= t0 && t0 < piece.end { return false }
    return (t1 - t0) * Self.windowsPerSpacing <= program.meanBreakpointSpacing(k)
  }

  /// Starts layer m's piece at t0 (`.nothing` where there is none): its motion's first straight
  /// stretch, to the first knot after t0 (`positionKnots`, truncated after it) or to t0 +
  /// `horizon` if none comes sooner. Its ends' boxes are `_translatedLines`' at the two knots,
  /// padded for the positions' magnitudes over the piece (`_TranslatedShape.pad`), and for
  /// the local time's error by twice what `_translatedLines` allows: a window's ends are
  /// interpolated along the piece, not evaluated, so the piece's own end (a knot's time, off by
  /// up to dt) adds as much again; and by `_lines`' pad for the rounding of the interpolation,
  /// at the largest coordinates along the piece, so that a window inside reads two boxes and
  /// nothing else.
  func _newPiece(
    _ m: Int, _ k: Int, _ program: FrozenAnimationProgram, _ region: Box?, from t0: Double, horizon: Double
  ) -> _TranslatedPiece {
    _checkPieceRegion(m, region, keeping: true)
    let times = breakTimes._unsafeStorage
    let positions = knots._unsafeStorage
    let lean = scene.lean._unsafeStorage + m
    guard
      let n = program.positionKnots(
        k, from: t0, to: t0 + horizon, under: SIMD2(lean.pointee.v[0], lean.pointee.v[1]), times: times,
        positions: positions, capacity: Swift.min(3, breakTimes.capacity, knots.capacity), truncating: true),
      n >= 2
    else { return .nothing }
    let start = times[0]
    let end = times[1]
    guard end > start else { return .nothing }
    let dt = program.clockTimeError(k, from: start, to: end)
    guard dt * 0x1p20 <= end - start else { return .nothing }
    let shape = _TranslatedShape(scene.affineTransform(m), lean, _fixedParentMap(m), region)
    guard shape.invertible else { return .nothing }
    let wa = shape.translation(positions[0])
    let wb = shape.translation(positions[1])
    let most = pointwiseMax(Self._abs(wa), Self._abs(wb))
    guard
      let pad = shape.pad(
        reach: most,
        positions: pointwiseMax(Self._abs(positions[0]), Self._abs(positions[1])).max())
    else { return .nothing }
    let late = 4 * (Self._abs(wb - wa).max() / (end - start)) * dt
    let s = shape.sums
    // `_lines`' pad for the interpolation's rounding, relative to the coordinates: at the
    // largest any box along the piece has (one interpolated between two is no farther out than
    // the farther of them).
    let x = pad.x + late + 2 * (abs(s.minX) + abs(s.maxX) + 2 * most.x) * 1e-12
    let y = pad.y + late + 2 * (abs(s.minY) + abs(s.maxY) + 2 * most.y) * 1e-12
    let from = Box(minX: s.minX + wa.x - x, minY: s.minY + wa.y - y, maxX: s.maxX + wa.x + x, maxY: s.maxY + wa.y + y)
    let to = Box(minX: s.minX + wb.x - x, minY: s.minY + wb.y - y, maxX: s.maxX + wb.x + x, maxY: s.maxY + wb.y + y)
    guard from.minX.isFinite, from.minY.isFinite, from.maxX.isFinite, from.maxY.isFinite, to.minX.isFinite,
      to.minY.isFinite, to.maxX.isFinite, to.maxY.isFinite
    else { return .nothing }
    return _TranslatedPiece(start: start, end: end, dt: dt, from: from, to: to)
  }

  /// With `HITBENCH_INTERNAL_CHECKS`: a kept piece is read with the region it was made with
  /// (`reusesPieces`' condition on its caller), compared bit for bit. The region is kept even
  /// where checks are suspended (a test's task suspends them on its own thread, not on the
  /// builder's, which may read the piece).
  @inline(__always) func _checkPieceRegion(_ m: Int, _ region: Box?, keeping: Bool) {
    #if HITBENCH_INTERNAL_CHECKS
      let r = region ?? .nothing
      if keeping {
        _pieceRegions[m] = r
        return
      }
      guard InternalChecks.active else { return }
      let kept = _pieceRegions[m]
      precondition(
        [r.minX, r.minY, r.maxX, r.maxY].map(\.bitPattern)
          == [kept.minX, kept.minY, kept.maxX, kept.maxY].map(\.bitPattern),
        "motion bounds: layer \(m)'s piece read with region \(r), made with \(kept)")
    #endif
  }
}
