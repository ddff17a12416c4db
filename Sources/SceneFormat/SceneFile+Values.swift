import JSON
import LayerModel

/// Turns small JSON values into model values, naming the JSON path and the expectation when a
/// value is wrong. Numbers may also be the strings "nan", "infinity", "-infinity" (JSON has no
/// literal for them and hostile scenes need them).
struct _ValueDecoder {
  let file: String

  func fail(_ path: String, _ message: String) -> SceneFileError {
    SceneFileError(file: file, path: path, message: message)
  }

  func number(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Double {
    switch v {
    case .number(let d): return d
    case .string(let s):
      switch s.lowercased() {
      case "nan": return .nan
      case "infinity", "inf", "+infinity": return .infinity
      case "-infinity", "-inf": return -.infinity
      default: break
      }
    default: break
    }
    throw fail(path, "expected a number, found \(v.typeName)")
  }

  /// A key as it appears in messages: at most 64 characters, control characters escaped.
  static func shown(_ key: String) -> String { SceneFile._bounded(key, 64) }

  /// A number that positions or sizes something: finite values beyond the magnitude limit are
  /// refused (Double arithmetic could no longer give the reference answer there; see
  /// docs/scene-format.md). NaN and the infinities stay legal: their behaviour is defined.
  func geometric(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Double {
    let d = try number(v, path)
    if d.isFinite && abs(d) > GeometryLimits.magnitude {
      throw fail(path, "magnitude \(d) exceeds the limit \(GeometryLimits.magnitudeText)")
    }
    return d
  }

  func numbers(_ v: JSONValue, _ path: String, count: Int, what: String) throws(SceneFileError) -> [Double] {
    guard case .array(let items) = v, items.count == count else {
      throw fail(path, "expected \(what) (\(count) numbers), found \(describe(v))")
    }
    var out: [Double] = []
    for (k, item) in items.enumerated() { out.append(try geometric(item, "\(path)[\(k)]")) }
    return out
  }

  func describe(_ v: JSONValue) -> String {
    if case .array(let items) = v { return "an array of \(items.count)" }
    return v.typeName
  }

  func bool(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Bool {
    guard case .bool(let b) = v else { throw fail(path, "expected true or false, found \(v.typeName)") }
    return b
  }

  func string(_ v: JSONValue, _ path: String) throws(SceneFileError) -> String {
    guard case .string(let s) = v else { throw fail(path, "expected a string, found \(v.typeName)") }
    return s
  }

  func point(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Point {
    let n = try numbers(v, path, count: 2, what: "a point [x, y]")
    return Point(x: n[0], y: n[1])
  }

  func size(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Size {
    let n = try numbers(v, path, count: 2, what: "a size [width, height]")
    return Size(width: n[0], height: n[1])
  }

  func rect(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Rect {
    let n = try numbers(v, path, count: 4, what: "a rect [x, y, width, height]")
    return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
  }

  /// 16 numbers (m11...m44 row by row), or a list of operations applied to a point in order.
  /// An affine transform distorting more than `GeometryLimits.distortion` is refused.
  func transform(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Transform3D {
    let m = try _transform(v, path)
    if m.isAffine && GeometryLimits.isTooDistorted(m.m11, m.m12, m.m21, m.m22) {
      throw fail(
        path,
        "the transform distorts more than \(GeometryLimits.magnitudeText):1 (its stretches differ by more than the limit; Double cannot resolve hit tests under it)"
      )
    }
    return m
  }

  func _transform(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Transform3D {
    guard case .array(let items) = v else {
      throw fail(path, "expected a transform: 16 numbers or a list of operations, found \(v.typeName)")
    }
    if items.isEmpty { return .identity }
    if case .object = items[0] {
      var m = Transform3D.identity
      for (k, item) in items.enumerated() {
        m = Transform3D.concat(m, try operation(item, "\(path)[\(k)]"))
      }
      return m
    }
    let n = try numbers(v, path, count: 16, what: "a transform matrix m11...m44")
    return Transform3D(elements: n)!
  }

  func operation(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Transform3D {
    let names = "translate, scale, rotate or perspective"
    guard case .object(let members) = v, members.count == 1 else {
      throw fail(
        path, "expected one operation object ({\"\(names.split(separator: ",")[0])\": ...}), found \(v.typeName)")
    }
    let (name, arg) = members[0]
    let p = "\(path).\(name)"
    switch name {
    case "translate":
      let n = try numbers(arg, p, count: 3, what: "[x, y, z]")
      return .translation(n[0], n[1], n[2])
    case "scale":
      let n = try numbers(arg, p, count: 3, what: "[x, y, z]")
      return .scale(n[0], n[1], n[2])
    case "rotate":
      let n = try numbers(arg, p, count: 4, what: "[radians, x, y, z]")
      return .rotation(n[0], n[1], n[2], n[3])
    case "perspective":
      let d = try geometric(arg, p)
      let m = Transform3D.perspective(d)
      if m.m34.isFinite && abs(m.m34) > GeometryLimits.magnitude {
        throw fail(p, "a perspective distance of \(d) gives m34 beyond the limit \(GeometryLimits.magnitudeText)")
      }
      return m
    default:
      throw fail(p, "unknown transform operation '\(name)' (expected \(names))")
    }
  }

  /// Rejects keys outside `known`, naming the first unknown one and the valid keys.
  func checkKeys(_ members: [(String, JSONValue)], known: [String], _ path: String, what: String)
    throws(SceneFileError)
  {
    for (key, _) in members where !known.contains(key) {
      throw fail(
        "\(path).\(Self.shown(key))",
        "unknown key '\(Self.shown(key))' in \(what) (expected one of: \(known.joined(separator: ", ")))")
    }
    var seen = Set<String>()
    for (key, _) in members where !seen.insert(key).inserted {
      throw fail("\(path).\(key)", "duplicate key '\(key)'")
    }
  }

  /// The CAMediaTiming keys shared by layers and animations.
  static let timingKeys = [
    "beginTime", "timeOffset", "speed", "duration", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
  ]

  func timing(_ members: [(String, JSONValue)], _ path: String, into t: inout MediaTiming) throws(SceneFileError) {
    for (key, value) in members {
      let p = "\(path).\(key)"
      switch key {
      case "beginTime": t.beginTime = try finite(value, p)
      case "timeOffset": t.timeOffset = try finite(value, p)
      case "speed": t.speed = try finite(value, p)
      case "duration":
        let d = try number(value, p)
        guard d >= 0, !d.isNaN else { throw fail(p, "expected a duration >= 0, found \(d)") }
        t.duration = d
      case "repeatCount":
        let r = try number(value, p)
        guard r >= 0, !r.isNaN else { throw fail(p, "expected a repeat count >= 0 or \"infinity\", found \(r)") }
        t.repeatCount = r
      case "repeatDuration":
        let r = try number(value, p)
        guard r >= 0, !r.isNaN else { throw fail(p, "expected a repeat duration >= 0, found \(r)") }
        t.repeatDuration = r
      case "autoreverses": t.autoreverses = try bool(value, p)
      case "fillMode":
        let s = try string(value, p)
        guard let m = FillMode(rawValue: s) else {
          throw fail(p, "unknown fill mode '\(s)' (expected removed, forwards, backwards or both)")
        }
        t.fillMode = m
      default: break
      }
    }
  }

  func finite(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Double {
    let d = try number(v, path)
    guard d.isFinite else { throw fail(path, "expected a finite number, found \(d)") }
    return d
  }
}

/// Turns model values back into JSON values, mirroring `_ValueDecoder`.
enum _ValueEncoder {
  static func number(_ v: Double) -> JSONValue {
    if v.isNaN { return .string("nan") }
    if v.isInfinite { return .string(v > 0 ? "infinity" : "-infinity") }
    return .number(v)
  }
  static func point(_ p: Point) -> JSONValue { .array([number(p.x), number(p.y)]) }
  static func size(_ s: Size) -> JSONValue { .array([number(s.width), number(s.height)]) }
  static func rect(_ r: Rect) -> JSONValue {
    .array([number(r.origin.x), number(r.origin.y), number(r.size.width), number(r.size.height)])
  }
  static func transform(_ m: Transform3D) -> JSONValue { .array(m.elements.map(number)) }

  static func timing(_ t: MediaTiming, defaults d: MediaTiming) -> [(String, JSONValue)] {
    var out: [(String, JSONValue)] = []
    if t.beginTime != d.beginTime { out.append(("beginTime", number(t.beginTime))) }
    if t.timeOffset != d.timeOffset { out.append(("timeOffset", number(t.timeOffset))) }
    if t.speed != d.speed { out.append(("speed", number(t.speed))) }
    if t.duration != d.duration { out.append(("duration", number(t.duration))) }
    if t.repeatCount != d.repeatCount { out.append(("repeatCount", number(t.repeatCount))) }
    if t.repeatDuration != d.repeatDuration { out.append(("repeatDuration", number(t.repeatDuration))) }
    if t.autoreverses != d.autoreverses { out.append(("autoreverses", .bool(t.autoreverses))) }
    if t.fillMode != d.fillMode { out.append(("fillMode", .string(t.fillMode.rawValue))) }
    return out
  }
}
