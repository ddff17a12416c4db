import LayerModel

// Plain values kept in `ColumnBuffer` columns.
extension Box: BitwiseCopyable {}
extension LayerID: BitwiseCopyable {}
extension PresentationFrame.Flags: BitwiseCopyable {}
extension CompiledScene.Bits: BitwiseCopyable {}
extension LinearInverse: BitwiseCopyable {}
extension AffinePart: BitwiseCopyable {}
