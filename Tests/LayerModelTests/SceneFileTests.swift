import Foundation
import SceneFormat
import Scenes
import Testing

@testable import LayerModel

@Suite struct SceneFileTests {
  private func fullScene() -> Layer {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 320, height: 568), position: Point(160, 284))
    let a = Layer(name: "a \"quoted\"\n", bounds: Rect(x: 1, y: 2, width: -3, height: 4.5), position: Point(5, 6))
    a.anchorPoint = Point(0.1, 0.9)
    a.anchorPointZ = 3
    a.zPosition = .nan
    a.transform = Transform3D.concat(.rotation(0.5, 0, 0, 1), .perspective(400))
    a.sublayerTransform = .scale(2, 3, 1)
    a.masksToBounds = true
    a.isHidden = true
    a.opacity = 0.25
    a.isUserInteractionEnabled = false
    a.timing.speed = 2
    a.timing.beginTime = 1
    let b = Layer(bounds: Rect(x: 0, y: 0, width: .infinity, height: 1), position: Point(-1e12, 0))
    let k = KeyframeAnimation(keyPath: .position)
    k.values = [.point(Point(0, 0)), .point(Point(220, 0)), .point(Point(5, 5))]
    k.keyTimes = [0, 0.25, 1]
    k.timingFunctions = [.easeIn, TimingFunction(0.1, 0.2, 0.3, 0.4)]
    k.calculationMode = .cubic
    k.duration = 2
    k.autoreverses = true
    k.repeatCount = .infinity
    k.timingFunction = .linear
    b.add(k, forKey: "move")
    let path = KeyframeAnimation(keyPath: .position)
    path.path = [
      .move(Point(0, 0)), .line(Point(10, 0)), .cubic(Point(1, 2), Point(3, 4), Point(5, 6)),
      .quad(Point(7, 8), Point(9, 10)),
    ]
    path.rotationMode = .autoReverse
    b.add(path, forKey: "path")
    let spring = SpringAnimation(
      keyPath: .boundsSize, from: .size(Size(width: 1, height: 1)), to: .size(Size(width: 9, height: 9)))
    spring.damping = 3
    spring.isRemovedOnCompletion = false
    spring.fillMode = .forwards
    let basic = BasicAnimation(keyPath: .transform, by: .transform(.translation(1, 2, 3)))
    basic.isAdditive = true
    basic.isCumulative = true
    let group = AnimationGroup([spring, basic, BasicAnimation(keyPath: .hidden, to: .bool(true))])
    group.beginTime = 0.5
    b.add(group, forKey: "group")
    root.addSublayer(a)
    a.addSublayer(b)
    root.addSublayer(Layer(name: "empty"))
    return root
  }

  @Test func roundTripKeepsEveryProperty() throws {
    let scene = fullScene()
    let text = SceneFile.encode(scene)
    let back = try SceneFile.decode(text)
    // Writing the read-back scene gives the same text: nothing was lost or changed.
    #expect(SceneFile.encode(back) == text)
    let a = back.sublayers[0]
    #expect(a.name == "a \"quoted\"\n")
    #expect(a.bounds == Rect(x: 1, y: 2, width: -3, height: 4.5))
    #expect(a.zPosition.isNaN && a.isHidden && a.masksToBounds && !a.isUserInteractionEnabled)
    #expect(a.transform == scene.sublayers[0].transform)
    #expect(a.timing.speed == 2)
    let b = a.sublayers[0]
    #expect(b.bounds.size.width == .infinity && b.position.x == -1e12)
    #expect(b.animationKeys() == ["move", "path", "group"])
    let k = try #require(b.animation(forKey: "move") as? KeyframeAnimation)
    #expect(k.calculationMode == .cubic && k.keyTimes == [0, 0.25, 1] && k.repeatCount == .infinity)
    #expect(k.timingFunctions == [.easeIn, TimingFunction(0.1, 0.2, 0.3, 0.4)])
  }

  @Test func realScenesReadAndRoundTrip() throws {
    for name in [
      "appleid_signin_sheet", "introlevels_tabbar", "mail_compose_ios5", "photos_picker_grid",
      "search_display_active", "wechat_chat_truncated", "seed-layers", "seed-move",
    ] {
      let scene = try SceneFile.read(path: repoPath("data/scenes/\(name).json"))
      let again = try SceneFile.decode(SceneFile.encode(scene))
      #expect(SceneFile.encode(again) == SceneFile.encode(scene), "\(name)")
      #expect(scene.subtreeInPreorder.count > 1, "\(name)")
    }
  }

  @Test func transformOperationsApplyInListOrder() throws {
    let text = """
      {"hitbench": 1, "root": {"bounds": [0,0,10,10], "position": [5,5],
       "transform": [{"scale": [2, 2, 1]}, {"translate": [10, 0, 0]}, {"rotate": [0, 0, 0, 1]}, {"perspective": 500}]}}
      """
    let root = try SceneFile.decode(text)
    let expected = Transform3D.concat(
      Transform3D.concat(Transform3D.concat(.scale(2, 2, 1), .translation(10, 0, 0)), .rotation(0, 0, 0, 1)),
      .perspective(500))
    #expect(root.transform == expected)
  }

  @Test func deepChainReadsAndWrites() throws {
    let root = Layer(name: "root", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(5, 5))
    var node = root
    for _ in 0..<100_000 {
      let next = Layer(bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(5, 5))
      node.addSublayer(next)
      node = next
    }
    let back = try SceneFile.decode(SceneFile.encode(root))
    #expect(back.subtreeInPreorder.count == 100_001)
  }

  /// `SceneFile.write` streams the text a megabyte at a time: the file holds exactly the text
  /// `encode` makes, across chunk boundaries (a scene of several megabytes), and reads back.
  @Test func aWrittenSceneIsItsEncodingByteForByte() throws {
    let model = SceneGenerator(kind: .particles, layers: 8000, seed: 3).make()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hitbench-stream-\(getpid()).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try SceneFile.write(model, to: path)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    let text = SceneFile.encode(model)
    #expect(text.utf8.count > 3 << 20, "the scene spans several chunks")
    #expect(written == text)
    #expect(try SceneFile.decode(written).subtreeInPreorder.count == model.subtreeInPreorder.count)
  }

  /// `generate` streams: a kind that seals its top-level layers hands each over once finished
  /// and keeps only the one being made, and the streamed text (and file) is byte for byte the
  /// text of the whole tree, for every kind, animated fraction and a size that trims.
  @Test func aStreamedSceneIsTheWholeScenesText() throws {
    for kind in SceneKind.allCases {
      for (layers, fraction) in [(1000, 1.0), (777, 0.3)] {
        let generator = SceneGenerator(kind: kind, layers: layers, animatedFraction: fraction, seed: 5)
        var sealed = 0
        var mostHeld = 0
        let streamed = SceneFile.encode(generating: { seal in
          generator.make { root, child in
            sealed += 1
            mostHeld = max(mostHeld, root.sublayers.count)
            seal(root, child)
          }
        })
        let same = streamed == SceneFile.encode(generator.make())
        #expect(same, "\(kind) \(layers): the streamed text differs")
        if generator.sealsTopLevelLayers {
          #expect(sealed > layers / 10, "\(kind): top-level layers handed over")
          #expect(mostHeld == 1, "\(kind): the root holds one top-level layer at a time")
        } else {
          #expect(sealed == 0, "\(kind) does not seal")
        }
      }
    }
    let generator = SceneGenerator(kind: .particles, layers: 3000, seed: 9)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hitbench-sealed-\(getpid()).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try SceneFile.write(to: path, generating: { generator.make(sealing: $0) })
    let same = try String(contentsOfFile: path, encoding: .utf8) == SceneFile.encode(generator.make())
    #expect(same, "the streamed file differs")
  }

  private func error(_ text: String) -> SceneFileError? {
    do {
      _ = try SceneFile.decode(text, file: "bad.json")
      return nil
    } catch {
      return error
    }
  }

  @Test func eachClassOfBadFileHasItsError() throws {
    let layer = #""bounds": [0,0,1,1], "position": [0,0]"#
    let cases: [(String, String, String)] = [
      ("", "", "empty"),
      ("{\"hitbench\": 1, \"root\": {\(layer)", "", "invalid JSON"),
      ("[1, 2]", "", "expected a JSON object"),
      ("{\"root\": {\(layer)}}", "hitbench", "missing 'hitbench'"),
      ("{\"hitbench\": 2, \"root\": {\(layer)}}", "hitbench", "unsupported format version"),
      ("{\"hitbench\": 1}", "root", "missing 'root'"),
      ("{\"hitbench\": 1, \"root\": 3}", "root", "expected a layer object"),
      ("{\"hitbench\": 1, \"extra\": 1, \"root\": {\(layer)}}", "extra", "unknown key 'extra'"),
      ("{\"hitbench\": 1, \"root\": {\"position\": [0,0]}}", "root", "missing 'bounds'"),
      ("{\"hitbench\": 1, \"root\": {\"bounds\": [0,0,1,1]}}", "root", "missing 'position'"),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"sublayers\": [{\(layer)}, {\"bounds\": [0,0,1], \"position\": [0,0]}]}}",
        "root.sublayers[1].bounds", "expected a rect"
      ),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"opacity\": \"x\"}}", "root.opacity", "expected a number"),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"hidden\": 1}}", "root.hidden", "expected true or false"),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"colour\": 1}}", "root.colour", "unknown key 'colour'"),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"sublayers\": 4}}", "root.sublayers",
        "expected an array of layer objects"
      ),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"sublayers\": [5]}}", "root.sublayers[0]", "expected a layer object"),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"transform\": [1,2,3]}}", "root.transform", "16 numbers"),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"transform\": [{\"spin\": 1}]}}", "root.transform[0].spin",
        "unknown transform operation"
      ),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"bounds\": [0,0,1,1]}}", "root.bounds", "duplicate key"),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"keyPath\": \"position\"}}}}",
        "root.animations.m",
        "missing 'type'"
      ),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"type\": \"basic\", \"keyPath\": \"color\"}}}}",
        "root.animations.m.keyPath", "unknown key path"
      ),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"type\": \"basic\", \"keyPath\": \"position\", \"toValue\": 3}}}}",
        "root.animations.m.toValue", "expected a point"
      ),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"type\": \"keyframe\", \"keyPath\": \"opacity\", \"values\": [0, 1], \"keyTimes\": [0]}}}}",
        "root.animations.m", "keyTimes has 1 entries for 2 values"
      ),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"duration\": -1}}}}",
        "root.animations.m.duration", "expected a duration >= 0"
      ),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"timingFunction\": \"bouncy\"}}}}",
        "root.animations.m.timingFunction", "unknown timing function"
      ),
      (
        "{\"hitbench\": 1, \"root\": {\(layer), \"animations\": {\"m\": {\"type\": \"spring\", \"keyPath\": \"opacity\", \"mass\": 0}}}}",
        "root.animations.m.mass", "expected a number > 0"
      ),
      ("{\"hitbench\": 1, \"root\": {\(layer), \"fillMode\": \"sideways\"}}", "root.fillMode", "unknown fill mode"),
    ]
    for (text, path, message) in cases {
      let e = try #require(error(text), "no error for \(text)")
      #expect(e.file == "bad.json")
      #expect(e.path == path, "\(text)")
      #expect(e.message.contains(message), "\(e.message) for \(text)")
    }
    var missing: SceneFileError?
    do { _ = try SceneFile.read(path: "/nonexistent/scene.json") } catch { missing = error }
    let readError = try #require(missing)
    #expect(readError.description.contains("/nonexistent/scene.json"))
  }

  @Test func hostileNestingIsAnErrorNotACrash() {
    let deepArray = String(repeating: "[", count: 100_000)
    #expect(error("{\"hitbench\": 1, \"root\": {\"bounds\": \(deepArray)}}") != nil)
  }
}
