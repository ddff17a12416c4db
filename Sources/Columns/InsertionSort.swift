/// Sorts `keys[range]` so that `before(keys[i], keys[i + 1])` or equal keys keep their order
/// (a stable insertion sort), moving `values` with their keys. For the handful of elements of a
/// BVH leaf or a window's breakpoints: O(n²) compares, in place, no allocation.
@inlinable
public func _insertionSort<Key, Value>(
  _ keys: UnsafeMutablePointer<Key>, _ values: UnsafeMutablePointer<Value>, _ range: Range<Int>,
  by before: (Key, Key) -> Bool
) {
  var i = range.lowerBound + 1
  while i < range.upperBound {
    let key = keys[i]
    let value = values[i]
    var j = i - 1
    while j >= range.lowerBound && before(key, keys[j]) {
      keys[j + 1] = keys[j]
      values[j + 1] = values[j]
      j -= 1
    }
    keys[j + 1] = key
    values[j + 1] = value
    i += 1
  }
}
