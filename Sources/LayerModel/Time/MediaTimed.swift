/// An object with CAMediaTiming's properties, stored in one `MediaTiming` value: layers and
/// animations. `layer.beginTime`, `animation.duration` and the rest read and write `timing`'s
/// stored properties through one key-path subscript (resolved at compile time).
@dynamicMemberLookup
public protocol MediaTimed: AnyObject {
  var timing: MediaTiming { get set }
}

extension MediaTimed {
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<MediaTiming, Value>) -> Value {
    get { timing[keyPath: keyPath] }
    set { timing[keyPath: keyPath] = newValue }
  }
}
