import LayerModel

extension _Builder {
  /// Still screens, 390 x 844 each, side by side: a navigation bar with a title and buttons, a
  /// masking list of rows (icon, title, subtitle, a badge, a disclosure mark), a text field, a
  /// button row, a progress track and a spinner, none of them moving. `animatedFraction` picks
  /// leaf layers, each animating the way an idle interface does by its role: a spinner turns, a
  /// progress bar grows, a badge pulses, a cursor blinks, a button's highlight fades, an icon
  /// or label fades in and out. One list in the whole scene (the first screen's) flicks now and
  /// then: still for about three seconds, then a 0.4 s eased flick to a new offset. Everything
  /// else stands still, so the layers a frame must recompute are the animated leaves and, during
  /// a flick, the flicked list's content.
  mutating func idle() {
    let screenW = 390.0
    let screenH = 844.0
    var page = 0
    while !full {
      let screen = add(root, "screen\(page)", Double(page % 3) * screenW, Double(page / 3 % 2) * 40, screenW, screenH)
      screen.masksToBounds = true
      let bar = add(screen, "bar\(page)", 0, 0, screenW, 96)
      if !full { idleLeaf(add(bar, "title\(count)", 120, 56, 150, 24), role: .fade) }
      for b in 0..<2 where !full {
        idleLeaf(add(bar, "barButton\(count)", 12 + Double(b) * 300, 52, 60, 36), role: .highlight)
      }
      if !full {
        let spinner = add(bar, "spinner\(count)", screenW - 52, 52, 28, 28)
        spinner.anchorPoint = Point(0.5, 0.5)
        spinner.position = Point(screenW - 38, 66)
        idleLeaf(spinner, role: .spin)
      }
      // The list (masking, still but for the first screen's, which flicks now and then).
      let list = add(screen, "list\(page)", 0, 96, screenW, 520)
      list.masksToBounds = true
      if page == 0 { flick(list) }
      var y = 0.0
      var row = 0
      while !full && row < 20 {
        let cell = add(list, "row\(count)", 0, y, screenW, 60)
        if !full { idleLeaf(add(cell, "icon\(count)", 14, 10, 40, 40), role: .fade) }
        if !full { idleLeaf(add(cell, "label\(count)", 66, 10, 220, 20), role: .fade) }
        if !full { idleLeaf(add(cell, "detail\(count)", 66, 34, 180, 16), role: .fade) }
        if !full && row % 4 == 0 {
          let badge = add(cell, "badge\(count)", screenW - 70, 20, 22, 22)
          badge.anchorPoint = Point(0.5, 0.5)
          badge.position = Point(screenW - 59, 31)
          idleLeaf(badge, role: .pulse)
        }
        if !full { add(cell, "chevron\(count)", screenW - 30, 24, 10, 14) }
        y += 60
        row += 1
      }
      // A text field with its cursor, a row of buttons, a progress track.
      if !full {
        let field = add(screen, "field\(count)", 16, 630, screenW - 32, 40)
        if !full { add(field, "placeholder\(count)", 10, 10, 160, 20) }
        if !full { idleLeaf(add(field, "cursor\(count)", 172, 8, 2, 24), role: .blink) }
      }
      for b in 0..<3 where !full {
        idleLeaf(add(screen, "button\(count)", 16 + Double(b) * 124, 690, 110, 44), role: .highlight)
      }
      if !full {
        let track = add(screen, "track\(count)", 20, 760, screenW - 40, 6)
        if !full { idleLeaf(add(track, "progress\(count)", 0, 0, 10, 6), role: .grow, width: screenW - 40) }
      }
      page += 1
    }
  }

  /// How an idle interface animates a leaf.
  enum IdleRole { case spin, grow, pulse, blink, highlight, fade }

  /// Gives leaf `l` its role's animation when the animated fraction picks it.
  mutating func idleLeaf(_ l: Layer, role: IdleRole, width: Double = 0) {
    guard animate() else { return }
    switch role {
    case .spin:
      let a = BasicAnimation(keyPath: .rotationZ, by: .scalar(2 * Double.pi))
      a.timing = .forever(1)
      a.isAdditive = true
      l._addUncopied(a, forKey: "spin")
    case .grow:
      let a = BasicAnimation(keyPath: .boundsWidth, from: .scalar(10), to: .scalar(width))
      a.timing = .forever(rng.uniform(2, 6), beginTime: -rng.uniform(0, 6))
      l._addUncopied(a, forKey: "progress")
    case .pulse:
      let a = BasicAnimation(keyPath: .scale, from: .scalar(1), to: .scalar(1.25))
      a.timing = .forever(0.6, autoreverses: true, beginTime: -rng.uniform(0, 1.2))
      a.timingFunction = .easeInEaseOut
      l._addUncopied(a, forKey: "pulse")
    case .blink:
      let a = KeyframeAnimation(keyPath: .opacity)
      a.values = [.scalar(1), .scalar(0)]
      a.calculationMode = .discrete
      a.timing = .forever(1.06)
      l._addUncopied(a, forKey: "blink")
    case .highlight, .fade:
      let a = BasicAnimation(keyPath: .opacity, from: .scalar(1), to: .scalar(role == .highlight ? 0.4 : 0.2))
      a.timing = .forever(
        role == .highlight ? 0.3 : rng.uniform(0.8, 2), autoreverses: true, beginTime: -rng.uniform(0, 2))
      l._addUncopied(a, forKey: role == .highlight ? "highlight" : "fade")
    }
  }

  /// A list that flicks now and then: its bounds origin still for 3 s, then a 0.4 s eased move
  /// to another offset, four offsets in a loop.
  mutating func flick(_ list: Layer) {
    let a = KeyframeAnimation(keyPath: .boundsOrigin)
    let offsets = [0.0, 420, 180, 600, 0]
    // Each 3.4 s step: 3 s still (the value held by a flat segment), then 0.4 s of motion.
    var times: [Double] = []
    var values: [AnimatableValue] = []
    let step = 3.4
    let total = step * Double(offsets.count - 1)
    for k in 0..<(offsets.count - 1) {
      times.append(Double(k) * step / total)
      values.append(.point(Point(0, offsets[k])))
      times.append((Double(k) * step + 3) / total)
      values.append(.point(Point(0, offsets[k])))
    }
    times.append(1)
    values.append(.point(Point(0, offsets[offsets.count - 1])))
    a.values = values
    a.keyTimes = times
    a.timing = .forever(total, beginTime: -rng.uniform(0, total))
    list._addUncopied(a, forKey: "flick")
  }
}
