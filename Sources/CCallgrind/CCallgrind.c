// Most requests are inline functions of the header; the helpers' phase is one variable shared
// by every thread, defined here.
#include "CCallgrind.h"
#include <stdatomic.h>
#include <stdio.h>

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

// The label of the thread's armed count of candidates (NULL: not armed).
static __thread const char *candidate_label;

void hitbench_candidate_count_arm(const char *label) { candidate_label = label; }

int hitbench_candidate_count_begin(void) {
  if (candidate_label == NULL || !hitbench_on_valgrind()) return 0;
  hitbench_count_toggle();
  return 1;
}

// A dump labelled with the armed label and `suffix`; a label too long for the buffer is cut
// short, and the dump's reader then rejects it (no count is read under another's name).
static void dump_candidates(const char *suffix) {
  char text[512];
  snprintf(text, sizeof text, "%s%s", candidate_label, suffix);
  hitbench_callgrind_dump(text);
}

void hitbench_candidate_count_split(int began, long candidates) {
  if (!began) return;
  hitbench_count_toggle();
  char suffix[64];
  snprintf(suffix, sizeof suffix, " part=whole candidates=%ld", candidates);
  dump_candidates(suffix);
  hitbench_count_toggle();
}

void hitbench_candidate_count_end(int began) {
  if (began) {
    hitbench_count_toggle();
    dump_candidates(" part=index");
  }
  candidate_label = NULL;
}
