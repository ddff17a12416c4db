/// Animations played together (CAAnimationGroup): each child's parent time is the group's
/// local time within its iteration (paced by the group's timing function), so children start
/// relative to the group and stop when the group's active period ends.
public final class AnimationGroup: Animation {
  public var animations: [Animation]

  public init(_ animations: [Animation] = []) {
    self.animations = animations
  }

  public override func apply(to state: inout LayerState, atParentTime parentTime: Double) {
    guard let at = activeTime(atParentTime: parentTime) else { return }
    let d = timing._iterationDuration(isAnimation: true)
    let local = timingFunction.map { $0(at.progress) * d } ?? at.seconds
    var i = 0
    while i < animations.count {
      animations[i].apply(to: &state, atParentTime: local)
      i += 1
    }
  }

  package override func _prepareForEvaluation() {
    for a in animations { a._prepareForEvaluation() }
  }

  public override func copy() -> Animation {
    let g = AnimationGroup(animations.map { $0.copy() })
    _copyBase(into: g)
    return g
  }
}
