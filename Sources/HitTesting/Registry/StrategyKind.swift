import LayerModel
import Presentation
import Synchronization

/// A strategy by CLI name: its description, and what tools and verification do with it, as
/// closures made where its concrete type is known (so each is specialised for it). This
/// package's strategies are registered from the start; an optional package (Peers/) registers
/// its own before any command runs (through BenchKit's `Strategies.register`, which adds the
/// measured loops too), and from then on every verb (`list`, `--strategy all`, `hittest`,
/// `verify`, suites) sees them like the built-in ones.
public struct StrategyKind: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String
  /// One line: what it is and when to pick it.
  public let summary: String
  public let family: StrategyFamily
  /// Whether the strategy consumes a built presentation frame (a frame strategy: rebuilds and
  /// the frame peers) rather than working from the compiled scene.
  public let consumesFrame: Bool
  /// Swift's name for the concrete type (`HitTesting.TreeWalk`): the name its specialised
  /// loops carry in a binary's symbols.
  public let typeName: String
  let _answers: @Sendable (PresentationFrameBuilder, [Point], Bool, StrategyOptions) -> [LayerID?]
  let _inspect: @Sendable (PresentationFrameBuilder, [Point], Bool, StrategyOptions) -> StrategyInspection
  let _entry: any _StrategyEntry

  public static let treeWalk = StrategyKind(frameStrategy: TreeWalk.self)
  public static let flatScan = StrategyKind(frameStrategy: FlatScan.self)
  public static let flatTree = StrategyKind(frameStrategy: FlatTree.self)
  public static let bvhSAH = StrategyKind(frameStrategy: BinnedSAHBVH.self)
  public static let bvhLBVH = StrategyKind(frameStrategy: MortonBVH.self)
  public static let bvhRefit = StrategyKind(frameStrategy: RefitBVH.self)
  public static let grid = StrategyKind(frameStrategy: UniformGrid.self)
  public static let lazyWalk = StrategyKind(sceneStrategy: LazyWalk.self)
  public static let windowGrid = StrategyKind(sceneStrategy: WindowGrid.self)
  public static let staggerGrid = StrategyKind(sceneStrategy: StaggerGrid.self)
  public static let linearBVH = StrategyKind(sceneStrategy: LinearBoundsBVH.self)

  /// The strategies of this package, in the order `list` prints them.
  public static let builtIn: [StrategyKind] = [
    .treeWalk, .flatScan, .flatTree, .bvhSAH, .bvhLBVH, .bvhRefit, .grid, .lazyWalk, .windowGrid, .staggerGrid,
    .linearBVH,
  ]

  public init<S: FrameStrategy>(frameStrategy type: S.Type) {
    self.init(
      S.self, consumesFrame: true, _FrameEntry<S>(),
      answers: { builder, points, _, _ in _answerAll(_updated(S.self, builder), points) },
      inspect: { builder, points, _, _ in _inspection(_updated(S.self, builder), points) })
  }

  public init<S: SceneStrategy>(sceneStrategy type: S.Type) {
    self.init(
      S.self, consumesFrame: false, _SceneEntry<S>(),
      answers: { builder, points, animated, options in
        _answerAll(_updated(S.self, builder, animated, options), points)
      },
      inspect: { builder, points, animated, options in
        _inspection(_updated(S.self, builder, animated, options), points)
      })
  }

  private init<S: HitTestStrategy>(
    _ type: S.Type, consumesFrame: Bool, _ entry: any _StrategyEntry,
    answers: @escaping @Sendable (PresentationFrameBuilder, [Point], Bool, StrategyOptions) -> [LayerID?],
    inspect: @escaping @Sendable (PresentationFrameBuilder, [Point], Bool, StrategyOptions) -> StrategyInspection
  ) {
    rawValue = S.name
    summary = S.summary
    family = S.family
    self.consumesFrame = consumesFrame
    typeName = String(reflecting: S.self)
    _entry = entry
    _answers = answers
    _inspect = inspect
  }

  /// The registered strategy with this CLI name.
  public init?(rawValue: String) {
    guard let k = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = k
  }

  /// Every registered strategy, built-in ones first, in registration order.
  public static var allCases: [StrategyKind] { _registry.withLock { $0 } }

  /// Adds a strategy (a peer) to every verb; a name already registered is ignored. Answers
  /// whether it was added. (BenchKit's `Strategies.register` calls this and adds the measured
  /// loops.)
  @discardableResult
  public static func register(_ k: StrategyKind) -> Bool {
    _registry.withLock { list in
      guard !list.contains(where: { $0.rawValue == k.rawValue }) else { return false }
      list.append(k)
      return true
    }
  }

  /// Names a strategy that an optional part could provide but does not (its library is not
  /// installed): `list` shows it with the reason.
  public static func registerMissing(_ name: String, reason: String) {
    _missing.withLock { $0.append((name, reason)) }
  }

  /// The strategies named by `registerMissing`, with their reasons.
  public static var missing: [(name: String, reason: String)] { _missing.withLock { $0 } }

  public static func == (a: StrategyKind, b: StrategyKind) -> Bool { a.rawValue == b.rawValue }
  public func hash(into h: inout Hasher) { h.combine(rawValue) }
  public var description: String { rawValue }

  /// Calls `visitor` with the concrete type (for tools and tests: one dynamic call, and the
  /// visitor's body runs generic; nothing measured goes through here).
  public func dispatch<V: StrategyVisitor>(_ visitor: V) -> V.Result { _entry.dispatch(visitor) }

  /// This strategy's answers for `points` at the time of `builder`'s last build (a fresh
  /// instance, updated once): frame strategies read the built frame (built with every column),
  /// scene strategies the builder's compiled scene.
  public func answers(
    _ builder: PresentationFrameBuilder, _ points: [Point], animated: Bool = true,
    options: StrategyOptions = StrategyOptions()
  ) -> [LayerID?] {
    _answers(builder, points, animated, options)
  }

  /// The answers, as `answers` gives them, the index that gave them (over the builder's
  /// frame, the scene at the frame's time) as its `IndexInspection` shows it (nil when the
  /// strategy does not implement it), and each point's candidates. One strategy is built for
  /// all three.
  public func inspect(
    _ builder: PresentationFrameBuilder, _ points: [Point], animated: Bool = true,
    options: StrategyOptions = StrategyOptions()
  ) -> StrategyInspection {
    _inspect(builder, points, animated, options)
  }
}

/// A frame strategy updated with the builder's frame.
func _updated<S: FrameStrategy>(_: S.Type, _ builder: PresentationFrameBuilder) -> S {
  var s = S()
  s.update(with: builder.frame)
  return s
}

/// A scene strategy bound to the builder's scene and updated at its frame's time.
func _updated<S: SceneStrategy>(
  _: S.Type, _ builder: PresentationFrameBuilder, _ animated: Bool, _ options: StrategyOptions
) -> S {
  var s = S()
  s.attach(to: builder.scene, semantics: builder.semantics, options: options)
  s.update(at: builder.frame.time, animated: animated)
  return s
}

/// The answers, each point's candidates (its query again, with a recorder) and, where the
/// strategy can show it, its index.
func _inspection<S: HitTestStrategy>(_ s: S, _ points: [Point]) -> StrategyInspection {
  let candidates = points.map { p in
    var recorder = CandidateRecorder()
    _ = s.hitTest(p, counter: &recorder)
    return recorder.layers
  }
  return StrategyInspection(
    answers: _answerAll(s, points), index: (s as? any IndexInspection)?.inspectedBoxes(), candidates: candidates)
}

/// Every point through the strategy's batch query.
func _answerAll<S: HitTestStrategy>(_ s: S, _ points: [Point]) -> [LayerID?] {
  var out = [LayerID?](repeating: nil, count: points.count)
  points.withUnsafeBufferPointer { ps in out.withUnsafeMutableBufferPointer { s.answer(ps, into: $0) } }
  return out
}

/// The registry behind `StrategyKind.allCases`.
let _registry = Mutex<[StrategyKind]>(StrategyKind.builtIn)

let _missing = Mutex<[(name: String, reason: String)]>([])
