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

  /// The largest distortion of a 2D linear map (its condition number, the ratio of its largest
  /// to its smallest stretch) that HitBench resolves: beyond it, converting a point loses more
  /// than 40 of Double's 53 bits to cancellation and no two computations agree.
  public static let distortion = 1e12

  /// Whether the linear map [a b; c d] distorts more than `distortion` (and is not singular):
  /// its condition number k satisfies k + 1/k = (a² + b² + c² + d²) / |ad - bc|.
  @inlinable public static func isTooDistorted(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Bool {
    let det = a * d - b * c
    let f = a * a + b * b + c * c + d * d
    return det != 0 && det.isFinite && f > distortion * abs(det)
  }
}
