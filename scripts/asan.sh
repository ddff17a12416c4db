#!/usr/bin/env bash
# Runs benchmark suites under AddressSanitizer (a separate build in .build-asan), to catch any
# out-of-bounds or use-after-free in the -Ounchecked hot paths that bounds checks cannot see
# (unsafe buffers). Slow: about 2-3x the normal suite time.
#   scripts/asan.sh [SUITE ...]      (default: default crossover)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product hitbench --scratch-path .build-asan -Xswiftc -sanitize=address >&2
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(default crossover)
for suite in "${suites[@]}"; do
  echo "asan: suite $suite" >&2
  .build-asan/release/hitbench run --suite "$suite" --verify --format csv --output /dev/null
done
echo "asan: no error reported" >&2
