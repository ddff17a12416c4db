#!/usr/bin/env bash
# Everything under AddressSanitizer, to catch out-of-bounds accesses and use-after-free that
# bounds checks cannot see (unsafe buffers, -Ounchecked hot paths):
#   1. the whole test suite (debug, invariant checks on), built with -O as scripts/test.sh builds
#      it (HITBENCH_TEST_OPTIMIZE=1: checks stay, the sanitizer's instrumentation stays) and at
#      the fast loop's sizes unless HITBENCH_TEST_SIZE is set (empty: full size): unoptimised and at full
#      size, the history verification alone ran for hours under the sanitizer;
#   2. a short coverage-guided fuzz run (scripts/fuzz.sh, 60 s unless FUZZ_SECONDS is set);
#   3. the results pipeline (scripts/results.sh --asan: the default and crossover suites with
#      --verify, the model-tree mismatch count, the SIMD scan comparison and hitbench verify),
#      written to a temporary directory, RESULTS.md untouched.
# Any sanitizer report fails the script. The test step about 8 minutes on a 2-core machine.
#   scripts/asan.sh [tests|fuzz|results ...]      (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(tests fuzz results)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
# Without jemalloc (it replaces malloc, which ASan's allocator cannot share a process with:
# Package.swift), and without Swift's crash backtracer (ASan prints the report; the backtracer
# waiting on a process ASan aborted hung the run).
export HITBENCH_NO_JEMALLOC=1 SWIFT_BACKTRACE=enable=no
for step in "${steps[@]}"; do
  case "$step" in
    tests)
      echo "asan: test suite" >&2
      export HITBENCH_TEST_OPTIMIZE=1 HITBENCH_TEST_SIZE="${HITBENCH_TEST_SIZE-fast}"
      swift build --build-tests --sanitize=address --scratch-path .build-asan-tests >&2
      swift test --skip-build --sanitize=address --scratch-path .build-asan-tests 2>&1 | grep -E "✘|Test run with|ERROR: AddressSanitizer" >&2
      ;;
    fuzz) bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}" ;;
    results) bash scripts/results.sh --asan ;;
    *) echo "asan: unknown step '$step' (tests, fuzz or results)" >&2; exit 64 ;;
  esac
done
echo "asan: no error reported" >&2
