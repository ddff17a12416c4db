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
/// The phases a counted run collects (`CountedPhase` in BenchKit).
#define HITBENCH_PHASE_BUILD 1
#define HITBENCH_PHASE_UPDATE 2
#define HITBENCH_PHASE_QUERIES 3
#define HITBENCH_PHASE_BACKGROUND 4
/// Not a phase of the frames: a lazy strategy's candidates, counted once after them
/// (`hitbench_candidate_count_arm`).
#define HITBENCH_PHASE_CANDIDATES 5

/// The phase of a measured frame whose instructions helper threads collect: the presentation
/// build's workers count in the build phase, a time-aware strategy's background builder in the
/// background phase; 0: none. Callgrind's collection state is per thread: the frame's thread
/// toggles it around its own phases, and each helper around the jobs it runs while their phase
/// is counted. Set by the frame's thread at each frame's start, read by helpers as a job starts.
void hitbench_set_helper_phase(int phase);

/// Turns collection on for a helper's job of `phase` when that phase is being counted;
/// answers whether it did (give that to `hitbench_helper_count_end`). Outside Valgrind 0.
int hitbench_helper_count_begin(int phase);

/// How many helper jobs of `phase` were counted since the last call (a time-aware strategy's
/// background window builds), and starts again from 0.
long hitbench_helper_jobs_take(int phase);

/// Turns collection off again if `began` says `hitbench_helper_count_begin` turned it on.
void hitbench_helper_count_end(int began);

/// Turns the calling thread's collection on if it was off, off if it was on (a counted phase
/// of the frame's thread begins or ends), keeping track of which it is.
void hitbench_count_toggle(void);

/// A thread about to wait for another (a frame for its next window, a build for its workers)
/// stops collecting if it was: waiting is not the code's own work, and how long it lasts
/// follows the host. Answers whether it stopped, for `hitbench_count_resume`.
int hitbench_count_pause(void);
void hitbench_count_resume(int paused);

/// Arms the calling thread's next measurement of a cost per candidate (a time-aware
/// strategy's `costOfCandidates`) to be counted in two dumps, labelled `label` and then
/// ` part=whole candidates=N` (the batch, every candidate evaluated afresh) or ` part=index`
/// (the same batch's index work alone). `label` must stay valid until the measurement ends or
/// the thread disarms with NULL (an armed thread whose strategy measures nothing).
void hitbench_candidate_count_arm(const char *label);

/// Turns collection on when the thread is armed and runs under Valgrind; answers whether it
/// did (give that to the next two).
int hitbench_candidate_count_begin(void);

/// Ends the whole batch's count, `candidates` candidates, in a dump of its own, and starts the
/// index's.
void hitbench_candidate_count_split(int began, long candidates);

/// Ends the index's count in a dump of its own, and disarms the thread.
void hitbench_candidate_count_end(int began);

/// Executes about `instructions` instructions (a loop of two an iteration): a planted slowdown
/// that Callgrind counts alike every time (`run --inject-query-instructions`).
static inline void hitbench_spin_instructions(unsigned long instructions) {
  unsigned long iterations = instructions / 2;
  if (iterations == 0) return;
#if defined(__x86_64__)
  __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(iterations) : : "cc");
#else
  for (volatile unsigned long i = 0; i < iterations; i++) {}
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
