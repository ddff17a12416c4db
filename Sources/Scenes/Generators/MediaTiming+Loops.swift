import LayerModel

extension MediaTiming {
  /// The timing of an interface's idle loops: `duration` a cycle, forever (reversing each
  /// cycle when `autoreverses`), from `beginTime` (negative: the loop is already running at 0).
  static func forever(_ duration: Double, autoreverses: Bool = false, beginTime: Double = 0) -> MediaTiming {
    MediaTiming(beginTime: beginTime, duration: duration, repeatCount: .infinity, autoreverses: autoreverses)
  }
}
