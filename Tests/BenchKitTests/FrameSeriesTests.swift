import BenchKit
import Testing

/// A result's frames one by one, binned for a picture by their slowest frame.
@Suite struct FrameSeriesTests {
  static func timings(_ frames: [UInt64]) -> [FrameTiming] {
    frames.map { ns in
      var t = FrameTiming()
      t.presentationNs = ns / 2
      t.updateNs = ns / 4
      t.queriesNs = ns - ns / 2 - ns / 4
      t.cpuThreadNs = ns
      t.cpuNs = ns + 7
      return t
    }
  }

  @Test func shortRunsKeepEveryFrame() {
    let s = FrameSeries(Self.timings([5, 9, 1, 3]), maxPoints: 10)
    #expect(s.stride == 1 && s.firstFrame == [0, 1, 2, 3])
    #expect(s.frameNs == [5, 9, 1, 3] && s.cpuHelpersNs == [7, 7, 7, 7])
    #expect(zip(zip(s.buildNs, s.updateNs), s.queriesNs).map { $0.0 + $0.1 + $1 } == s.frameNs)
  }

  @Test func longRunsKeepEachBinsSlowestFrame() {
    var frames = [UInt64](repeating: 100, count: 1000)
    frames[777] = 90_000
    frames[5] = 400
    let s = FrameSeries(Self.timings(frames), maxPoints: 100)
    #expect(s.stride == 10 && s.frameNs.count == 100 && s.firstFrame[77] == 770)
    #expect(s.frameNs[77] == 90_000 && s.frameNs[0] == 400 && s.frameNs.max() == 90_000)
    // A count that does not divide: the last bin is shorter, nothing is lost.
    let odd = FrameSeries(Self.timings([UInt64](repeating: 1, count: 1001)), maxPoints: 100)
    #expect(odd.stride == 11 && odd.frameNs.count == 91 && odd.firstFrame.last == 990)
  }
}
