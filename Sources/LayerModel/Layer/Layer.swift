/// A model layer with CALayer's names and defaults: geometry, flags, timing, animations and an
/// ordered list of sublayers. A reference type, as CALayer is: the tree is built and edited
/// through it; hit-test strategies never read it directly but a `PresentationFrame` of it.
public final class Layer {
  public var name: String?
  public var bounds: Rect { didSet { _noteChange() } }
  public var position: Point { didSet { _noteChange() } }
  public var anchorPoint: Point { didSet { _noteChange() } }
  public var anchorPointZ: Double { didSet { _noteChange() } }
  public var zPosition: Double { didSet { _noteChange() } }
  public var transform: Transform3D {
    get { _transforms?.transform ?? .identity }
    set {
      _setTransforms(newValue, sublayerTransform)
      _noteChange()
    }
  }
  public var sublayerTransform: Transform3D {
    get { _transforms?.sublayerTransform ?? .identity }
    set {
      _setTransforms(transform, newValue)
      _noteChange()
    }
  }
  /// Both transforms, held only while one of them is not the identity (bit for bit): most
  /// layers keep both at the identity, and 256 bytes a layer are then not spent on them.
  var _transforms: _LayerTransforms?
  public var masksToBounds: Bool { didSet { _noteChange() } }
  public var isHidden: Bool { didSet { _noteChange() } }
  public var opacity: Double { didSet { _noteChange() } }
  /// UIView's flag, consulted by the `uiview` semantics only.
  public var isUserInteractionEnabled: Bool { didSet { _noteChange() } }
  /// The layer's place in the time hierarchy (CAMediaTiming); duration defaults to +infinity.
  public var timing: MediaTiming { didSet { _noteChange() } }

  public private(set) var sublayers: [Layer] = []
  public private(set) weak var superlayer: Layer?
  /// Animations in the order they were added, keyed as `add(_:forKey:)` names them.
  public internal(set) var _animations: [(key: String, animation: Animation)] = []
  /// For a presentation layer, the model layer it was copied from; for a model layer, nil.
  public internal(set) var modelLayer: Layer?
  /// The observers of the tree this layer is in (compiled scenes), or nil when none.
  package internal(set) var _observers: LayerTreeObservers?

  public init(
    name: String? = nil, bounds: Rect = .zero, position: Point = .zero,
    anchorPoint: Point = Point(x: 0.5, y: 0.5)
  ) {
    self.name = name
    self.bounds = bounds
    self.position = position
    self.anchorPoint = anchorPoint
    self.anchorPointZ = 0
    self.zPosition = 0
    self.masksToBounds = false
    self.isHidden = false
    self.opacity = 1
    self.isUserInteractionEnabled = true
    self.timing = MediaTiming(duration: .infinity)
  }

  func _setTransforms(_ t: Transform3D, _ s: Transform3D) {
    if t._isExactlyIdentity && s._isExactlyIdentity {
      _transforms = nil
    } else if let box = _transforms {
      box.transform = t
      box.sublayerTransform = s
    } else {
      _transforms = _LayerTransforms(transform: t, sublayerTransform: s)
    }
  }

  /// Appends `layer` on top of the other sublayers, removing it from its old superlayer first.
  public func addSublayer(_ layer: Layer) {
    insertSublayer(layer, at: sublayers.count - (layer.superlayer === self ? 1 : 0))
  }

  /// Inserts `layer` at `index` (0 is the bottom), removing it from its old superlayer first.
  /// Precondition: `index` is within 0...count after the removal, and `layer` is not an ancestor.
  public func insertSublayer(_ layer: Layer, at index: Int) {
    // A layer without sublayers cannot be an ancestor of another: skip the O(depth) walk.
    precondition(
      layer !== self && (layer.sublayers.isEmpty || !layer.isAncestor(of: self)), "a layer cannot contain its ancestor")
    layer.removeFromSuperlayer()
    precondition(index >= 0 && index <= sublayers.count, "sublayer index \(index) out of range")
    sublayers.insert(layer, at: index)
    layer.superlayer = self
    _adopt(layer)
  }

  /// A subtree joined this tree: it shares the tree's observers, which hear of the change.
  func _adopt(_ layer: Layer) {
    if layer._observers !== _observers { layer._setObservers(_observers) }
    _observers?.treeDidChange()
  }

  /// Detaches the layer from its superlayer; a root is left as it is.
  public func removeFromSuperlayer() {
    guard let parent = superlayer else { return }
    parent.sublayers.removeAll { $0 === self }
    superlayer = nil
    if let o = parent._observers {
      _setObservers(nil)
      o.treeDidChange()
    }
  }

  /// True when `self` is `other` or one of its ancestors.
  public func isAncestor(of other: Layer) -> Bool {
    var node: Layer? = other
    while let n = node {
      if n === self { return true }
      node = n.superlayer
    }
    return false
  }

  /// The root of the tree holding this layer.
  public var rootLayer: Layer {
    var node = self
    while let parent = node.superlayer { node = parent }
    return node
  }

  /// The layers of the subtree in preorder (self first, sublayers in array order): the order
  /// that gives each layer its `LayerID`. Iterative, so a 100,000-deep chain is fine.
  public var subtreeInPreorder: [Layer] {
    var out: [Layer] = []
    var stack: [Layer] = [self]
    while let node = stack.popLast() {
      out.append(node)
      stack.append(contentsOf: node.sublayers.reversed())
    }
    return out
  }

  /// The layers from the root down to this one (inclusive). O(depth).
  func _pathFromRoot() -> [Layer] {
    var path: [Layer] = []
    var node: Layer? = self
    while let n = node {
      path.append(n)
      node = n.superlayer
    }
    path.reverse()
    return path
  }

  /// Drops the animations without telling observers (a compiled scene that took the tree over
  /// and has compiled them, `CompiledScene(releasing:)`).
  package func _removeAnimationsUnobserved() { _animations = [] }

  /// A childless copy of this layer's own properties, without animations or observers.
  package func _propertiesCopy() -> Layer { _copyProperties() }

  /// Copies this layer's own properties (not its sublayers, superlayer or animations).
  func _copyProperties() -> Layer {
    let copy = Layer(name: name)
    copy._setState(LayerState(self))
    (copy.masksToBounds, copy.isUserInteractionEnabled, copy.timing) = (masksToBounds, isUserInteractionEnabled, timing)
    return copy
  }

  /// Sets the properties a `LayerState` holds (the animatable ones) to `s`'s.
  func _setState(_ s: LayerState) {
    (bounds, position, anchorPoint) = (s.bounds, s.position, s.anchorPoint)
    (anchorPointZ, zPosition) = (s.anchorPointZ, s.zPosition)
    _setTransforms(s.transform, s.sublayerTransform)
    (isHidden, opacity) = (s.isHidden, s.opacity)
    _noteChange()
  }

  /// A copy of this layer's subtree sharing nothing with it: every layer's properties, its
  /// animations (copied) and sublayers; the copy is a root. Iterative, so a 100,000-deep chain
  /// copies. O(layers + animations).
  public func deepCopy() -> Layer {
    let top = _copyWithAnimations()
    var stack: [(Layer, Layer)] = [(self, top)]
    while let (source, copy) = stack.popLast() {
      for child in source.sublayers {
        let c = child._copyWithAnimations()
        copy._appendSublayerUnchecked(c)
        stack.append((child, c))
      }
    }
    return top
  }

  func _copyWithAnimations() -> Layer {
    let c = _copyProperties()
    for (key, animation) in _animations { c._animations.append((key, animation.copy())) }
    return c
  }

  /// Appends without the ancestor checks, for builders that own both layers and know `layer`
  /// is a fresh root (generators building a million layers).
  public func _appendSublayerUnchecked(_ layer: Layer) {
    sublayers.append(layer)
    layer.superlayer = self
    if _observers != nil || layer._observers != nil { _adopt(layer) }
  }

  deinit {
    // Tear a deep chain down iteratively: a recursive release of a 100,000-deep tree would
    // overflow the stack.
    // A sublayer someone else still holds keeps its subtree.
    var pending = sublayers
    sublayers = []
    while var node = pending.popLast() {
      guard isKnownUniquelyReferenced(&node) else { continue }
      pending.append(contentsOf: node.sublayers)
      node.sublayers = []
    }
  }
}

extension Layer: CustomStringConvertible {
  public var description: String { "Layer(\(name ?? "unnamed"))" }
}

/// A layer's two transforms when either is set (`Layer._transforms`). Never shared between
/// layers: each layer allocates its own, so a write changes one layer only.
final class _LayerTransforms {
  var transform: Transform3D
  var sublayerTransform: Transform3D

  init(transform: Transform3D, sublayerTransform: Transform3D) {
    self.transform = transform
    self.sublayerTransform = sublayerTransform
  }
}
