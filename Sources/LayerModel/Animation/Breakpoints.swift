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

  /// Adds the boundary at local time tau between two iterations the window's ends fall in
  /// (both progress values: the value jumps there), wherever tau rounds. The evaluation decides
  /// the iteration by floor(tau / d), not by comparing tau with the product i * d, so a window
  /// whose end rounds onto the next iteration crosses that boundary even when i * d is not below
  /// the end's local time (docs/time-aware.md, "Iteration boundaries").
  @inline(__always) mutating func addBoundary(_ tau: Double) -> Bool {
    guard count + 2 <= capacity else { return false }
    let at = begin + (Swift.min(Swift.max(tau, tau0), tau1) - offset) / speed
    out[count] = at
    progress[count] = 0
    out[count + 1] = at
    progress[count + 1] = 1
    count += 2
    return true
  }
}
