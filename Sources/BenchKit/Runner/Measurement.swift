import HitTesting

/// One strategy on one configuration: what the reporters print. See docs/results-schema.md.
public struct Measurement: Sendable {
  public var strategy: String
  public var scene: String
  public var layers: Int
  public var animatedFraction: Double
  public var queriesPerFrame: Int
  public var workload: String
  public var semantics: String
  public var frames: Int
  public var presentationNs: Summary
  public var updateNs: Summary
  public var queriesNs: Summary
  /// update + queries: what the strategy costs per frame (the presentation frame is shared).
  public var frameNs: Summary
  public var nsPerQuery: Double
  public var allocationsPerFrame: Double
  public var bytesAllocatedPerFrame: Double
  public var peakResidentBytes: Int
  public var indexBytes: Int
  public var testedPerQuery: Double
  /// Number of answers checked against tree-walk (0 when not verifying), and disagreements.
  public var verifiedAnswers: Int
  /// Answers that differ from tree-walk's within the measured rounding (the exact oracle
  /// accepts both); bounded by `AnswerComparison.toleratedShareLimit`.
  public var toleratedAnswers: Int
  public var disagreements: Int
  /// The query floor: ns for one exact test against the reference's answer per query.
  public var queryFloorNs: Double
  /// The update floor: ns for one streaming pass over the frame's world boxes per frame.
  public var updateFloorNs: Double

  public var noisy: Bool { frameNs.isNoisy }
  public var queryFloorRatio: Double { queryFloorNs > 0 ? nsPerQuery / queryFloorNs : 0 }
  public var updateFloorRatio: Double { updateFloorNs > 0 ? updateNs.median / updateFloorNs : 0 }
}
