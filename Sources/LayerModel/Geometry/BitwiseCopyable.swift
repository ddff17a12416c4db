// The model's plain values are trivial (no references, no ownership): declared so, they can live
// in `ColumnBuffer` columns, which copy them as bytes.
extension Point: BitwiseCopyable {}
extension Size: BitwiseCopyable {}
extension Rect: BitwiseCopyable {}
extension AffineMap: BitwiseCopyable {}
extension Homography: BitwiseCopyable {}
extension Transform3D: BitwiseCopyable {}
extension Interval: BitwiseCopyable {}
extension ActiveTime: BitwiseCopyable {}
extension LayerState: BitwiseCopyable {}
extension LeanValues: BitwiseCopyable {}
extension AnimationRecord.Kind: BitwiseCopyable {}
extension LeanKeys: BitwiseCopyable {}
extension LeanProperty: BitwiseCopyable {}
extension LeanTrack: BitwiseCopyable {}
