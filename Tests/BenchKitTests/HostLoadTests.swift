import BenchKit
import Foundation
import Testing

/// The host's other work during a run: read from the machine's busy time less the process's
/// own, and a time measured while it was high judged as the busy host's.
@Suite struct HostLoadTests {
  /// Another process spinning for half a second shows as other work (with whatever else the
  /// host ran meanwhile); the process's own CPU time is taken out of the machine's busy time.
  @Test func otherWorkIsCountedAndOwnWorkIsNot() throws {
    let start = HostLoad.now()
    let spinner = Process()
    spinner.executableURL = URL(fileURLWithPath: "/bin/sh")
    spinner.arguments = ["-c", "end=$(($(date +%s%N) + 500000000)); while [ $(date +%s%N) -lt $end ]; do :; done"]
    try spinner.run()
    spinner.waitUntilExit()
    let other = try #require(HostLoad.now().otherCores(since: start))
    #expect(other > 0.3, "a spinning process: \(other) cores of other work")

    // Two seconds of wall time with 3 s of the machine busy, 2 s of it this process's: half a
    // core of other work; this process busier than the machine (clocks read apart): none.
    let tick = HostLoad.ticksPerSecond
    let a = HostLoad(busyTicks: 1000, ownCPUNs: 5_000_000_000, wallNs: 10_000_000_000)
    let b = HostLoad(busyTicks: 1000 + UInt64(3 * tick), ownCPUNs: 7_000_000_000, wallNs: 12_000_000_000)
    #expect(abs(try #require(b.otherCores(since: a)) - 0.5) < 1e-9)
    let c = HostLoad(busyTicks: 1000 + UInt64(tick), ownCPUNs: 7_000_000_000, wallNs: 12_000_000_000)
    #expect(c.otherCores(since: a) == 0)
    #expect(HostLoad(busyTicks: nil, ownCPUNs: 0, wallNs: 1).otherCores(since: a) == nil)
  }

  /// An absolute time measured while the host ran other work can be missed by no margin: a
  /// quiet host may be faster by any factor. Twice the limit is undecided, half the limit is
  /// still met; on a quiet host twice the limit is not met.
  @Test func aBusyHostCannotMissAnAbsoluteTarget() throws {
    func verdict(_ perLayer: Double, otherCores: Double) throws -> TargetVerdict {
      var m = try BlockBootstrapTests.result("grid", [1])
      let frames = (0..<40).map { _ in perLayer * Double(m.layers) }
      m = try BlockBootstrapTests.result("grid", frames, build: true)
      m.hostOtherCores = otherCores
      return Target.atMost("t", ResultQuery(strategy: "grid"), .presentationNsPerLayer, 70).evaluate([m])
    }
    let busySlow = try verdict(140, otherCores: 1.5)
    #expect(busySlow.status == .undecided, "\(busySlow.measured)")
    #expect(busySlow.measured.contains("1.5 cores of other work"), "\(busySlow.measured)")
    #expect(try verdict(35, otherCores: 1.5).status == .met)
    #expect(try verdict(140, otherCores: 0.02).status == .notMet)
  }
}
