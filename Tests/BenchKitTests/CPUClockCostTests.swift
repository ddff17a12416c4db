import Clocks
import HitTesting
import LayerModel
import Presentation
import Testing

@testable import BenchKit

/// A frame's CPU time is the thread CPU clock's reading around it less what reading that clock
/// adds (`FrameLoop.cpuClockCostNs`, calibrated by `Clocks.threadCPUReadCost`): the harness's
/// own readings are not the strategy's work, and at a 13 us frame they were a tenth of it.
@Suite struct CPUClockCostTests {
  final class Timings: FrameLoopHooks {
    var cpuThread: [UInt64] = []
    func frameWillStart(_ index: Int) {}
    func blockDidEnd() {}
    func frameDidEnd(
      _ index: Int, time: Double, timing: FrameTiming, points: UnsafeBufferPointer<Point>,
      answers: UnsafeBufferPointer<LayerID?>
    ) { cpuThread.append(timing.cpuThreadNs) }
  }

  /// Reading the clock costs something (a system call), and less than a frame's budget.
  @Test(arguments: [false, true])
  func readingTheCPUClockCostsAFewHundredNanoseconds(afterSleep: Bool) {
    let cost = Clocks.threadCPUReadCost(afterSleep: afterSleep, samples: 11)
    #expect(cost > 0 && cost < 1_000_000, "\(cost) ns")
  }

  /// The cost is taken off every frame's reading, and a reading below it counts as nothing.
  @Test func eachFramesCPUTimeIsItsReadingLessTheClocksCost() {
    var loop = InterleavingTests.loop(frames: 12, queries: 20)
    let raw = Timings()
    _ = loop.run(.grid, hooks: raw)
    #expect(raw.cpuThread.count == 12 && raw.cpuThread.allSatisfy { $0 > 0 })
    loop.cpuClockCostNs = 1 << 40
    let net = Timings()
    _ = loop.run(.grid, hooks: net)
    #expect(net.cpuThread.count == 12 && net.cpuThread.allSatisfy { $0 == 0 }, "\(net.cpuThread)")
  }
}
