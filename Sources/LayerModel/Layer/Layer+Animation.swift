extension Layer {
  /// CALayer `addAnimation:forKey:`: stores a copy; an animation already under `key` is
  /// replaced and the new one goes last (it applies after the others).
  public func add(_ animation: Animation, forKey key: String) {
    _animations.removeAll { $0.key == key }
    _animations.append((key, animation.copy()))
    _observers?.animationsDidChange(self)
  }

  /// Adds without copying, for generators that made `animation` for this layer alone.
  public func _addUncopied(_ animation: Animation, forKey key: String) {
    _animations.append((key, animation))
    _observers?.animationsDidChange(self)
  }

  public func removeAnimation(forKey key: String) {
    _animations.removeAll { $0.key == key }
    _observers?.animationsDidChange(self)
  }

  public func removeAllAnimations() {
    _animations.removeAll()
    _observers?.animationsDidChange(self)
  }

  /// The keys in the order the animations apply.
  public func animationKeys() -> [String] { _animations.map(\.key) }

  /// The stored copy under `key`.
  public func animation(forKey key: String) -> Animation? {
    _animations.first { $0.key == key }?.animation
  }

  /// The layer's presentation state at its own local time `localTime`: the model values with
  /// every animation applied in the order they were added.
  public func presentationState(atLocalTime localTime: Double) -> LayerState {
    var state = LayerState(self)
    // Index loops: no iterator, so no allocation even unoptimised (per-frame path).
    var i = 0
    while i < _animations.count {
      _animations[i].animation.apply(to: &state, atParentTime: localTime)
      i += 1
    }
    return state
  }
}
