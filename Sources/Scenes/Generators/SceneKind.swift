import LayerModel
import Presentation

/// The synthetic scene kinds, each standing for a real situation (docs/scenes.md).
public enum SceneKind: String, CaseIterable, Sendable {
  /// A flat field of small layers on keyframe paths, autoreversing and repeating: one
  /// moving layer at scale (confetti, particles, many moving badges).
  case particles
  /// A realistic app screen: window, navigation and tab bars, nested scroll views with
  /// masksToBounds, table and collection cells with labels, icons and buttons, content
  /// scrolling, cells springing in; depth 8 to 15.
  case app
  /// Overlapping rotated and scaled cards whose zPosition animates, so sibling order changes.
  case cards
  /// Long chains and narrow trees (depth up to 100,000): deep view hierarchies, nested wrappers.
  case deep
  /// One parent with N children: a huge flat list, a map with many pins.
  case wide
  /// Nested masking containers with content overflowing them: scroll views in scroll views.
  case clipped
  /// A 3D carousel: perspective on the container, items rotating about y.
  case carousel
  /// Screens of a real interface in motion, with the mix of animations such interfaces run:
  /// eased and custom timing functions, springs, rotation and scale, 3D flips in perspective,
  /// opacity fades, width changes, zPosition reorders, layer speed and offsets.
  case ui
  /// A still screen: containers, lists, text and controls standing still, where the animated
  /// fraction picks leaf layers that animate as idle interfaces do (spinners, progress bars,
  /// pulsing badges, a blinking cursor, highlights) and one list flicks now and then.
  case idle

  /// One line on what it stands for.
  public var summary: String {
    switch self {
    case .particles: "flat field of small layers on keyframe paths (one moving layer, many times over)"
    case .app: "app screen: bars, nested clipping scroll views, cells with labels/icons/buttons, scrolling, springs"
    case .cards: "overlapping rotated, scaled cards with animated zPosition (sibling order changes)"
    case .deep: "long chains and narrow trees, depth up to 100,000"
    case .wide: "one parent with N children"
    case .clipped: "nested masking containers with overflowing content"
    case .carousel: "3D carousel: perspective, items rotating about y"
    case .ui: "interface screens with a real animation mix: eased fades, springs, flips, spinners, reorders"
    case .idle:
      "still screens: the animated fraction picks leaves (spinners, progress, badges, cursor); one list flicks"
    }
  }
}

/// Builds synthetic scenes, deterministic from the seed. `animatedFraction` is the share of
/// layers that get a running animation of their own (scrolling containers move their whole
/// content besides). O(layers).
public struct SceneGenerator {
  public var kind: SceneKind
  public var layers: Int
  public var animatedFraction: Double
  public var seed: UInt64

  /// The sizes a generator accepts.
  public static let layerRange = 10...1_000_000

  public init(kind: SceneKind, layers: Int, animatedFraction: Double = 1, seed: UInt64 = 1) {
    self.kind = kind
    self.layers = layers
    self.animatedFraction = animatedFraction
    self.seed = seed
  }

  public func make() -> Layer { _make(sealing: nil) }

  /// Whether this kind finishes each top-level layer (the root's sublayer) before starting the
  /// next and never returns to it, so `make(sealing:)` can hand them over one at a time.
  public var sealsTopLevelLayers: Bool {
    switch kind {
    case .particles, .wide, .cards: true
    case .app, .deep, .clipped, .carousel, .ui, .idle: false
    }
  }

  /// Makes the scene, handing each finished top-level layer to `sealing(root, layer)` in order
  /// and detaching it, when the kind seals them (`sealsTopLevelLayers`; otherwise `sealing` is
  /// never called). Returns the root with the top-level layers not yet handed over. What the
  /// handed-over layers and the remainder hold is exactly `make()`'s tree, but the model never
  /// holds more than the layer being made (`hitbench generate` streams its file this way).
  public func make(sealing: (Layer, Layer) -> Void) -> Layer {
    withoutActuallyEscaping(sealing) { _make(sealing: $0) }
  }

  func _make(sealing: ((Layer, Layer) -> Void)?) -> Layer {
    var g = _Builder(target: layers, animatedFraction: animatedFraction, seed: seed)
    if sealsTopLevelLayers { g.sealing = sealing }
    switch kind {
    case .particles: g.particles()
    case .app: g.app()
    case .cards: g.cards()
    case .deep: g.deep()
    case .wide: g.wide()
    case .clipped: g.clipped()
    case .carousel: g.carousel()
    case .ui: g.ui()
    case .idle: g.idle()
    }
    // Generators add small groups (a cell and its labels); trim trailing leaves to exactly N.
    var extra = g.count - layers
    if extra > 0 {
      for l in g.root.subtreeInPreorder.reversed() where extra > 0 && l.sublayers.isEmpty && l !== g.root {
        l.removeFromSuperlayer()
        extra -= 1
      }
    }
    // Sealed layers are gone: a trim must find its leaves among those still held.
    precondition(extra <= 0, "a sealing generator overshot its layer count")
    return g.root
  }
}

/// Shared machinery: a layer budget, the root screen, and animation helpers.
struct _Builder {
  let target: Int
  let animatedFraction: Double
  var rng: SplitMix64
  var count = 1
  let root: Layer
  let width: Double
  let height: Double

  init(target: Int, animatedFraction: Double, seed: UInt64, width: Double = 1024, height: Double = 768) {
    self.target = max(target, 1)
    self.animatedFraction = animatedFraction
    self.rng = SplitMix64(seed: seed)
    self.width = width
    self.height = height
    root = Layer(
      name: "root", bounds: Rect(x: 0, y: 0, width: width, height: height), position: Point(width / 2, height / 2))
  }

  var full: Bool { count >= target }

  /// Where finished top-level layers go (`SceneGenerator.make(sealing:)`); nil keeps them.
  var sealing: ((Layer, Layer) -> Void)?

  /// Appends a new top-level layer. The ones before it are finished: when sealing, each is
  /// handed over and detached first, so the root holds one at a time.
  mutating func addTopLevel(_ l: Layer) {
    if let sealing {
      let finished = root.sublayers
      for c in finished {
        sealing(root, c)
        c.removeFromSuperlayer()
      }
    }
    root._appendSublayerUnchecked(l)
  }

  /// A new layer (anchor (0, 0), so position is its top-left corner) added to `parent`.
  @discardableResult
  mutating func add(_ parent: Layer, _ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Layer {
    let l = Layer(name: name, bounds: Rect(x: 0, y: 0, width: w, height: h))
    l.anchorPoint = Point(0, 0)
    l.position = Point(x, y)
    if parent === root { addTopLevel(l) } else { parent._appendSublayerUnchecked(l) }
    count += 1
    return l
  }

  mutating func animate() -> Bool { rng.chance(animatedFraction) }

  /// A repeating, autoreversing keyframe path through `points`.
  mutating func path(_ l: Layer, _ points: [Point], duration: Double) {
    let a = KeyframeAnimation(keyPath: .position)
    a.values = points.map { .point($0) }
    a.timing = .forever(duration, autoreverses: true, beginTime: -rng.uniform(0, duration))
    l._addUncopied(a, forKey: "move")
  }

  mutating func wiggle(_ l: Layer, by d: Double) {
    let a = BasicAnimation(keyPath: .positionX, by: .scalar(rng.uniform(-d, d)))
    a.timing = .forever(rng.uniform(0.5, 2), autoreverses: true, beginTime: -rng.uniform(0, 2))
    l._addUncopied(a, forKey: "wiggle")
  }
}
