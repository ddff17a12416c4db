extension Layer: MediaTimed {
  /// This layer's local time when the clock (the root's parent time) reads `clockTime`: each
  /// level applies `(parent - beginTime) * speed + timeOffset` (and its repeats, if the layer
  /// has a finite duration). O(depth).
  public func localTime(atClockTime clockTime: Double) -> Double {
    var t = clockTime
    for n in _pathFromRoot() { t = n.timing.layerLocalTime(fromParent: t) }
    return t
  }

  /// CALayer `convertTime:fromLayer:`: `t` in `layer`'s local time, answered in this layer's;
  /// nil `layer` means the clock. Goes up to the common ancestor with the inverse linear maps,
  /// then down (repeats of a layer with a finite duration are not unwound: see docs/timing.md).
  public func convertTime(_ t: Double, from layer: Layer?) -> Double {
    var up: [Layer] = []
    var mine: [Layer] = []
    var node: Layer? = self
    while let n = node {
      mine.append(n)
      node = n.superlayer
    }
    node = layer
    var common: Layer?
    while let n = node {
      if mine.contains(where: { $0 === n }) {
        common = n
        break
      }
      up.append(n)
      node = n.superlayer
    }
    var time = t
    for n in up { time = n.timing.parentTime(fromLocal: time) }
    let down = mine.prefix { $0 !== common }
    for n in down.reversed() { time = n.timing.localTime(fromParent: time) }
    return time
  }

  /// CALayer `convertTime:toLayer:`.
  public func convertTime(_ t: Double, to layer: Layer?) -> Double {
    if let layer { return layer.convertTime(t, from: self) }
    var time = t
    var node: Layer? = self
    while let n = node {
      time = n.timing.parentTime(fromLocal: time)
      node = n.superlayer
    }
    return time
  }
}
