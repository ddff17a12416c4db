import JSON
import LayerModel

extension _ValueDecoder {
  static let animationKeys =
    [
      "type", "keyPath", "fromValue", "toValue", "byValue", "values", "keyTimes", "timingFunctions",
      "calculationMode", "path", "rotationMode", "additive", "cumulative", "timingFunction", "removedOnCompletion",
      "mass", "stiffness", "damping", "initialVelocity", "animations",
    ] + timingKeys

  /// `{"key": animation, ...}` in the order the layer adds them.
  func animations(_ v: JSONValue, _ path: String) throws(SceneFileError) -> [(String, Animation)] {
    guard case .object(let members) = v else {
      throw fail(path, "expected an object of animations keyed by name, found \(v.typeName)")
    }
    var out: [(String, Animation)] = []
    var seen = Set<String>()
    for (key, value) in members {
      guard seen.insert(key).inserted else {
        throw fail("\(path).\(Self.shown(key))", "duplicate animation name '\(Self.shown(key))'")
      }
      out.append((key, try animation(value, "\(path).\(Self.shown(key))")))
    }
    return out
  }

  func animation(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Animation {
    guard case .object(let members) = v else { throw fail(path, "expected an animation object, found \(v.typeName)") }
    try checkKeys(members, known: Self.animationKeys, path, what: "an animation")
    guard let typeValue = v["type"] else {
      throw fail(path, "missing 'type' (expected basic, keyframe, spring or group)")
    }
    let type = try string(typeValue, "\(path).type")
    let anim: Animation
    switch type {
    case "group":
      var children: [Animation] = []
      if let list = v["animations"] {
        guard case .array(let items) = list else {
          throw fail("\(path).animations", "expected an array of animations, found \(list.typeName)")
        }
        for (k, item) in items.enumerated() { children.append(try animation(item, "\(path).animations[\(k)]")) }
      }
      anim = AnimationGroup(children)
    case "basic", "spring", "keyframe":
      guard let kpValue = v["keyPath"] else { throw fail(path, "missing 'keyPath'") }
      let kpName = try string(kpValue, "\(path).keyPath")
      guard let keyPath = AnimatableKeyPath(rawValue: kpName) else {
        throw fail(
          "\(path).keyPath",
          "unknown key path '\(kpName)' (expected one of: \(AnimatableKeyPath.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      let property: PropertyAnimation
      if type == "keyframe" {
        property = try keyframe(v, path, keyPath)
      } else {
        let basic = type == "spring" ? SpringAnimation(keyPath: keyPath) : BasicAnimation(keyPath: keyPath)
        if let x = v["fromValue"] { basic.fromValue = try value(x, "\(path).fromValue", keyPath) }
        if let x = v["toValue"] { basic.toValue = try value(x, "\(path).toValue", keyPath) }
        if let x = v["byValue"] { basic.byValue = try value(x, "\(path).byValue", keyPath) }
        if let spring = basic as? SpringAnimation {
          if let x = v["mass"] { spring.mass = try positive(x, "\(path).mass") }
          if let x = v["stiffness"] { spring.stiffness = try positive(x, "\(path).stiffness") }
          if let x = v["damping"] {
            let d = try finite(x, "\(path).damping")
            guard d >= 0 else { throw fail("\(path).damping", "expected a damping >= 0, found \(d)") }
            spring.damping = d
          }
          if let x = v["initialVelocity"] { spring.initialVelocity = try finite(x, "\(path).initialVelocity") }
        }
        property = basic
      }
      if let x = v["additive"] { property.isAdditive = try bool(x, "\(path).additive") }
      if let x = v["cumulative"] { property.isCumulative = try bool(x, "\(path).cumulative") }
      anim = property
    default:
      throw fail("\(path).type", "unknown animation type '\(type)' (expected basic, keyframe, spring or group)")
    }
    try timing(members, path, into: &anim.timing)
    if let x = v["timingFunction"] { anim.timingFunction = try timingFunction(x, "\(path).timingFunction") }
    if let x = v["removedOnCompletion"] { anim.isRemovedOnCompletion = try bool(x, "\(path).removedOnCompletion") }
    if type != "keyframe" {
      for key in ["values", "keyTimes", "timingFunctions", "calculationMode", "path", "rotationMode"]
      where v[key] != nil {
        throw fail("\(path).\(key)", "'\(key)' belongs to keyframe animations, not '\(type)'")
      }
    }
    return anim
  }

  func positive(_ v: JSONValue, _ path: String) throws(SceneFileError) -> Double {
    let d = try finite(v, path)
    guard d > 0 else { throw fail(path, "expected a number > 0, found \(d)") }
    return d
  }

  func keyframe(_ v: JSONValue, _ path: String, _ keyPath: AnimatableKeyPath) throws(SceneFileError)
    -> KeyframeAnimation
  {
    let k = KeyframeAnimation(keyPath: keyPath)
    if let x = v["calculationMode"] {
      let s = try string(x, "\(path).calculationMode")
      guard let mode = CalculationMode(rawValue: s) else {
        throw fail(
          "\(path).calculationMode",
          "unknown calculation mode '\(s)' (expected \(CalculationMode.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      k.calculationMode = mode
    }
    if let x = v["values"] {
      guard case .array(let items) = x else { throw fail("\(path).values", "expected an array, found \(x.typeName)") }
      var values: [AnimatableValue] = []
      for (i, item) in items.enumerated() { values.append(try value(item, "\(path).values[\(i)]", keyPath)) }
      k.values = values
    }
    if let x = v["keyTimes"] {
      guard case .array(let items) = x else { throw fail("\(path).keyTimes", "expected an array, found \(x.typeName)") }
      var times: [Double] = []
      for (i, item) in items.enumerated() { times.append(try number(item, "\(path).keyTimes[\(i)]")) }
      k.keyTimes = times
    }
    if let x = v["timingFunctions"] {
      guard case .array(let items) = x else {
        throw fail("\(path).timingFunctions", "expected an array, found \(x.typeName)")
      }
      var fs: [TimingFunction] = []
      for (i, item) in items.enumerated() { fs.append(try timingFunction(item, "\(path).timingFunctions[\(i)]")) }
      k.timingFunctions = fs
    }
    if let x = v["path"] {
      guard keyPath.valueKind == "point" else {
        throw fail("\(path).path", "a path animates a point property, not '\(keyPath.rawValue)'")
      }
      k.path = try pathElements(x, "\(path).path")
    }
    if let x = v["rotationMode"] {
      let s = try string(x, "\(path).rotationMode")
      guard let mode = RotationMode(rawValue: s) else {
        throw fail("\(path).rotationMode", "unknown rotation mode '\(s)' (expected auto or autoReverse)")
      }
      k.rotationMode = mode
    }
    if let problem = k.validationError { throw fail(path, problem) }
    return k
  }

  /// A polyline `[[x, y], ...]`, or elements `{"move": [x,y]}`, `{"line": [x,y]}`,
  /// `{"quad": [cx,cy,x,y]}`, `{"cubic": [c1x,c1y,c2x,c2y,x,y]}`.
  func pathElements(_ v: JSONValue, _ path: String) throws(SceneFileError) -> [PathElement] {
    guard case .array(let items) = v, !items.isEmpty else {
      throw fail(path, "expected a non-empty array of points or path elements, found \(describe(v))")
    }
    var out: [PathElement] = []
    for (i, item) in items.enumerated() {
      let p = "\(path)[\(i)]"
      if case .array = item {
        let pt = try point(item, p)
        out.append(i == 0 ? .move(pt) : .line(pt))
        continue
      }
      guard case .object(let members) = item, members.count == 1 else {
        throw fail(
          p, "expected a point or one of {\"move\"|\"line\"|\"quad\"|\"cubic\": [...]}, found \(item.typeName)")
      }
      let (name, arg) = members[0]
      switch name {
      case "move": out.append(.move(try point(arg, "\(p).move")))
      case "line": out.append(.line(try point(arg, "\(p).line")))
      case "quad":
        let n = try numbers(arg, "\(p).quad", count: 4, what: "[cx, cy, x, y]")
        out.append(.quad(Point(n[0], n[1]), Point(n[2], n[3])))
      case "cubic":
        let n = try numbers(arg, "\(p).cubic", count: 6, what: "[c1x, c1y, c2x, c2y, x, y]")
        out.append(.cubic(Point(n[0], n[1]), Point(n[2], n[3]), Point(n[4], n[5])))
      default: throw fail("\(p).\(name)", "unknown path element '\(name)' (expected move, line, quad or cubic)")
      }
    }
    return out
  }

  /// A named curve or `[c1x, c1y, c2x, c2y]`.
  func timingFunction(_ v: JSONValue, _ path: String) throws(SceneFileError) -> TimingFunction {
    if case .string(let name) = v {
      guard let f = TimingFunction(named: name) else {
        throw fail(
          path,
          "unknown timing function '\(name)' (expected \(TimingFunction.named.map(\.name).joined(separator: ", ")) or [c1x, c1y, c2x, c2y])"
        )
      }
      return f
    }
    let n = try numbers(v, path, count: 4, what: "a timing function [c1x, c1y, c2x, c2y]")
    for (i, x) in n.enumerated() where !x.isFinite {
      throw fail("\(path)[\(i)]", "expected a finite control point coordinate")
    }
    return TimingFunction(n[0], n[1], n[2], n[3])
  }

  /// A value of the key path's kind.
  func value(_ v: JSONValue, _ path: String, _ keyPath: AnimatableKeyPath) throws(SceneFileError)
    -> AnimatableValue
  {
    switch keyPath.valueKind {
    case "point": return .point(try point(v, path))
    case "size": return .size(try size(v, path))
    case "rect": return .rect(try rect(v, path))
    case "transform": return .transform(try transform(v, path))
    case "boolean": return .bool(try bool(v, path))
    default: return .scalar(try geometric(v, path))
    }
  }
}

extension _ValueEncoder {
  static func value(_ v: AnimatableValue) -> JSONValue {
    switch v {
    case .scalar(let d): number(d)
    case .point(let p): point(p)
    case .size(let s): size(s)
    case .rect(let r): rect(r)
    case .transform(let m): transform(m)
    case .bool(let b): .bool(b)
    }
  }

  static func timingFunction(_ f: TimingFunction) -> JSONValue {
    if let name = f.name { return .string(name) }
    return .array([number(f.c1x), number(f.c1y), number(f.c2x), number(f.c2y)])
  }

  static func animation(_ a: Animation) -> JSONValue {
    var m: [(String, JSONValue)] = []
    switch a {
    case let g as AnimationGroup:
      m.append(("type", .string("group")))
      m.append(("animations", .array(g.animations.map(animation))))
    case let k as KeyframeAnimation:
      m.append(("type", .string("keyframe")))
      m.append(("keyPath", .string(k.keyPath.rawValue)))
      if !k.values.isEmpty || k.path == nil { m.append(("values", .array(k.values.map(value)))) }
      if let kt = k.keyTimes { m.append(("keyTimes", .array(kt.map(number)))) }
      if let tf = k.timingFunctions { m.append(("timingFunctions", .array(tf.map(timingFunction)))) }
      if k.calculationMode != .linear { m.append(("calculationMode", .string(k.calculationMode.rawValue))) }
      if let path = k.path { m.append(("path", .array(path.map(pathElement)))) }
      if let r = k.rotationMode { m.append(("rotationMode", .string(r.rawValue))) }
    case let b as BasicAnimation:
      m.append(("type", .string(b is SpringAnimation ? "spring" : "basic")))
      m.append(("keyPath", .string(b.keyPath.rawValue)))
      if let x = b.fromValue { m.append(("fromValue", value(x))) }
      if let x = b.toValue { m.append(("toValue", value(x))) }
      if let x = b.byValue { m.append(("byValue", value(x))) }
      if let s = b as? SpringAnimation {
        m.append(("mass", number(s.mass)))
        m.append(("stiffness", number(s.stiffness)))
        m.append(("damping", number(s.damping)))
        m.append(("initialVelocity", number(s.initialVelocity)))
      }
    default:
      m.append(("type", .string("group")))
    }
    if let p = a as? PropertyAnimation {
      if p.isAdditive { m.append(("additive", .bool(true))) }
      if p.isCumulative { m.append(("cumulative", .bool(true))) }
    }
    m.append(contentsOf: timing(a.timing, defaults: MediaTiming()))
    if let f = a.timingFunction { m.append(("timingFunction", timingFunction(f))) }
    if !a.isRemovedOnCompletion { m.append(("removedOnCompletion", .bool(false))) }
    return .object(m)
  }

  static func pathElement(_ e: PathElement) -> JSONValue {
    switch e {
    case .move(let p): .object([("move", point(p))])
    case .line(let p): .object([("line", point(p))])
    case .quad(let c, let p): .object([("quad", .array([c.x, c.y, p.x, p.y].map(number)))])
    case .cubic(let a, let b, let p): .object([("cubic", .array([a.x, a.y, b.x, b.y, p.x, p.y].map(number)))])
    }
  }
}
