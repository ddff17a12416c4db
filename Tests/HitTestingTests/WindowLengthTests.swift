import Foundation
import Testing

@testable import HitTesting

/// The window length chosen by cost, fed windows whose costs follow a model (no clock, no
/// scene): a build of `build` ns a window on the background thread, 1000 queries a frame at
/// 120 Hz, each testing 1 + 0.5 (L / 50 ms)^g candidates at 60 ns. Counting the CPU, the length
/// settles where the model's CPU per frame is least, and stays there; counting the wall time,
/// it settles shorter (the build at a tenth).
@Suite struct WindowLengthTests {
  static let queries = 1000.0

  /// CPU per frame of a window of `length` seconds under the model (ns); counting the wall
  /// time, the build at a tenth (`WindowLength.backgroundWeight`: it runs on the second core,
  /// and at 8.3 ms a frame it never makes a frame wait).
  static func cpuPerFrame(_ length: Double, build: Double, growth g: Double, buildWeight: Double = 1) -> Double {
    buildWeight * build / (120 * length) + queries * 60 * (1 + 0.5 * pow(length / 0.05, g))
  }

  /// The least of the model over the lengths a window may take.
  static func least(build: Double, growth: Double, buildWeight: Double = 1) -> Double {
    stride(from: log(WindowLength.minimum), through: log(WindowLength.maximum), by: 0.01)
      .map { cpuPerFrame(exp($0), build: build, growth: growth, buildWeight: buildWeight) }.min()!
  }

  /// The lengths chosen after each of `windows` windows, each measured over the window that
  /// ran (posted one decision earlier, as `_WindowedState` posts the next window ahead).
  static func lengths(_ cost: WindowCost, build: Double, growth g: Double, windows: Int = 60) -> [Double] {
    var length = WindowLength(pinned: nil, cost: cost)
    var running = length.seconds
    var wall: UInt64 = 1_000_000
    var clock = 0.0
    var out: [Double] = []
    for _ in 0..<windows {
      let frames = Swift.max(1, Int((running * 120).rounded()))
      for _ in 0..<frames {
        length.frameStarted(wall: wall, clock: clock)
        wall += 8_333_333
        clock += 1.0 / 120
      }
      let perQuery = 1 + 0.5 * pow(running / 0.05, g)
      length.queries = Int(queries) * frames
      length.candidates = Int(queries * Double(frames) * perQuery)
      length.queryNanoseconds = UInt64(Double(length.candidates) * 60)
      let posted = length.seconds
      length.windowEnded(lastBuild: UInt64(build), endedSeconds: running)
      running = posted
      out.append(length.seconds)
    }
    return out
  }

  @Test(arguments: [(2e6, 1.0), (2e6, 2.0), (8e6, 1.5), (5e5, 1.0)])
  func countingTheCPUSettlesAtTheLeastCPU(build: Double, growth: Double) {
    let chosen = Self.lengths(.cpu, build: build, growth: growth)
    let settled = Array(chosen.suffix(15))
    let least = Self.least(build: build, growth: growth)
    for l in settled {
      let cpu = Self.cpuPerFrame(l, build: build, growth: growth)
      #expect(cpu <= least * 1.1, "build \(build), growth \(growth): \(l) s costs \(cpu) ns a frame, least \(least)")
    }
    // Settled: no swing between windows.
    #expect(settled.max()! / settled.min()! < 1.3, "\(settled)")
    // By the wall time the build counts a tenth: shorter windows.
    let wall = Self.lengths(.wall, build: build, growth: growth).suffix(15)
    #expect(wall.max()! < settled.min()!, "wall \(Array(wall)) against cpu \(settled)")
  }

  /// Counting the wall time (the default), the same balance with the build at a tenth: the
  /// length settles where the model's wall time a frame is least, and stays, with queries that
  /// grow slowly or steeply with the length (at a million particles, candidates went from 3 a
  /// query at 150 ms windows to 75 at 400 ms). Each decision is taken on the ended window's own
  /// length: taken on the length in force instead, a window's costs are read as another's, and
  /// the lengths swing (docs/optimisation-log.md, entry 54).
  @Test(arguments: [(2e6, 1.0), (2e6, 2.0), (8e6, 1.5), (5e5, 1.0), (8e6, 3.0)])
  func countingTheWallSettlesAtTheLeastWall(build: Double, growth: Double) {
    let weight = WindowLength.backgroundWeight
    let settled = Array(Self.lengths(.wall, build: build, growth: growth).suffix(15))
    let least = Self.least(build: build, growth: growth, buildWeight: weight)
    for l in settled {
      let wall = Self.cpuPerFrame(l, build: build, growth: growth, buildWeight: weight)
      #expect(wall <= least * 1.1, "build \(build), growth \(growth): \(l) s costs \(wall) ns a frame, least \(least)")
    }
    #expect(settled.max()! / settled.min()! < 1.3, "\(settled)")
  }
}
