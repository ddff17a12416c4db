import HitTesting
import Synchronization

/// A strategy's measured loops (the timed frames, the profile loop), as closures made where its
/// concrete type is known, so each is specialised for it: for this package's strategies here,
/// for a peer where it registers (`Strategies.register`, inlined into the registering module).
/// One dynamic call per run; nothing per frame or per query goes through it.
public struct StrategyLoops: Sendable {
  public let session: @Sendable (FrameLoop, any FrameLoopHooks) -> FrameSession
  public let profile: @Sendable (ProfileLoop, () -> Void, () -> Void) -> Int

  @inlinable public init<S: FrameStrategy>(frameStrategy type: S.Type) {
    session = { loop, hooks in TimedFrames.session(S.self, loop, hooks) }
    profile = { loop, enable, disable in ProfiledPhases.run(S.self, loop, enable, disable) }
  }

  @inlinable public init<S: SceneStrategy>(sceneStrategy type: S.Type) {
    session = { loop, hooks in TimedFrames.session(S.self, loop, hooks) }
    profile = { loop, enable, disable in ProfiledPhases.run(S.self, loop, enable, disable) }
  }
}

/// Every strategy's loops, by name: this package's from the start, a peer's from its
/// registration.
public enum Strategies {
  /// The built-in strategies' loops, specialised in this module.
  static let builtIn: [String: StrategyLoops] = [
    TreeWalk.name: StrategyLoops(frameStrategy: TreeWalk.self),
    FlatScan.name: StrategyLoops(frameStrategy: FlatScan.self),
    FlatTree.name: StrategyLoops(frameStrategy: FlatTree.self),
    BinnedSAHBVH.name: StrategyLoops(frameStrategy: BinnedSAHBVH.self),
    MortonBVH.name: StrategyLoops(frameStrategy: MortonBVH.self),
    RefitBVH.name: StrategyLoops(frameStrategy: RefitBVH.self),
    UniformGrid.name: StrategyLoops(frameStrategy: UniformGrid.self),
    LazyWalk.name: StrategyLoops(sceneStrategy: LazyWalk.self),
    WindowGrid.name: StrategyLoops(sceneStrategy: WindowGrid.self),
    StaggerGrid.name: StrategyLoops(sceneStrategy: StaggerGrid.self),
    LinearBoundsBVH.name: StrategyLoops(sceneStrategy: LinearBoundsBVH.self),
  ]

  @usableFromInline static let _registered = Mutex<[String: StrategyLoops]>([:])

  /// The loops of a registered strategy.
  public static func loops(_ kind: StrategyKind) -> StrategyLoops {
    if let l = builtIn[kind.rawValue] { return l }
    guard let l = _registered.withLock({ $0[kind.rawValue] }) else {
      preconditionFailure("\(kind.rawValue): registered without its loops (use Strategies.register)")
    }
    return l
  }

  /// Adds a frame strategy (a peer) to every verb, with its loops specialised in the calling
  /// module.
  @inlinable public static func register<S: FrameStrategy>(frameStrategy type: S.Type) {
    guard StrategyKind.register(StrategyKind(frameStrategy: S.self)) else { return }
    let loops = StrategyLoops(frameStrategy: S.self)
    _registered.withLock { $0[S.name] = loops }
  }

  /// Adds a scene strategy (a peer) to every verb, with its loops specialised in the calling
  /// module.
  @inlinable public static func register<S: SceneStrategy>(sceneStrategy type: S.Type) {
    guard StrategyKind.register(StrategyKind(sceneStrategy: S.self)) else { return }
    let loops = StrategyLoops(sceneStrategy: S.self)
    _registered.withLock { $0[S.name] = loops }
  }
}
