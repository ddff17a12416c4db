import Columns
import LayerModel
import Presentation

/// A stretch of a translated layer's motion (`_translatedLines`' closed form), kept between
/// windows when `MotionBounds.reusesPieces`: its knots from a window's start over the next few
/// breakpoints (a key time or an iteration's end), each a clock time and the world translation
/// there, in the layer's slots of `MotionBounds.pieceKnots`, and what every window inside it
/// shares: the shape's box with every pad a window inside needs, the steepest segment and the
/// local time's error. A window inside interpolates its ends between knots and reads the knots
/// between them: no walk of its local time, no shape. Windows follow one another, so one piece
/// answers every window up to its last knot. 64 bytes a layer, and 24 a knot
/// (`MotionBounds.knotsPerPiece`).
struct _TranslatedPiece {
  /// Knots kept (none: no piece).
  var count: Int
  /// `clockTimeError` over the piece: at least its error over any window inside it (the error
  /// grows with the times' magnitudes, which a window inside does not exceed).
  var dt: Double
  /// The steepest change of the world translation per second between knots (jumps excluded).
  var slope: Double
  /// The shape's corner sums (`_TranslatedShape.sums`: the box is these moved by a translation)
  /// moved out by the shape's pad at the largest translation and position along the piece, by
  /// the local time's error at the steepest segment (twice the closed form's: a window's ends
  /// are interpolated between knots whose times are off by up to that error, not evaluated),
  /// and by `_lines`' pad for the rounding, relative to the largest coordinates along the
  /// piece. A window inside one segment has as lines this box moved by its ends' translations.
  var box: Box
  /// How far `box` is moved out from the layer's own box (infinity where the region widens it):
  /// `linearBounds`' `exactWithin` for a window inside one segment.
  var exactWithin: Double

  /// No piece: holds no window. (Not `none`, which an optional's parameter, such as
  /// `ColumnBuffer.reserve`'s filling, would read as nil.)
  static let nothing = _TranslatedPiece(count: 0, dt: .infinity, slope: 0, box: .nothing, exactWithin: .infinity)
}

/// One knot of a kept piece: a clock time and the layer's world translation there (24 bytes:
/// the translation kept as two doubles, where a `SIMD2` would align the knot to 32).
struct _PieceKnot {
  var time: Double
  var x: Double
  var y: Double

  @inline(__always) init(time: Double, w: SIMD2<Double>) { (self.time, x, y) = (time, w.x, w.y) }

  @inline(__always) var w: SIMD2<Double> { SIMD2(x, y) }
}

/// Where a window lies in a kept piece: the segments holding its ends (knot indices `first` and
/// `last` are the first knot after its start and the first at or after its end; the knots
/// between them are inside).
struct _PieceSpan {
  var first: Int
  var last: Int
}

extension MotionBounds {
  /// Where the window [t0, t1] lies in layer m's kept piece, nil when the piece does not hold
  /// it: it starts at or after the piece's first knot and ends 16 local-time errors before the
  /// last (the evaluation can put a time a few errors before a breakpoint past it, as
  /// `_translatedLines` allows for between its knots), no end within 16 errors of a knot
  /// (where a jump could fall on either side of it), and long enough for the local time's
  /// resolution (`linearBounds`' own condition, with the piece's error).
  @inline(__always) func _pieceSpan(_ m: Int, from t0: Double, to t1: Double) -> _PieceSpan? {
    let piece = pieces[m]
    let n = piece.count
    guard n >= 2 else { return nil }
    let knots = pieceKnots._unsafeStorage + m &* Self.knotsPerPiece
    let margin = 16 * piece.dt
    guard t0 >= knots[0].time, t1 <= knots[n &- 1].time - margin, piece.dt * 0x1p20 <= t1 - t0 else { return nil }
    // The window ends before the last knot: both scans stop inside.
    var first = 1
    while knots[first].time <= t0 { first &+= 1 }
    guard knots[first].time - t0 >= margin, first == 1 || t0 - knots[first &- 1].time >= margin else { return nil }
    var last = first
    while knots[last].time < t1 { last &+= 1 }
    // (When no knot is inside, knot last - 1 is at or before t0, far enough from t1.)
    guard knots[last].time - t1 >= margin, t1 - knots[last &- 1].time >= margin else { return nil }
    return _PieceSpan(first: first, last: last)
  }

  /// Layer m's lines over [t0, t1] from its kept piece, nil when the piece does not hold the
  /// window: the piece's box moved by the translations at the ends, interpolated between knots,
  /// where no knot is inside (about 160 instructions for the whole `linearBounds` call, counted
  /// at the instruction level); else `_translatedLines`' lines from the knots kept (about 100
  /// more, and 30 a knot), against about 1,400 for `_translatedLines` with its walk and shape.
  @inline(__always) func _pieceLines(_ m: Int, _ region: Box?, from t0: Double, to t1: Double) -> (
    start: Box, end: Box, exactWithin: Double
  )? {
    guard let span = _pieceSpan(m, from: t0, to: t1) else { return nil }
    _checkPieceRegion(m, region, keeping: false)
    let piece = pieces[m]
    let knots = pieceKnots._unsafeStorage + m &* Self.knotsPerPiece
    @inline(__always) func at(_ t: Double, _ i: Int) -> SIMD2<Double> {
      let (a, b) = (knots[i &- 1], knots[i])
      return a.w + (b.w - a.w) * ((t - a.time) / (b.time - a.time))
    }
    let w0 = at(t0, span.first)
    let w1 = at(t1, span.last)
    let s = piece.box
    if span.first == span.last {
      // One segment: the box moves on a straight line, every pad in it.
      return (
        _faulty(Box(minX: s.minX + w0.x, minY: s.minY + w0.y, maxX: s.maxX + w0.x, maxY: s.maxY + w0.y)),
        _faulty(Box(minX: s.minX + w1.x, minY: s.minY + w1.y, maxX: s.maxX + w1.x, maxY: s.maxY + w1.y)),
        piece.exactWithin
      )
    }
    var stray = _ChordStray(w0, w1, from: t0, to: t1)
    var i = span.first
    while i < span.last {
      stray.add(knots[i].w, at: knots[i].time)
      i &+= 1
    }
    // The chord is steeper than any segment where a jump is inside: its share of the local
    // time's error, as the piece's box holds the segments'.
    let chordSlope = Self._abs(w1 - w0).max() * stray.scale
    let late = chordSlope > piece.slope ? 4 * chordSlope * piece.dt : 0
    return _chordLines(stray, s, pad: .zero, late: late, exactWithin: piece.exactWithin)
  }

  /// Whether a window [t0, t1] that layer m's kept piece does not hold should start a new one
  /// from its start: not when windows this long would cross the piece's knots too soon for a
  /// piece to pay (`windowsPerSpacing`).
  @inline(__always) func _startsPiece(_ k: Int, _ program: FrozenAnimationProgram, from t0: Double, to t1: Double)
    -> Bool
  {
    (t1 - t0) * Self.windowsPerSpacing <= program.meanBreakpointSpacing(k) * Double(Self.knotsPerPiece - 1)
  }

  /// Starts layer m's piece at t0 (none where its motion there cannot be kept): the knots from
  /// t0 (`positionKnots`, truncated) up to t0 + `horizon` if they reach no further, at most
  /// `knotsPerPiece` of them once a knot repeating the one before (an autoreversed iteration's
  /// turn lists its value twice) is dropped, cut before the first segment shorter than 16
  /// local-time errors (which the closed form would refuse); each moved by the layer's shape to
  /// a world translation, and the shape's pad taken at the largest translation and position of
  /// them all.
  func _newPiece(
    _ m: Int, _ k: Int, _ program: FrozenAnimationProgram, _ region: Box?, from t0: Double, horizon: Double
  ) {
    pieces[m] = .nothing
    _checkPieceRegion(m, region, keeping: true)
    let times = breakTimes._unsafeStorage
    let positions = knots._unsafeStorage
    let lean = scene.lean._unsafeStorage + m
    // Room for every kept knot listed twice, and the walk's own slot for the end.
    guard
      let listed = program.positionKnots(
        k, from: t0, to: t0 + horizon, under: SIMD2(lean.pointee.v[0], lean.pointee.v[1]), times: times,
        positions: positions, capacity: Swift.min(2 * Self.knotsPerPiece + 2, breakTimes.capacity, knots.capacity),
        truncating: true),
      listed >= 2, times[listed - 1] > times[0]
    else { return }
    let dt = program.clockTimeError(k, from: times[0], to: times[listed - 1])
    guard dt * 0x1p20 <= times[listed - 1] - times[0] else { return }
    let shape = _TranslatedShape(scene.affineTransform(m), lean, _fixedParentMap(m), region)
    guard shape.invertible else { return }
    let slots = pieceKnots._unsafeStorage + m &* Self.knotsPerPiece
    var w = shape.translation(positions[0])
    slots[0] = _PieceKnot(time: times[0], w: w)
    var n = 1
    var reach = Self._abs(w)
    var size = Self._abs(positions[0])
    var slope = 0.0
    for i in 1..<listed {
      let span = times[i] - slots[n - 1].time
      if span == 0 && positions[i] == positions[i - 1] { continue }
      guard span == 0 || span >= 16 * dt else { break }
      let next = shape.translation(positions[i])
      if span != 0 { slope = Swift.max(slope, Self._abs(next - w).max() / span) }
      w = next
      slots[n] = _PieceKnot(time: times[i], w: w)
      reach = Self._max(reach, Self._abs(w))
      size = Self._max(size, Self._abs(positions[i]))
      n += 1
      if n == Self.knotsPerPiece { break }
    }
    guard n >= 2, let pad = shape.pad(reach: reach, positions: size.max()) else { return }
    let b = shape.sums
    let late = 4 * slope * dt
    // `_lines`' pad, relative to the coordinates: at the largest any box along the piece has.
    let x = pad.x + late + 2 * (abs(b.minX) + abs(b.maxX) + 2 * reach.x) * 1e-12
    let y = pad.y + late + 2 * (abs(b.minY) + abs(b.maxY) + 2 * reach.y) * 1e-12
    let box = Box(minX: b.minX - x, minY: b.minY - y, maxX: b.maxX + x, maxY: b.maxY + y)
    guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return }
    pieces[m] = _TranslatedPiece(
      count: n, dt: dt, slope: slope, box: box, exactWithin: shape.regionAdds ? .infinity : Swift.max(x, y))
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
