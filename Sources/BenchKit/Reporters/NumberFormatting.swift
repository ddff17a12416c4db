/// A number with `digits` decimals ("inf", "nan" for those; no trap on huge values).
func _fixed(_ v: Double, _ digits: Int) -> String {
  guard v.isFinite else { return v.isNaN ? "nan" : (v > 0 ? "inf" : "-inf") }
  var p = 1.0
  for _ in 0..<digits { p *= 10 }
  let r = (v * p).rounded() / p
  // Past 2^53 every double is an integer, and Int64 ends at 2^63: print those as they are.
  if Swift.abs(r) >= 9.0e15 { return "\(r)" }
  if digits == 0 { return String(Int64(r)) }
  var s = "\(r)"
  if s.contains("e") { return s }
  let dot = s.firstIndex(of: ".").map { s.distance(from: s.startIndex, to: $0) } ?? s.count
  if !s.contains(".") { s += "." }
  while s.count - dot - 1 < digits { s += "0" }
  return s
}

/// A ratio with two significant decimals below 10, one below 100, none above.
func formatRatio(_ r: Double) -> String {
  guard r.isFinite else { return _fixed(r, 0) }
  return r < 10 ? _fixed(r, 2) : (r < 100 ? _fixed(r, 1) : _fixed(r, 0))
}

/// A count as a person reads a large one: whole, with thousands grouped ("2,496,618").
public func formatCount(_ v: Double) -> String {
  let digits = _fixed(v, 0)
  guard !digits.contains("e"), !digits.contains("."), !digits.contains("n") else { return digits }
  let sign = digits.hasPrefix("-") ? "-" : ""
  var out = ""
  for (i, c) in digits.drop(while: { $0 == "-" }).reversed().enumerated() {
    if i > 0 && i % 3 == 0 { out.append(",") }
    out.append(c)
  }
  return sign + String(out.reversed())
}
