/// Collects breakpoints (a struct, not a nested function: one capturing the count would box it).
struct _Breakpoints {
  let out: UnsafeMutablePointer<Double>
  let progress: UnsafeMutablePointer<Double>
  let capacity: Int
  let tau0: Double
  let tau1: Double
  let begin: Double
  let offset: Double
  let speed: Double
  var count = 0

  /// Adds local time tau (progress f) when strictly inside the range; false when full.
  @inline(__always) mutating func add(_ tau: Double, _ f: Double) -> Bool {
    guard tau > tau0 && tau < tau1 else { return true }
    guard count < capacity else { return false }
    out[count] = begin + (tau - offset) / speed
    progress[count] = f
    count += 1
    return true
  }
}
