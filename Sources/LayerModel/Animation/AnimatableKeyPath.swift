/// A property an animation drives, under Core Animation's key path names. Sub-paths of
/// `transform` read the model transform's 2D decomposition and write it back recomposed.
public enum AnimatableKeyPath: String, Sendable, CaseIterable {
  case position
  case positionX = "position.x"
  case positionY = "position.y"
  case bounds
  case boundsSize = "bounds.size"
  case boundsOrigin = "bounds.origin"
  case boundsWidth = "bounds.size.width"
  case boundsHeight = "bounds.size.height"
  case anchorPoint
  case anchorPointZ
  case transform
  case rotation = "transform.rotation"
  case rotationZ = "transform.rotation.z"
  case scale = "transform.scale"
  case scaleX = "transform.scale.x"
  case scaleY = "transform.scale.y"
  case translation = "transform.translation"
  case translationX = "transform.translation.x"
  case translationY = "transform.translation.y"
  case sublayerTransform
  case zPosition
  case hidden
  case opacity

  /// The kind of value the path takes.
  public var valueKind: String {
    switch self {
    case .position, .boundsOrigin, .anchorPoint: "point"
    case .boundsSize, .translation: "size"
    case .bounds: "rect"
    case .transform, .sublayerTransform: "transform"
    case .hidden: "boolean"
    default: "number"
    }
  }

  /// The property's current value in `state`.
  public func read(_ state: LayerState) -> AnimatableValue {
    switch self {
    case .position: .point(state.position)
    case .positionX: .scalar(state.position.x)
    case .positionY: .scalar(state.position.y)
    case .bounds: .rect(state.bounds)
    case .boundsSize: .size(state.bounds.size)
    case .boundsOrigin: .point(state.bounds.origin)
    case .boundsWidth: .scalar(state.bounds.size.width)
    case .boundsHeight: .scalar(state.bounds.size.height)
    case .anchorPoint: .point(state.anchorPoint)
    case .anchorPointZ: .scalar(state.anchorPointZ)
    case .transform: .transform(state.transform)
    case .rotation, .rotationZ: .scalar(AffineDecomposition(state.transform).angle)
    case .scale: .scalar(AffineDecomposition(state.transform).sx)
    case .scaleX: .scalar(AffineDecomposition(state.transform).sx)
    case .scaleY: .scalar(AffineDecomposition(state.transform).sy)
    case .translation: .size(Size(width: state.transform.m41, height: state.transform.m42))
    case .translationX: .scalar(state.transform.m41)
    case .translationY: .scalar(state.transform.m42)
    case .sublayerTransform: .transform(state.sublayerTransform)
    case .zPosition: .scalar(state.zPosition)
    case .hidden: .bool(state.isHidden)
    case .opacity: .scalar(state.opacity)
    }
  }

  /// Writes `value` into `state`; a value of the wrong kind is ignored.
  public func write(_ value: AnimatableValue, into state: inout LayerState) {
    switch (self, value) {
    case (.position, .point(let p)): state.position = p
    case (.positionX, .scalar(let v)): state.position.x = v
    case (.positionY, .scalar(let v)): state.position.y = v
    case (.bounds, .rect(let r)): state.bounds = r
    case (.boundsSize, .size(let s)): state.bounds.size = s
    case (.boundsOrigin, .point(let p)): state.bounds.origin = p
    case (.boundsWidth, .scalar(let v)): state.bounds.size.width = v
    case (.boundsHeight, .scalar(let v)): state.bounds.size.height = v
    case (.anchorPoint, .point(let p)): state.anchorPoint = p
    case (.anchorPointZ, .scalar(let v)): state.anchorPointZ = v
    case (.transform, .transform(let m)): state.transform = m
    case (.rotation, .scalar(let v)), (.rotationZ, .scalar(let v)):
      _recompose(&state.transform) { $0.angle = v }
    case (.scale, .scalar(let v)):
      _recompose(&state.transform) {
        $0.sx = v
        $0.sy = v
      }
    case (.scaleX, .scalar(let v)): _recompose(&state.transform) { $0.sx = v }
    case (.scaleY, .scalar(let v)): _recompose(&state.transform) { $0.sy = v }
    case (.translation, .size(let s)):
      state.transform.m41 = s.width
      state.transform.m42 = s.height
    case (.translationX, .scalar(let v)): state.transform.m41 = v
    case (.translationY, .scalar(let v)): state.transform.m42 = v
    case (.sublayerTransform, .transform(let m)): state.sublayerTransform = m
    case (.zPosition, .scalar(let v)): state.zPosition = v
    case (.hidden, .bool(let b)): state.isHidden = b
    case (.hidden, .scalar(let v)): state.isHidden = v >= 0.5
    case (.opacity, .scalar(let v)): state.opacity = v
    default: break
    }
  }

  /// Edits the 2D decomposition of `m`, keeping its non-affine entries.
  private func _recompose(_ m: inout Transform3D, _ edit: (inout AffineDecomposition) -> Void) {
    var d = AffineDecomposition(m)
    edit(&d)
    let r = d.transform
    (m.m11, m.m12, m.m21, m.m22, m.m41, m.m42) = (r.m11, r.m12, r.m21, r.m22, r.m41, r.m42)
  }
}

extension AnimatableKeyPath {
  /// A sub-path of `transform` (rotation, scale or translation components).
  package var isTransformComponent: Bool {
    switch self {
    case .rotation, .rotationZ, .scale, .scaleX, .scaleY, .translation, .translationX, .translationY: true
    default: false
    }
  }
}
