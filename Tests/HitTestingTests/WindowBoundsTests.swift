import LayerModel
import Presentation
import Scenes
import TestSupport
import Testing

@testable import HitTesting

/// `window-grid` lists window boxes but filters its candidates by exact lines where a group's
/// root moves piecewise linearly and nothing above it clips (`linearWhereExact`): particles get
/// lines, which interpolate to a box a fraction of the window box; under a clipping ancestor the
/// lines (which are not clipped) would be wider than the clipped window box, so the window box
/// stays.
@Suite struct WindowBoundsTests {
  /// The front window's bounds of every moving group after an update at t.
  static func bounds(_ root: Layer, at t: Double) -> [LinearBox] {
    let builder = PresentationFrameBuilder(root: root)
    var s = WindowGrid()
    s.attach(to: builder.scene, semantics: builder.semantics)
    s.update(at: t, animated: true)
    guard let state = s.state else { return [] }
    let bounds = state.windows.front.groupBounds(groups: state.groups.count)
    return (1..<state.groups.count).map { bounds[$0] }
  }

  @Test func particlesAreBoundedByLines() {
    let root = SceneGenerator(kind: .particles, layers: TestSize.pick(full: 3000, fast: 600), seed: 5).make()
    let b = Self.bounds(root, at: 0.7)
    let lines = b.count { $0.start != $0.end }
    #expect(b.count > 100 && lines * 10 >= b.count * 9, "\(lines) of \(b.count) groups bounded by lines")
  }

  @Test func aClippingAncestorKeepsTheWindowBoxes() {
    let root = SceneGenerator(kind: .particles, layers: TestSize.pick(full: 3000, fast: 600), seed: 5).make()
    root.masksToBounds = true
    let b = Self.bounds(root, at: 0.7)
    let lines = b.count { $0.start != $0.end }
    #expect(b.count > 100 && lines == 0, "\(lines) of \(b.count) clipped groups bounded by lines")
  }
}
