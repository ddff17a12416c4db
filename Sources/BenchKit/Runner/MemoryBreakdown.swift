/// The live heap of one run by part, each measured as what the heap held after the part was
/// made minus before (jemalloc's `stats.allocated`, every thread; `AllocationCounter.retained`),
/// not estimated: the model tree as generated or read, the compiled scene, the presentation
/// frame with its builder, and everything the strategy holds after its frames (its index, a
/// lazy or time-aware strategy's evaluation state and windows, its scratch). With the process
/// peak (`Measurement.peakResidentBytes`) beside it: what the parts do not explain is what was
/// built on the way and freed, and the allocator's own overhead. 0 where jemalloc is absent.
public struct MemoryBreakdown: Sendable, Equatable {
  public var modelBytes = 0
  public var compiledSceneBytes = 0
  public var frameBytes = 0
  public var strategyBytes = 0

  public init(modelBytes: Int = 0, compiledSceneBytes: Int = 0, frameBytes: Int = 0, strategyBytes: Int = 0) {
    self.modelBytes = modelBytes
    self.compiledSceneBytes = compiledSceneBytes
    self.frameBytes = frameBytes
    self.strategyBytes = strategyBytes
  }

  /// The parts' sum.
  public var totalBytes: Int { modelBytes + compiledSceneBytes + frameBytes + strategyBytes }
}
