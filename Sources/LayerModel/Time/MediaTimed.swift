/// An object with CAMediaTiming's properties, stored in one `MediaTiming` value: layers and
/// animations. The accessors forward to `timing`.
public protocol MediaTimed: AnyObject {
  var timing: MediaTiming { get set }
}

extension MediaTimed {
  public var beginTime: Double {
    get { timing.beginTime }
    set { timing.beginTime = newValue }
  }
  public var timeOffset: Double {
    get { timing.timeOffset }
    set { timing.timeOffset = newValue }
  }
  public var speed: Double {
    get { timing.speed }
    set { timing.speed = newValue }
  }
  public var duration: Double {
    get { timing.duration }
    set { timing.duration = newValue }
  }
  public var repeatCount: Double {
    get { timing.repeatCount }
    set { timing.repeatCount = newValue }
  }
  public var repeatDuration: Double {
    get { timing.repeatDuration }
    set { timing.repeatDuration = newValue }
  }
  public var autoreverses: Bool {
    get { timing.autoreverses }
    set { timing.autoreverses = newValue }
  }
  public var fillMode: FillMode {
    get { timing.fillMode }
    set { timing.fillMode = newValue }
  }
}
