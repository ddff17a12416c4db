// Most requests are inline functions of the header; the helpers' phase is one variable shared
// by every thread, defined here.
#include "CCallgrind.h"
#include <stdatomic.h>

// Relaxed: a helper that reads it late counts or misses a job at a phase's edge, and the frame's
// thread sets it before it starts the frame's work (a job is posted after the set).
static _Atomic int helper_phase;
// Jobs counted per phase since they were last taken.
static _Atomic long counted_jobs[HITBENCH_PHASE_BACKGROUND + 1];
// Whether this thread collects now (Callgrind's state is per thread; this mirrors it).
static __thread int collecting;

void hitbench_count_toggle(void) {
  collecting = !collecting;
  hitbench_callgrind_toggle_collect();
}

int hitbench_count_pause(void) {
  if (!collecting) return 0;
  hitbench_count_toggle();
  return 1;
}

void hitbench_count_resume(int paused) {
  if (paused) hitbench_count_toggle();
}

void hitbench_set_helper_phase(int phase) {
  atomic_store_explicit(&helper_phase, phase, memory_order_relaxed);
}

int hitbench_helper_count_begin(int phase) {
  if (phase == 0 || atomic_load_explicit(&helper_phase, memory_order_relaxed) != phase) return 0;
  if (!hitbench_on_valgrind()) return 0;
  if (phase > 0 && phase <= HITBENCH_PHASE_BACKGROUND) atomic_fetch_add(&counted_jobs[phase], 1);
  hitbench_count_toggle();
  return 1;
}

void hitbench_helper_count_end(int began) {
  if (began) hitbench_count_toggle();
}

long hitbench_helper_jobs_take(int phase) {
  if (phase <= 0 || phase > HITBENCH_PHASE_BACKGROUND) return 0;
  return atomic_exchange(&counted_jobs[phase], 0);
}
