/// The range of coordinates HitBench answers for. Beyond it Double arithmetic can no longer give
/// the reference answer (products of coordinates and matrix elements overflow or lose every
/// fractional digit), so scene files with larger finite values are refused (docs/semantics.md,
/// "Numbers"). NaN and the infinities keep their defined behaviour.
public enum GeometryLimits {
  /// The largest finite magnitude of a coordinate, size, matrix element or animated value: at
  /// 1e12 points Double still resolves about 1e-4 pt.
  public static let magnitude = 1e12
  /// The same, as messages print it.
  public static let magnitudeText = "1e12"
}
