import LayerModel
import Presentation
import Synchronization

/// The generic driver: one frame's update and queries for a concrete strategy type, so the
/// compiler specialises the whole loop per strategy (dispatch happens once, in
/// `StrategyKind.dispatch`, outside any loop).
public enum QueryLoop {
  /// Answers every point into `results`.
  @inlinable
  public static func answer<S: HitTestStrategy>(
    _ strategy: borrowing S, _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) {
    if !strategy.isCurrent { _staleFrame(S.name) }
    var counter = NoCounter()
    var i = 0
    while i < points.count {
      results[i] = strategy.hitTest(points[i], counter: &counter)
      i &+= 1
    }
  }

  /// Answers every point and answers the total work tested.
  @inlinable
  public static func answerCounting<S: HitTestStrategy>(
    _ strategy: borrowing S, _ points: UnsafeBufferPointer<Point>, into results: UnsafeMutableBufferPointer<LayerID?>
  ) -> Int {
    if !strategy.isCurrent { _staleFrame(S.name) }
    var counter = TallyCounter()
    var i = 0
    while i < points.count {
      results[i] = strategy.hitTest(points[i], counter: &counter)
      i &+= 1
    }
    return counter.count
  }
}

/// Something done with a concrete strategy type: the way to go from a runtime name to
/// specialised code (`StrategyKind.dispatch`), one method per family.
public protocol StrategyVisitor {
  associatedtype Result
  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> Result
  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> Result
}

/// A strategy by CLI name: a registered concrete type behind one dynamic dispatch. This
/// package's strategies are registered from the start; an optional package (Peers/) registers
/// its own with `register(frameStrategy:)` before any command runs, and from then on every verb
/// (`list`, `--strategy all`, `hittest`, `verify`, suites) sees them like the built-in ones.
public struct StrategyKind: RawRepresentable, CaseIterable, Hashable, Sendable {
  public let rawValue: String
  let _entry: any _StrategyEntry

  public static let treeWalk = StrategyKind(TreeWalk.self)
  public static let flatScan = StrategyKind(FlatScan.self)
  public static let flatTree = StrategyKind(FlatTree.self)
  public static let bvhSAH = StrategyKind(BVH<SAHBuilder>.self)
  public static let bvhLBVH = StrategyKind(BVH<LinearBuilder>.self)
  public static let bvhRefit = StrategyKind(RefitBVH.self)
  public static let grid = StrategyKind(UniformGrid.self)
  public static let lazyWalk = StrategyKind(LazyWalk.self)
  public static let windowGrid = StrategyKind(WindowGrid.self)
  public static let staggerGrid = StrategyKind(StaggerGrid.self)
  public static let linearBVH = StrategyKind(LinearBoundsBVH.self)

  init<S: FrameStrategy>(_ type: S.Type) {
    rawValue = S.name
    _entry = _FrameEntry<S>()
  }

  init<S: SceneStrategy>(_ type: S.Type) {
    rawValue = S.name
    _entry = _SceneEntry<S>()
  }

  /// The registered strategy with this CLI name.
  public init?(rawValue: String) {
    guard let k = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = k
  }

  /// Every registered strategy, built-in ones first, in registration order.
  public static var allCases: [StrategyKind] { _registry.withLock { $0 } }

  /// Adds a frame strategy (a peer) to every verb; a name already registered is ignored.
  public static func register<S: FrameStrategy>(frameStrategy type: S.Type) { _add(StrategyKind(type)) }

  /// Adds a scene strategy (a peer) to every verb; a name already registered is ignored.
  public static func register<S: SceneStrategy>(sceneStrategy type: S.Type) { _add(StrategyKind(type)) }

  /// Names a strategy that an optional part could provide but does not (its library is not
  /// installed): `list` shows it with the reason.
  public static func registerMissing(_ name: String, reason: String) {
    _missing.withLock { $0.append((name, reason)) }
  }

  /// The strategies named by `registerMissing`, with their reasons.
  public static var missing: [(name: String, reason: String)] { _missing.withLock { $0 } }

  static func _add(_ k: StrategyKind) {
    _registry.withLock { list in
      if !list.contains(where: { $0.rawValue == k.rawValue }) { list.append(k) }
    }
  }

  public static func == (a: StrategyKind, b: StrategyKind) -> Bool { a.rawValue == b.rawValue }
  public func hash(into h: inout Hasher) { h.combine(rawValue) }

  /// Calls `visitor` with the concrete type: the one dynamic dispatch.
  public func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result { _entry.dispatch(visitor) }

  private struct _Describe: StrategyVisitor {
    func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> (String, StrategyFamily, Bool) {
      (S.summary, S.family, true)
    }
    func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> (String, StrategyFamily, Bool) {
      (S.summary, S.family, false)
    }
  }

  public var summary: String { dispatch(_Describe()).0 }
  public var family: StrategyFamily { dispatch(_Describe()).1 }
  /// Whether the strategy consumes a built presentation frame (a frame strategy: rebuilds and
  /// the frame peers) rather than working from the compiled scene.
  public var consumesFrame: Bool { dispatch(_Describe()).2 }
}

/// The registry behind `StrategyKind.allCases`.
let _registry = Mutex<[StrategyKind]>([
  .treeWalk, .flatScan, .flatTree, .bvhSAH, .bvhLBVH, .bvhRefit, .grid, .lazyWalk, .windowGrid, .staggerGrid,
  .linearBVH,
])

let _missing = Mutex<[(name: String, reason: String)]>([])

/// A registered type, opened by `dispatch`.
protocol _StrategyEntry: Sendable {
  func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result
}

struct _FrameEntry<S: FrameStrategy>: _StrategyEntry {
  func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result { visitor.visit(frameStrategy: S.self) }
}

struct _SceneEntry<S: SceneStrategy>: _StrategyEntry {
  func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result { visitor.visit(sceneStrategy: S.self) }
}

/// Runs one strategy type at a builder's last build over a list of points (tools and tests).
struct _AnswerAll: StrategyVisitor {
  let builder: PresentationFrameBuilder
  let animated: Bool
  let points: [Point]

  func visit<S: FrameStrategy>(frameStrategy type: S.Type) -> [LayerID?] {
    var s = S()
    s.update(with: builder.frame)
    return run(s)
  }

  func visit<S: SceneStrategy>(sceneStrategy type: S.Type) -> [LayerID?] {
    var s = S()
    s.attach(to: builder.scene, semantics: builder.semantics)
    s.update(at: builder.frame.time, animated: animated)
    return run(s)
  }

  func run<S: HitTestStrategy>(_ s: S) -> [LayerID?] {
    var out = [LayerID?](repeating: nil, count: points.count)
    points.withUnsafeBufferPointer { ps in
      out.withUnsafeMutableBufferPointer { rs in QueryLoop.answer(s, ps, into: rs) }
    }
    return out
  }
}

extension StrategyKind {
  /// This strategy's answers for `points` at the time of `builder`'s last build (a fresh
  /// instance, updated once): frame strategies read the built frame (built with every column),
  /// scene strategies the builder's compiled scene.
  public func answers(_ builder: PresentationFrameBuilder, _ points: [Point], animated: Bool = true) -> [LayerID?] {
    dispatch(_AnswerAll(builder: builder, animated: animated, points: points))
  }
}
