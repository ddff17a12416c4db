/// Instructions a strategy's measured frames executed, by phase, as Callgrind counted them
/// (`hitbench run --instructions`): the code's own work, which does not move with the host.
/// Every figure is per measured frame (Callgrind's Ir over the frames counted, divided by
/// their number); a phase's count includes its helper threads' share (the build's workers),
/// and a time-aware strategy's background window builds are a phase of their own.
public struct InstructionCounts: Sendable, Equatable {
  public var buildPerFrame = 0.0
  public var updatePerFrame = 0.0
  public var queriesPerFrame = 0.0
  /// Window builds on a time-aware strategy's background thread (each one posted during the
  /// measured frames, counted whole); 0 for other strategies.
  public var backgroundPerFrame = 0.0
  /// The background window builds counted (`backgroundPerFrame`'s).
  public var backgroundBuilds = 0
  /// The measured frames counted.
  public var frames = 0
  /// What the counted run did, to divide by (its own figures: a time-aware strategy's
  /// candidates depend on its window): queries a frame, candidates a query, presentation rows
  /// built a frame, index entries rebuilt a frame.
  public var queries = 0
  public var candidatesPerQuery = 0.0
  public var rowsRecomputedPerFrame = 0.0
  public var reindexedPerFrame = 0.0
  /// The window a time-aware strategy kept while counted, in ms (0 for others): the timed
  /// run's mean window, or `--window`. Counts of two windows count different work.
  public var windowMs = 0.0

  public init() {}

  /// Instructions per background window build, 0 without one. How many builds fall in the
  /// measured frames follows the host (a build is posted ahead as the frames' pace allows),
  /// but what one costs does not: `compare` judges this, not `backgroundPerFrame`.
  public var perBackgroundBuild: Double {
    backgroundBuilds > 0 ? backgroundPerFrame * Double(frames) / Double(backgroundBuilds) : 0
  }

  /// Instructions per query (the queries phase over Q).
  public var perQuery: Double { queries > 0 ? queriesPerFrame / Double(queries) : 0 }

  /// A time-aware strategy's cost per candidate counted after the frames, as its time is
  /// measured (`CandidateCosting`): one batch of the last frame's queries with every candidate
  /// evaluated afresh (`candidateBatch`, `candidatesCounted` candidates), and the same batch's
  /// index work alone (`candidateIndex`). 0 for other strategies.
  public var candidateBatch = 0.0
  public var candidateIndex = 0.0
  public var candidatesCounted = 0

  /// Instructions per candidate of its own work, the lazy evaluation and the exact test (the
  /// batch less its index work, over its candidates; the index's share of a query is in
  /// `perQuery`). 0 for a strategy that counts none.
  public var perCandidate: Double {
    candidatesCounted > 0 && candidateBatch > candidateIndex
      ? (candidateBatch - candidateIndex) / Double(candidatesCounted) : 0
  }

  /// Instructions per presentation row the build recomputed, 0 for a strategy that builds none.
  public var perRowBuilt: Double { rowsRecomputedPerFrame > 0 ? buildPerFrame / rowsRecomputedPerFrame : 0 }

  /// Instructions per index entry rebuilt, update and background together (a time-aware
  /// strategy's per group bounded), 0 for a strategy that re-indexes none.
  public var perEntryReindexed: Double {
    reindexedPerFrame > 0 ? (updatePerFrame + backgroundPerFrame) / reindexedPerFrame : 0
  }

  /// The frame's own thread and its build workers: build + update + queries.
  public var framePerFrame: Double { buildPerFrame + updatePerFrame + queriesPerFrame }

  /// Sets the per-frame count of `phase` from the instructions of all counted frames.
  public mutating func record(_ phase: CountedPhase, total: Double, frames: Int) {
    let perFrame = total / Double(Swift.max(frames, 1))
    switch phase {
    case .build: buildPerFrame = perFrame
    case .update: updatePerFrame = perFrame
    case .queries: queriesPerFrame = perFrame
    case .background: backgroundPerFrame = perFrame
    case .candidates: return  // counted by parts (`CallgrindDumps.Part`)
    }
    self.frames = frames
  }
}
