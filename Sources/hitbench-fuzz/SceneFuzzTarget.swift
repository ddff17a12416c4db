import HitTesting
import LayerModel
import Presentation
import SceneFormat
import Verification

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// One fuzz input: bytes read as a scene file; a scene that reads is built at a time taken
/// from its own bytes (now and then one Double can barely resolve) under each semantics preset
/// and on both trees, and points on and around its layers are hit-tested by every strategy and
/// judged against tree-walk by the reference oracle. Anything but a clean error or agreement is
/// a finding: a crash, a hang (libFuzzer's timeout), an AddressSanitizer report, or the trap
/// below on a disagreement.
func fuzzOne(_ bytes: [UInt8]) {
  guard let model = try? SceneFile.decode(bytes: bytes, file: "<fuzz>") else { return }
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
  let huge = [1e13, 1e15, 1e17, 1e300, -1e300, -1e15]
  let time = hash % 16 == 0 ? huge[Int(hash / 16 % UInt64(huge.count))] : Double(hash % 4096) / 512
  for semantics in HitTestSemantics.presets {
    for tree in HitTestTree.allCases {
      fuzzOne(model, time: time, semantics: semantics, tree: tree, hash: hash)
    }
  }
}

func fuzzOne(_ model: Layer, time: Double, semantics: HitTestSemantics, tree: HitTestTree, hash: UInt64) {
  do {
    let builder = PresentationFrameBuilder(root: model, semantics: semantics)
    let frame = builder.build(at: time, animated: tree.isAnimated)
    guard frame.count <= 2000 else { return }
    var rng = SplitMix64Lite(hash)
    var points: [Point] = []
    for r in 0..<frame.count {
      let x0 = frame.worldBox[r].minX.isFinite ? frame.worldBox[r].minX : 0
      let y0 = frame.worldBox[r].minY.isFinite ? frame.worldBox[r].minY : 0
      let x1 = frame.worldBox[r].maxX.isFinite ? frame.worldBox[r].maxX : 100
      let y1 = frame.worldBox[r].maxY.isFinite ? frame.worldBox[r].maxY : 100
      for _ in 0..<3 { points.append(Point(x0 + (x1 - x0) * rng.unit(), y0 + (y1 - y0) * rng.unit())) }
      points.append(Point(x0, y0))
    }
    let reference = StrategyKind.treeWalk.answers(builder, points, animated: tree.isAnimated)
    let oracle = ReferenceOracle(builder: builder, tree: tree)
    for kind in StrategyKind.allCases where kind != .treeWalk {
      let got = kind.answers(builder, points, animated: tree.isAnimated)
      for i in points.indices
      where AnswerComparison.compare(got[i], reference[i], at: points[i], oracle: oracle).isDisagreement {
        fatalError(
          "\(kind.rawValue) under \(semantics.name), \(tree.rawValue) tree, at t=\(time), point \(points[i]): \(String(describing: got[i])), tree-walk \(String(describing: reference[i]))"
        )
      }
    }
  }
}

/// A tiny SplitMix64 for point placement (the Scenes module's generator is not needed here).
struct SplitMix64Lite {
  var state: UInt64
  init(_ seed: UInt64) { state = seed }
  mutating func unit() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzOne(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}

#if HITBENCH_FUZZER
  /// libFuzzer's driver, entered from this executable's own entry point (SwiftPM names it
  /// `hitbench_fuzz_main`, so libFuzzer's `main` cannot be used directly).
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
  ) -> CInt

  @_cdecl("hitbench_fuzz_main")
  func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { LLVMFuzzerTestOneInput($0, $1) }
  }
#else
  /// Without libFuzzer (a normal build): replays the inputs named on the command line, which is
  /// how a finding is reproduced under a debugger.
  @main struct ReplayFuzzInputs {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let f = fopen(path, "rb") else {
          fputs("hitbench-fuzz: cannot read \(path)\n", stderr)
          exit(66)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
          let n = fread(&buffer, 1, buffer.count, f)
          if n == 0 { break }
          bytes += buffer[0..<n]
        }
        fclose(f)
        fuzzOne(bytes)
        print("\(path): no finding")
      }
    }
  }
#endif
