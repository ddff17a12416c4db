import LayerModel
import Presentation

extension _Builder {
  mutating func particles() {
    while !full {
      let s = rng.uniform(4, 16)
      let l = add(root, "p\(count)", rng.uniform(0, width - s), rng.uniform(0, height - s), s, s)
      if animate() {
        let pts = (0..<(2 + rng.below(3))).map { _ in Point(rng.uniform(0, width - s), rng.uniform(0, height - s)) }
        path(l, pts, duration: rng.uniform(1, 4))
      }
    }
  }

  mutating func wide() {
    let n = max(target - 1, 1)
    let cols = max(Int((Double(n) * width / height).squareRoot()), 1)
    let cw = width / Double(cols)
    let ch = height / Double((n + cols - 1) / cols)
    var i = 0
    while !full {
      let l = add(root, "item\(i)", Double(i % cols) * cw, Double(i / cols) * ch, cw * 0.9, ch * 0.9)
      if animate() { wiggle(l, by: cw * 0.4) }
      i += 1
    }
  }

  mutating func deep() {
    // Chains of up to 100,000 layers, each inset a little from its parent; narrow trees branch
    // into two chains now and then.
    var tips: [Layer] = [root]
    var depth = [0]
    while !full {
      let k = rng.below(tips.count)
      let parent = tips[k]
      let w = max(parent.bounds.size.width - 0.01, 4)
      let h = max(parent.bounds.size.height - 0.01, 4)
      let l = add(parent, "d\(count)", 0.005, 0.005, w, h)
      if animate() { wiggle(l, by: 0.5) }
      if depth[k] + 1 >= 100_000 {
        tips.remove(at: k)
        depth.remove(at: k)
        if tips.isEmpty {
          tips = [root]
          depth = [0]
        }
        continue
      }
      if rng.chance(0.001) && tips.count < 16 {
        tips.append(l)
        depth.append(depth[k] + 1)
      }
      tips[k] = l
      depth[k] += 1
    }
  }

  mutating func cards() {
    var i = 0
    while !full {
      let w = rng.uniform(80, 220)
      let h = w * 1.4
      let card = Layer(name: "card\(i)", bounds: Rect(x: 0, y: 0, width: w, height: h))
      card.position = Point(rng.uniform(0, width), rng.uniform(0, height))
      card.transform = Transform3D.concat(
        .scale(rng.uniform(0.7, 1.3), rng.uniform(0.7, 1.3), 1), .rotation(rng.uniform(-0.6, 0.6), 0, 0, 1))
      card.zPosition = Double(rng.below(10))
      addTopLevel(card)
      count += 1
      if animate() {
        let z = BasicAnimation(keyPath: .zPosition, from: .scalar(rng.uniform(-10, 0)), to: .scalar(rng.uniform(0, 10)))
        z.timing = .forever(rng.uniform(1, 3), autoreverses: true, beginTime: -rng.uniform(0, 3))
        card._addUncopied(z, forKey: "z")
        let spin = BasicAnimation(keyPath: .rotationZ, by: .scalar(rng.uniform(-0.5, 0.5)))
        spin.timing = .forever(rng.uniform(1, 3), autoreverses: true)
        spin.isAdditive = true
        card._addUncopied(spin, forKey: "tilt")
      }
      if !full { add(card, "title\(i)", w * 0.1, h * 0.05, w * 0.8, h * 0.12) }
      if !full { add(card, "image\(i)", w * 0.1, h * 0.2, w * 0.8, h * 0.5) }
      if !full { add(card, "button\(i)", w * 0.3, h * 0.8, w * 0.4, h * 0.12) }
      i += 1
    }
  }

  mutating func clipped() {
    // Containers nested 3 to 6 deep, each masking, each scrolled (bounds.origin animated), with
    // content reaching past their edges.
    while !full {
      var parent = root
      var w = rng.uniform(200, 500)
      var h = rng.uniform(150, 400)
      var x = rng.uniform(0, width - w)
      var y = rng.uniform(0, height - h)
      for level in 0..<(3 + rng.below(4)) where !full {
        let c = add(parent, "clip\(count)", x, y, w, h)
        c.masksToBounds = true
        if animate() {
          let scroll = BasicAnimation(keyPath: .boundsOrigin, from: .point(Point(0, 0)), to: .point(Point(0, h * 0.5)))
          scroll.timing = .forever(rng.uniform(1, 4), autoreverses: true)
          c._addUncopied(scroll, forKey: "scroll")
        }
        for k in 0..<(4 + rng.below(8)) where !full {
          let cw = rng.uniform(20, w * 0.7)
          let ch = rng.uniform(10, h * 0.4)
          let item = add(c, "content\(count)", rng.uniform(-cw * 0.3, w), rng.uniform(-ch * 0.3, h * 1.5), cw, ch)
          if k == 0 && animate() { wiggle(item, by: 20) }
        }
        parent = c
        x = rng.uniform(0, w * 0.3)
        y = rng.uniform(0, h * 0.3)
        w *= rng.uniform(0.6, 0.95)
        h *= rng.uniform(0.6, 0.95)
        _ = level
      }
    }
  }

  mutating func carousel() {
    // Rings of cards about a vertical axis, seen in perspective: each ring's container has a
    // sublayerTransform with m34 = -1/600; each item's transform is a rotation about y (its
    // place on the ring, animated to turn) then a push out to the ring's radius.
    while !full {
      let ring = add(root, "ring\(count)", rng.uniform(0, width - 300), rng.uniform(0, height - 200), 300, 200)
      ring.sublayerTransform = .perspective(600)
      let items = 8 + rng.below(9)
      let radius = rng.uniform(150, 260)
      for k in 0..<items where !full {
        let item = add(ring, "item\(count)", 100, 50, 100, 100)
        item.anchorPoint = Point(0.5, 0.5)
        item.position = Point(150, 100)
        let angle = 2 * Double.pi * Double(k) / Double(items)
        func place(_ a: Double) -> Transform3D {
          Transform3D.concat(.translation(0, 0, radius), .rotation(a, 0, 1, 0))
        }
        item.transform = place(angle)
        if animate() {
          let spin = KeyframeAnimation(keyPath: .transform)
          spin.values = (0...4).map { .transform(place(angle + Double($0) * Double.pi / 2)) }
          spin.timing = .forever(6)
          item._addUncopied(spin, forKey: "spin")
        }
      }
    }
  }

  /// An app screen: window, status/navigation bar, tab bar, a main scroll view whose content
  /// scrolls (bounds.origin animated), table sections of cells (icon, two labels, button,
  /// accessory), collection rows inside nested horizontal scroll views; some cells spring in.
  /// Screens repeat side by side (a paging container) until the layer budget is spent.
  mutating func app() {
    let screenW = 390.0
    let screenH = 844.0
    var page = 0
    while !full {
      let window = add(root, "window\(page)", Double(page % 3) * screenW, 0, screenW, screenH)
      window.masksToBounds = true
      let controller = add(window, "controller\(page)", 0, 0, screenW, screenH)
      let nav = add(controller, "navBar\(page)", 0, 0, screenW, 96)
      for b in 0..<3 where !full { add(nav, "navButton\(count)", 10 + Double(b) * 130, 50, 44, 36) }
      let tab = add(controller, "tabBar\(page)", 0, screenH - 84, screenW, 84)
      for b in 0..<5 where !full {
        let item = add(tab, "tab\(count)", Double(b) * screenW / 5, 0, screenW / 5, 50)
        if !full { add(item, "tabIcon\(count)", screenW / 10 - 12, 6, 24, 24) }
      }
      let scroll = add(controller, "scroll\(page)", 0, 96, screenW, screenH - 180)
      scroll.masksToBounds = true
      let scrollAnim = KeyframeAnimation(keyPath: .boundsOrigin)
      scrollAnim.values = [.point(Point(0, 0)), .point(Point(0, 1200)), .point(Point(0, 400))]
      scrollAnim.timing = .forever(5, autoreverses: true, beginTime: -rng.uniform(0, 5))
      scroll._addUncopied(scrollAnim, forKey: "scroll")
      let content = add(scroll, "content\(page)", 0, 0, screenW, 4000)
      var y = 0.0
      var section = 0
      while y < 4000 && !full {
        let sec = add(content, "section\(count)", 0, y, screenW, 0)
        var sy = 0.0
        if section % 3 == 2 {
          // A row of collection cells in a nested horizontal scroll view.
          let hs = add(sec, "hscroll\(count)", 0, 0, screenW, 180)
          hs.masksToBounds = true
          let strip = add(hs, "strip\(count)", 0, 0, 140 * 10, 180)
          if animate() { wiggle(strip, by: 200) }
          for k in 0..<10 where !full {
            let cell = add(strip, "tile\(count)", Double(k) * 140 + 8, 8, 124, 164)
            cell.masksToBounds = true
            if !full { add(cell, "tileImage\(count)", 0, 0, 124, 110) }
            if !full { add(cell, "tileLabel\(count)", 6, 116, 112, 20) }
            if !full { add(cell, "tileBadge\(count)", 96, 4, 24, 24) }
          }
          sy = 180
        } else {
          for _ in 0..<(6 + rng.below(6)) where !full {
            let cell = add(sec, "cell\(count)", 0, sy, screenW, 64)
            let cellContent = add(cell, "cellContent\(count)", 0, 0, screenW, 64)
            if !full { add(cellContent, "icon\(count)", 16, 12, 40, 40) }
            let stack = add(cellContent, "stack\(count)", 68, 8, 220, 48)
            if !full { add(stack, "title\(count)", 0, 0, 220, 22) }
            if !full { add(stack, "subtitle\(count)", 0, 26, 220, 18) }
            let button = add(cellContent, "button\(count)", 300, 14, 60, 36)
            if !full { add(button, "buttonLabel\(count)", 8, 8, 44, 20) }
            if !full { add(cellContent, "accessory\(count)", 366, 24, 12, 16) }
            if animate() {
              let spring = SpringAnimation(keyPath: .positionX, from: .scalar(screenW), to: .scalar(0))
              (spring.damping, spring.stiffness) = (rng.uniform(8, 16), 150)
              spring.timing = MediaTiming(beginTime: rng.uniform(0, 3), duration: 1.5, fillMode: .backwards)
              cell._addUncopied(spring, forKey: "springIn")
            }
            sy += 64
          }
        }
        sec.bounds.size.height = sy
        y += sy + 24
        section += 1
      }
      page += 1
    }
  }
}
