import LayerModel

extension Layer {
  /// Adds a position animation from `from` to `to` over `duration` seconds, repeating forever
  /// (the sliding layer the time-aware tests move).
  func slide(from: Point, to: Point, duration: Double, key: String = "slide") {
    let a = BasicAnimation(keyPath: .position, from: .point(from), to: .point(to))
    a.duration = duration
    a.repeatCount = .infinity
    add(a, forKey: key)
  }
}
