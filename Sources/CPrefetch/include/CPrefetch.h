#ifndef HITBENCH_CPREFETCH_H
#define HITBENCH_CPREFETCH_H

/// Cache prefetch hints, which Swift cannot spell: a sparse pass (a few hundred rows of a
/// large frame, after the thread slept through a frame interval) otherwise waits for each
/// cold cache line in turn; issued ahead, the lines arrive together. A hint never faults and
/// changes no result.
static inline __attribute__((always_inline)) void hitbench_prefetch_read(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

static inline __attribute__((always_inline)) void hitbench_prefetch_write(const void *address) {
  __builtin_prefetch(address, 1, 3);
}

#endif
