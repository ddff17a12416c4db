import Clocks
import LayerModel
import Presentation

/// Every time-aware strategy's state (a class: queries are non-mutating and count their work):
/// the scene's motion groups, their windows by a policy, the window length and the counters.
/// The state takes in scene changes, restarts the windows where it must (the first frame, a
/// scene change, the other tree) and hands every other frame to the policy, which replaces the
/// windows that ended: one window for every group, built ahead on the builder's thread
/// (`_WindowsAhead`: `window-grid`, `linear-bvh`, `embree-motion`), or a window per group,
/// re-bounded on the frame's thread as it ends (`_StaggeredWindows`: `stagger-grid`). Both
/// bound a group by one rule (`MotionBounds._linearWhereExact` and its kin) and are searched by
/// one query (`WindowSearch`). Update: the policy's; O(1) here.
public final class _TimeAwareState<Windows: _WindowPolicy> {
  let groups: MotionGroups
  /// The windows (a reference the queries read through, never replaced).
  @usableFromInline let windows: Windows
  var length: WindowLength
  /// Whether the windows follow the animations (the presentation tree) or hold the model's.
  var animated = true
  var initialized = false
  var updated = false
  var version = -1
  public internal(set) var counters = StrategyCounters()

  public convenience init(scene: CompiledScene, semantics: HitTestSemantics, options: StrategyOptions) {
    self.init(MotionGroups(scene: scene, semantics: semantics), options)
  }

  init(_ groups: MotionGroups, _ options: StrategyOptions) {
    self.groups = groups
    windows = Windows(groups, options)
    length = WindowLength(
      pinned: options.windowSeconds, buildsInBackground: Windows.buildsInBackground, cost: options.windowCost,
      overlap: options.windowOverlap)
  }

  /// Updated, and the scene has not changed since (its groups would no longer describe it).
  public var isCurrent: Bool { updated && groups.scene.changeVersion == version }

  public var memoryFootprint: Int { groups.memoryFootprint + windows.memoryFootprint }

  public func update(at t: Double, animated: Bool) {
    counters = StrategyCounters()
    var restart = !initialized || animated != self.animated
    // (Changes another consumer of the scene took in count too: the groups were built for a
    // version.)
    if groups.scene.hasPendingChanges || groups.scene.changeVersion != groups.version {
      // Background work reads the scene: it stops before the changes are taken in.
      windows.sceneWillChange()
      if groups.refresh() {
        windows.sceneDidChange()
        restart = true
      }
    }
    groups.lazy.prepare(at: t, animated: animated)
    if restart {
      windows.restart(self, at: t, animated: animated)
      initialized = true
    } else if animated {
      windows.advance(self, to: t)
    }
    self.animated = animated
    windows.updated(self, at: t)
    counters.windowSeconds = animated ? length.seconds : 0
    updated = true
    version = groups.scene.changeVersion
  }

  /// Takes in a batch's counts (for reports and the window length).
  @usableFromInline func _endBatch(_ search: WindowSearch) {
    search._record(into: &counters, &length, presentations: groups.lazy.evaluations)
  }

  /// See `CandidateCosting`.
  public func costOfCandidates(_ points: UnsafeBufferPointer<Point>) -> CandidateTimings {
    groups.lazy.prepare(at: groups.lazy.frame.time, animated: animated)
    return windows.costOfCandidates(self, points)
  }
}

/// How a time-aware state's moving groups get their windows, and what its queries read of them
/// (see `_TimeAwareState`). The state calls it on the frame's thread, between batches.
public protocol _WindowPolicy: AnyObject {
  init(_ groups: MotionGroups, _ options: StrategyOptions)
  /// Whether windows are built off the frame's thread (the window length weighs that work so).
  static var buildsInBackground: Bool { get }
  var memoryFootprint: Int { get }
  /// Stops any background work that reads the scene: its changes are about to be taken in.
  func sceneWillChange()
  /// The groups were rebuilt for a changed scene (a restart follows).
  func sceneDidChange()
  /// Every group's window from t (its counters into the state's).
  func restart(_ state: _TimeAwareState<Self>, at t: Double, animated: Bool)
  /// An animated frame at t, not a restart: the windows that ended replaced (or, where time
  /// jumped out of them, restarted).
  func advance(_ state: _TimeAwareState<Self>, to t: Double)
  /// The frame's update at t is done (the state's `animated` is the frame's).
  func updated(_ state: _TimeAwareState<Self>, at t: Double)
  /// See `CandidateCosting` (the lazy presentation prepared).
  func costOfCandidates(_ state: _TimeAwareState<Self>, _ points: UnsafeBufferPointer<Point>) -> CandidateTimings
}
