#ifndef HITBENCH_CCALLGRIND_H
#define HITBENCH_CCALLGRIND_H
/// Valgrind's client requests for Callgrind (`hitbench run --instructions`): a few instructions
/// each, and no-ops outside Valgrind. Without Valgrind's headers (Debian's `valgrind` package
/// has them) they compile to nothing, and `hitbench_on_valgrind` answers 0.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HITBENCH_HAS_CALLGRIND 1
#else
#define HITBENCH_HAS_CALLGRIND 0
#endif

/// Whether the process runs under Valgrind.
static inline int hitbench_on_valgrind(void) {
#if HITBENCH_HAS_CALLGRIND
  return RUNNING_ON_VALGRIND ? 1 : 0;
#else
  return 0;
#endif
}

/// Turns Callgrind's event collection on if it was off, off if it was on.
static inline void hitbench_callgrind_toggle_collect(void) {
#if HITBENCH_HAS_CALLGRIND
  CALLGRIND_TOGGLE_COLLECT;
#endif
}

/// Writes the counts collected since the last dump to a file of their own, labelled `label`
/// (a C string), and starts counting from zero.
static inline void hitbench_callgrind_dump(const char *label) {
#if HITBENCH_HAS_CALLGRIND
  CALLGRIND_DUMP_STATS_AT(label);
#else
  (void)label;
#endif
}
/// A loop of exactly two instructions an iteration (x86-64: decrement, branch), run `iterations`
/// times with collection on and dumped as `hitbench calibration iterations=N`: what a count
/// of a known length reads as, to check the counting (tests). Elsewhere a plain loop.
static inline void hitbench_callgrind_calibrate(unsigned long iterations) {
  if (iterations == 0) return;
  hitbench_callgrind_toggle_collect();
#if defined(__x86_64__)
  __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(iterations) : : "cc");
#else
  for (volatile unsigned long i = 0; i < iterations; i++) {}
#endif
  hitbench_callgrind_toggle_collect();
}
#endif
