/// Where a lean keyframe record's keys are and how they interpolate.
package struct LeanKeys: Sendable {
  /// Key times in `times`.
  package var keyRange = StorageRange()
  /// Keyframe values (or basic endpoints) in `numbers`, `width` numbers each.
  package var valueRange = StorageRange()
  /// Per-segment timing functions in `curves`.
  package var curveRange = StorageRange.none
  package var width: UInt8 = 0
  /// The calculation mode, as the two facts evaluation asks (plain flags: comparing the
  /// String-backed enum costs a call per evaluation).
  package var isDiscrete = false
  package var isLinear = false
  /// Position points interpolated `a + (b - a) u` (the class's fast path).
  package var positionTrack = false
}

/// What the lean lane needs of one property animation, apart from its timing.
package struct LeanProperty: Sendable {
  package var kind = AnimationRecord.Kind.none
  /// The first of its numbers in `LeanValues`, and how many (1, 2 or 4).
  package var offset: UInt8 = 0
  package var width: UInt8 = 0
  package var additive = false
  package var cumulative = false
  package var endpointMask: UInt8 = 0
  package var timingFunction: Int32 = -1
  package var spring: Int32 = -1
  package var keys = LeanKeys()
}

extension AnimationRecord {
  @inline(__always) package var leanProperty: LeanProperty {
    LeanProperty(
      kind: kind, offset: UInt8(truncatingIfNeeded: offset), width: UInt8(truncatingIfNeeded: width),
      additive: additive, cumulative: cumulative, endpointMask: endpointMask, timingFunction: timingFunction,
      spring: spring,
      keys: LeanKeys(
        keyRange: keyRange, valueRange: valueRange, curveRange: curveRange, width: UInt8(truncatingIfNeeded: width),
        isDiscrete: mode == .discrete, isLinear: mode == .linear, positionTrack: positionTrack))
  }
}

/// A layer whose animations are one lean property animation (outside any group), flattened
/// for the frame builder's per-frame loop: its timing as plain numbers with the durations
/// precomputed, and its property. Most animated layers of real and synthetic scenes are such
/// layers; evaluating one runs the record path's arithmetic (`_leanValue`) without its
/// dispatch or the record's 150 bytes. About 120 bytes.
package struct LeanTrack: Sendable {
  package var layer: Int32
  /// The record (whose keyframe cursor the track uses).
  package var record: Int32
  package var property: LeanProperty
  package var beginTime: Double
  package var speed: Double
  package var timeOffset: Double
  package var iterationDuration: Double
  package var activeDuration: Double
  package var autoreverses: Bool
  package var fillsBackwards: Bool
  package var holdsEnd: Bool
  /// A plain position keyframe track (linear or paced, no per-segment timing functions,
  /// neither additive nor cumulative): the commonest kind, evaluated on two scalars.
  package var isPointTrack: Bool
}

extension FrozenAnimationProgram {
  /// The track of layer `layer` whose records are `range`, or nil when they are not one lean
  /// property animation.
  package func track(layer: Int, records range: Range<Int32>) -> LeanTrack? {
    guard range.count == 1 else { return nil }
    let k = Int(range.lowerBound)
    let r = records[k]
    guard r.lane == .lean, r.kind == .basic || r.kind == .spring || r.kind == .keyframe else { return nil }
    return LeanTrack(
      layer: Int32(layer), record: Int32(k), property: r.leanProperty, beginTime: r.timing.beginTime,
      speed: r.timing.speed, timeOffset: r.timing.timeOffset, iterationDuration: durations[k].x,
      activeDuration: durations[k].y, autoreverses: r.timing.autoreverses,
      fillsBackwards: r.timing.fillMode == .backwards || r.timing.fillMode == .both,
      holdsEnd: (r.timing.fillMode == .forwards || r.timing.fillMode == .both) && !r.removedOnCompletion,
      isPointTrack: r.kind == .keyframe && r.positionTrack && r.width == 2 && r.mode != .discrete
        && !r.curveRange.isPresent && !r.additive && !r.cumulative)
  }

  /// Evaluates tracks `range` at their layers' local times (`localTimes[i]` for track i): each
  /// layer's animated numbers (its model numbers `model[layer]` when the animation is not
  /// applied), written into `present[layer]` where they differ bit for bit from what is there.
  /// `changed[i]` is set to 1 where they differed, 0 elsewhere; answers how many did. Only the
  /// track's own numbers of `present` are read or written: its other numbers are the layer's
  /// model values, kept there by the caller. `scratch` holds `range.upperBound` active times.
  /// Writes only the tracks' layers' entries, cursors and scratch entries, so threads may
  /// evaluate disjoint ranges at once.
  ///
  /// Two loops rather than one: the first (timing: two dependent divisions per track) is short
  /// enough for the processor to overlap the divisions of consecutive tracks, which one long
  /// loop body prevents.
  package func evaluateTracks(
    _ tracks: UnsafePointer<LeanTrack>, _ range: Range<Int>, localTimes: UnsafePointer<Double>,
    model: UnsafePointer<LeanValues>, present: UnsafeMutablePointer<LeanValues>,
    changed: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<ActiveTime>
  ) -> Int {
    for i in range {
      // A progress of NaN marks "not applied" (an applied one is in [0, 1]).
      scratch[i] = _activeTime(tracks + i, localTimes[i]) ?? ActiveTime(progress: .nan, cycle: 0, seconds: 0)
    }
    var count = 0
    for i in range {
      let track = tracks + i
      let m = Int(track.pointee.layer)
      let o = Int(track.pointee.property.offset)
      let w = Int(track.pointee.property.width)
      // The layer's presentation numbers as plain doubles (a LeanValues is 11 in a row).
      let out = UnsafeMutableRawPointer(present + m).assumingMemoryBound(to: Double.self) + o
      let at = scratch[i]
      var v: SIMD4<Double>
      if at.progress.isNaN {
        v = model[m].load(o, w)
      } else if track.pointee.isPointTrack {
        v = _pointTrackValue(track, at)
      } else if let value = _leanValue(
        Int(track.pointee.record), track.pointee.property, at, under: model[m].load(o, w))
      {
        v = value
      } else {
        v = model[m].load(o, w)
      }
      // Bit for bit: a NaN that stays NaN is no change, -0 after +0 is one.
      var differs = out[0].bitPattern != v.x.bitPattern
      if w >= 2 { differs = differs || out[1].bitPattern != v.y.bitPattern }
      if w == 4 { differs = differs || out[2].bitPattern != v.z.bitPattern || out[3].bitPattern != v.w.bitPattern }
      if differs {
        out[0] = v.x
        if w >= 2 { out[1] = v.y }
        if w == 4 {
          out[2] = v.z
          out[3] = v.w
        }
        count &+= 1
      }
      changed[i] = differs ? 1 : 0
    }
    return count
  }

  /// Track `track`'s active time at its layer's local time `t` (nil: not applied).
  @inline(__always) func _activeTime(_ track: UnsafePointer<LeanTrack>, _ t: Double) -> ActiveTime? {
    MediaTiming._activeTime(
      atParentTime: t, beginTime: track.pointee.beginTime, speed: track.pointee.speed,
      timeOffset: track.pointee.timeOffset, iterationDuration: track.pointee.iterationDuration,
      activeDuration: track.pointee.activeDuration, autoreverses: track.pointee.autoreverses,
      fillsBackwards: track.pointee.fillsBackwards, holdsEnd: track.pointee.holdsEnd)
  }

  /// The commonest track (a plain position keyframe track) at `at`: `_leanKeyframeValue`'s
  /// arithmetic on two scalars.
  @inline(__always) func _pointTrackValue(_ track: UnsafePointer<LeanTrack>, _ at: ActiveTime) -> SIMD4<Double> {
    let keys = track.pointee.property.keys
    let kt = times[range: keys.keyRange]
    let f = _paced(track.pointee.property.timingFunction, at.progress)
    let (lo, u) = _segment(Int(track.pointee.record), kt, f)
    let p = numbers.baseAddress! + Int(keys.valueRange.start) + 2 * lo
    return SIMD4(p[0] + (p[2] - p[0]) * u, p[1] + (p[3] - p[1]) * u, 0, 0)
  }

  /// One track applied to its layer's numbers `v` (its model numbers) at the layer's local time
  /// `t`: `evaluateTracks`' arithmetic for one layer, so a layer evaluated alone gets the same
  /// bits as in a build. For a lazy evaluation, which otherwise reads the track's timing and
  /// property out of its record on every frame.
  @inline(__always) package func applyTrack(
    _ track: UnsafePointer<LeanTrack>, to v: inout LeanValues, atLocalTime t: Double
  ) {
    guard let at = _activeTime(track, t) else { return }
    let o = Int(track.pointee.property.offset)
    let w = Int(track.pointee.property.width)
    if track.pointee.isPointTrack {
      v.store(_pointTrackValue(track, at), o, w)
    } else if let value = _leanValue(Int(track.pointee.record), track.pointee.property, at, under: v.load(o, w)) {
      v.store(value, o, w)
    }
  }
}
