#ifndef HITBENCH_CTHREADS_H
#define HITBENCH_CTHREADS_H

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Thread placement, which Swift's Glibc module does not offer (the GNU scheduling extensions
/// are not imported): the CPUs a thread may run on, the one it runs on, pinning it to one, and
/// lowering its priority. Each is one system call.

#define HITBENCH_CPU_WORDS (1024 / (8 * sizeof(unsigned long)))
#define HITBENCH_WORD_BITS (8 * sizeof(unsigned long))

/// The CPU the calling thread is running on now (-1 when the call fails).
static inline int hitbench_current_cpu(void) {
  unsigned cpu = 0;
  return syscall(SYS_getcpu, &cpu, 0, 0) == 0 ? (int)cpu : -1;
}

/// The `k`-th CPU (counting from 0, modulo how many there are) the calling thread may run on,
/// or -1 when its affinity cannot be read.
static inline int hitbench_allowed_cpu(int k) {
  unsigned long mask[HITBENCH_CPU_WORDS] = {0};
  if (syscall(SYS_sched_getaffinity, 0, sizeof(mask), mask) < 0) return -1;
  int count = 0;
  for (int cpu = 0; cpu < 1024; cpu++) {
    if (mask[cpu / HITBENCH_WORD_BITS] & (1UL << (cpu % HITBENCH_WORD_BITS))) count++;
  }
  if (count == 0 || k < 0) return -1;
  k %= count;
  for (int cpu = 0; cpu < 1024; cpu++) {
    if (mask[cpu / HITBENCH_WORD_BITS] & (1UL << (cpu % HITBENCH_WORD_BITS))) {
      if (k == 0) return cpu;
      k--;
    }
  }
  return -1;
}

/// Lets the calling thread run only on CPU `cpu` (0 to 1023). Answers 0, or -1 when refused.
static inline int hitbench_pin_current_thread(int cpu) {
  unsigned long mask[HITBENCH_CPU_WORDS] = {0};
  if (cpu < 0 || cpu >= 1024) return -1;
  mask[cpu / HITBENCH_WORD_BITS] |= 1UL << (cpu % HITBENCH_WORD_BITS);
  return syscall(SYS_sched_setaffinity, 0, sizeof(mask), mask) == 0 ? 0 : -1;
}

/// Pins the calling thread to the `k`-th CPU it may use (`hitbench_allowed_cpu`) unless that
/// is the first, where the frame's thread runs (one CPU allowed, or its affinity unreadable):
/// a frame's helper thread is then never on the frame's CPU. Answers the CPU, or -1 when it is
/// left where it was.
static inline int hitbench_pin_current_thread_off_first(int k) {
  int cpu = hitbench_allowed_cpu(k);
  if (cpu < 0 || cpu == hitbench_allowed_cpu(0)) return -1;
  return hitbench_pin_current_thread(cpu) == 0 ? cpu : -1;
}

/// Lowers the calling thread's scheduling priority to nice value `nice` (0 to 19; raising it
/// back needs privileges): a background thread then yields a core to the frames' threads
/// rather than preempt them when it wakes. Answers 0, or -1 when refused.
static inline int hitbench_lower_current_thread_priority(int nice) {
  return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

/// The calling thread's nice value.
static inline int hitbench_current_thread_priority(void) {
  return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
}

#endif
