import LayerModel

extension _Builder {
  /// Screens of an interface in motion, 390 x 844 each, side by side. A screen holds a bar with
  /// a spinner, a masking list whose rows fade and slide in on eased curves (staggered begin
  /// times), rows whose icons pop with a spring on transform.scale, a progress bar whose width
  /// runs on a custom Bezier, a stack of cards that reorder by zPosition, a card flipping in 3D
  /// under its container's perspective, and a toast springing up; a share of screens run at
  /// another layer speed or with a time offset (an app slowed for debugging, a paused panel).
  /// Every animation is gated by `animatedFraction`, except the list's scroll.
  mutating func ui() {
    let screenW = 390.0
    let screenH = 844.0
    var page = 0
    let curves: [TimingFunction] = [.easeInEaseOut, .default, .easeOut, TimingFunction(0.2, 0.9, 0.3, 1.2)]
    while !full {
      let screen = add(root, "screen\(page)", Double(page % 3) * screenW, Double(page / 3 % 2) * 40, screenW, screenH)
      screen.masksToBounds = true
      if rng.chance(0.25) {
        screen.timing.speed = [0.5, 2, 0.25][rng.below(3)]
        screen.timing.timeOffset = rng.uniform(0, 2)
      }
      // The bar and its spinner.
      let bar = add(screen, "bar\(page)", 0, 0, screenW, 96)
      let spinner = add(bar, "spinner\(count)", screenW - 52, 52, 28, 28)
      spinner.anchorPoint = Point(0.5, 0.5)
      spinner.position = Point(screenW - 38, 66)
      if animate() {
        let spin = BasicAnimation(keyPath: .rotationZ, by: .scalar(2 * Double.pi))
        spin.timing = .forever(1)
        spin.isAdditive = true
        spinner._addUncopied(spin, forKey: "spin")
      }
      for b in 0..<2 where !full { add(bar, "barButton\(count)", 12 + Double(b) * 60, 52, 44, 36) }
      // The list: masking, scrolled, rows fading and sliding in.
      let list = add(screen, "list\(page)", 0, 96, screenW, 500)
      list.masksToBounds = true
      let scroll = BasicAnimation(keyPath: .boundsOrigin, from: .point(Point(0, 0)), to: .point(Point(0, 300)))
      scroll.timing = .forever(4, autoreverses: true, beginTime: -rng.uniform(0, 4))
      scroll.timingFunction = .easeInEaseOut
      list._addUncopied(scroll, forKey: "scroll")
      var y = 0.0
      var row = 0
      while y < 1400 && !full && row < 24 {
        let cell = add(list, "row\(count)", 0, y, screenW, 56)
        if animate() {
          let fade = BasicAnimation(keyPath: .opacity, from: .scalar(0), to: .scalar(1))
          fade.duration = 0.35
          fade.beginTime = Double(row) * 0.04 + rng.uniform(0, 0.3)
          fade.fillMode = .backwards
          fade.timingFunction = curves[rng.below(curves.count)]
          cell._addUncopied(fade, forKey: "fade")
          let slide = BasicAnimation(keyPath: .positionX, from: .scalar(-40), to: .scalar(0))
          slide.duration = 0.35
          slide.beginTime = fade.beginTime
          slide.fillMode = .backwards
          slide.timingFunction = .easeOut
          cell._addUncopied(slide, forKey: "slide")
        }
        if !full {
          let icon = add(cell, "icon\(count)", 14, 8, 40, 40)
          if animate() && rng.chance(0.3) {
            let pop = SpringAnimation(keyPath: .scale, from: .scalar(0.6), to: .scalar(1))
            (pop.damping, pop.stiffness) = (rng.uniform(6, 12), 220)
            pop.timing = MediaTiming(beginTime: rng.uniform(0, 2), duration: 1.2, fillMode: .backwards)
            icon._addUncopied(pop, forKey: "pop")
          }
        }
        if !full { add(cell, "label\(count)", 66, 10, 240, 20) }
        if !full { add(cell, "detail\(count)", 66, 32, 180, 16) }
        y += 56
        row += 1
      }
      // A progress bar whose width runs on a custom curve.
      if !full {
        let track = add(screen, "track\(count)", 20, 610, screenW - 40, 6)
        if !full {
          let fill = add(track, "progress\(count)", 0, 0, 10, 6)
          if animate() {
            let grow = BasicAnimation(keyPath: .boundsWidth, from: .scalar(10), to: .scalar(screenW - 40))
            grow.timing = .forever(rng.uniform(2, 5))
            grow.timingFunction = TimingFunction(0.7, 0, 0.3, 1)
            fill._addUncopied(grow, forKey: "progress")
          }
        }
      }
      // Cards that reorder: zPosition eased up and down, each on its own phase.
      if !full {
        let deck = add(screen, "deck\(count)", 20, 630, 240, 150)
        for k in 0..<4 where !full {
          let card = add(deck, "card\(count)", Double(k) * 24, Double(k) * 6, 160, 120)
          if animate() {
            let z = BasicAnimation(keyPath: .zPosition, from: .scalar(-2), to: .scalar(2))
            z.timing = .forever(rng.uniform(1.5, 3), autoreverses: true, beginTime: -rng.uniform(0, 3))
            z.timingFunction = .easeInEaseOut
            card._addUncopied(z, forKey: "reorder")
          }
        }
      }
      // A card flipping in 3D under its container's perspective.
      if !full {
        let stage = add(screen, "stage\(count)", 270, 630, 110, 150)
        stage.sublayerTransform = .perspective(500)
        if !full {
          let flip = add(stage, "flip\(count)", 5, 5, 100, 140)
          flip.anchorPoint = Point(0.5, 0.5)
          flip.position = Point(55, 75)
          if animate() {
            let turn = BasicAnimation(
              keyPath: .transform, from: .transform(.identity), to: .transform(.rotation(Double.pi * 0.9, 0, 1, 0)))
            turn.timing = .forever(rng.uniform(1, 2), autoreverses: true)
            turn.timingFunction = .default
            flip._addUncopied(turn, forKey: "flip")
          }
        }
      }
      // A toast springing up from below, then held.
      if !full {
        let toast = add(screen, "toast\(count)", 40, screenH, screenW - 80, 48)
        if animate() {
          let rise = SpringAnimation(keyPath: .positionY, from: .scalar(screenH), to: .scalar(screenH - 70))
          rise.damping = 14
          rise.stiffness = 180
          rise.duration = 1.5
          rise.beginTime = rng.uniform(0.2, 1.5)
          rise.fillMode = .forwards
          rise.isRemovedOnCompletion = false
          toast._addUncopied(rise, forKey: "rise")
        }
      }
      page += 1
    }
  }
}
