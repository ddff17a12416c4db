#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// libm's trigonometry behind two names, so geometry files need no platform imports.
@inlinable func _cos(_ x: Double) -> Double { cos(x) }
@inlinable func _sin(_ x: Double) -> Double { sin(x) }
@inlinable func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inlinable func _exp(_ x: Double) -> Double { exp(x) }
@inlinable func _pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
