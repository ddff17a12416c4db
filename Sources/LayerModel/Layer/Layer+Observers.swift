/// Something that mirrors a layer tree and must hear about its changes: a compiled scene that a
/// frame builder reads instead of the layers. Called synchronously from the setters.
package protocol LayerTreeObserver: AnyObject {
  /// A property the presentation depends on changed (geometry, flags, opacity, timing).
  func layerDidChange(_ layer: Layer)
  /// The layer's animations were added or removed.
  func layerAnimationsDidChange(_ layer: Layer)
  /// Layers were added, removed or reordered.
  func layerTreeDidChange()
}

/// The observers of one layer tree, shared by every layer in it (each layer holds one
/// reference, so a setter finds them in O(1)). Weak: an observer that went away is skipped.
package final class LayerTreeObservers {
  struct Entry {
    weak var observer: (any LayerTreeObserver)?
  }
  var entries: [Entry] = []

  func layerDidChange(_ l: Layer) { for e in entries { e.observer?.layerDidChange(l) } }
  func animationsDidChange(_ l: Layer) { for e in entries { e.observer?.layerAnimationsDidChange(l) } }
  func treeDidChange() { for e in entries { e.observer?.layerTreeDidChange() } }
}

extension Layer {
  /// Registers `observer` for changes anywhere in this tree (call on the root).
  package func _addObserver(_ observer: any LayerTreeObserver) {
    let shared = _observers ?? LayerTreeObservers()
    shared.entries.removeAll { $0.observer == nil }
    shared.entries.append(LayerTreeObservers.Entry(observer: observer))
    if _observers !== shared { _setObservers(shared) }
  }

  /// Stops telling `observer` about this tree's changes (call on the root).
  package func _removeObserver(_ observer: any LayerTreeObserver) {
    _observers?.entries.removeAll { $0.observer == nil || $0.observer === observer }
  }

  /// Points every layer of this subtree at `observers` (O(subtree), only when adopting a subtree
  /// into an observed tree or leaving one).
  func _setObservers(_ observers: LayerTreeObservers?) {
    var stack: [Layer] = [self]
    while let l = stack.popLast() {
      l._observers = observers
      stack.append(contentsOf: l.sublayers)
    }
  }

  @inline(__always) func _noteChange() {
    if let o = _observers { o.layerDidChange(self) }
  }
}
