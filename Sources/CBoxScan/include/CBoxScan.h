#ifndef HITBENCH_CBOXSCAN_H
#define HITBENCH_CBOXSCAN_H

#include <xmmintrin.h>

/// The first of the single-precision boxes `from ..< to` of `boxes` that holds (x, y), or `to`
/// when none does. A box is four floats, (minX, minY, -maxX, -maxY) (`OutwardBox`): it holds
/// the point when each of its lanes is at most (x, y, -x, -y), one compare and one mask per box
/// (SSE, which every x86-64 has), four boxes a branch. Inline C: Swift has no spelling for a
/// lane mask's bits, and its SIMD mask reduction compiles to shuffles. `boxes` holds at least
/// `to` boxes; `from` and `to` are at least 0. A NaN coordinate holds in no box.
static inline __attribute__((always_inline)) long hitbench_first_holding_box(
    const float *boxes, long from, long to, float x, float y) {
  const __m128 q = _mm_setr_ps(x, y, -x, -y);
  long i = from;
  for (; i + 4 <= to; i += 4) {
    const float *b = boxes + 4 * i;
    // A box holds when all four lanes compare: mask 15, and 15 + 1 is the only mask + 1 with
    // bit 4 set.
    int m0 = _mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(b), q)) + 1;
    int m1 = _mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(b + 4), q)) + 1;
    int m2 = _mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(b + 8), q)) + 1;
    int m3 = _mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(b + 12), q)) + 1;
    if ((m0 | m1 | m2 | m3) & 16) {
      if (m0 & 16) return i;
      if (m1 & 16) return i + 1;
      if (m2 & 16) return i + 2;
      return i + 3;
    }
  }
  for (; i < to; i++) {
    if (_mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(boxes + 4 * i), q)) == 15) return i;
  }
  return to;
}

#endif
