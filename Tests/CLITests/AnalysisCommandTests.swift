import Foundation
import Testing

@Suite struct AnalysisCommandTests {
  @Test func mismatchCountsModelTreeMistakes() throws {
    let r = try hitbench([
      "mismatch", "--scene", "particles,wide", "--layers", "200", "--frames", "5", "--queries", "50", "--format", "csv",
    ])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.first == "scene,layers,frames,queries,differ,fraction" && lines.count == 3)
    // Every particle moves along its path: the model tree answers differently for some points.
    let particles = lines[1].split(separator: ",")
    #expect(particles[0] == "particles" && Int(particles[4])! > 0)
  }

  @Test func scanbenchCountsAgreeAndReportsBoth() throws {
    let r = try hitbench(["scanbench", "--scene", "particles", "--layers", "300", "--repeats", "2"])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 2 && lines[0].hasPrefix("scene,layers,boxes,simdNsPerBox"))
  }

  @Test func usageErrors() throws {
    for args in [["mismatch", "--scene", "forest"], ["scanbench", "--layers", "1"], ["mismatch", "--format", "xml"]] {
      let r = try hitbench(args)
      #expect(r.status == 64, "\(args)")
      #expect(r.stderr.contains(args[1]), "\(args): \(r.stderr)")
    }
  }
}
