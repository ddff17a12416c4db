#!/usr/bin/env bash
# The test command: installs what is missing, checks formatting (swift format lint --strict over
# Sources, Tests, Benchmarks and Peers), then builds and runs every test target; then the
# optional peers (Peers/) when their libraries are installed (scripts/peers.sh installs them), or
# says why they were skipped.
#   bash scripts/test.sh          the full suite (what .ci/run runs)
#   bash scripts/test.sh --fast   every test at reduced sizes (HITBENCH_TEST_SIZE=fast), for the
#                                 loop after each change; the same assertions
# Tests build in their own directory (.build-tests) in the debug configuration with -O
# (HITBENCH_TEST_OPTIMIZE=1, see Package.swift): every invariant and bounds check on.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fast" ]; then
  export HITBENCH_TEST_SIZE=fast
  shift
fi
[ "$#" = 0 ] || { echo "usage: bash scripts/test.sh [--fast]" >&2; exit 64; }
bash scripts/setup.sh
export HITBENCH_TEST_OPTIMIZE=1
scratch=(--scratch-path .build-tests)
# Each step says how long the run has taken so far.
step() { echo "== $* (${SECONDS}s)" >&2; }
step "swift format lint --strict"
swift format lint --strict --recursive Sources Tests Benchmarks Package.swift Peers/Sources Peers/Tests Peers/Package.swift \
  Examples/RowStrips/Sources Examples/RowStrips/Package.swift
step "scripts/check-dependencies.py (every target declares exactly what it imports)"
python3 scripts/check-dependencies.py
python3 scripts/check-dependencies.py Peers
python3 scripts/check-dependencies.py Examples/RowStrips
step "scripts/check-architecture.py (docs/architecture.md's module and column tables are the code's)"
python3 scripts/check-architecture.py
step "swift build -c release --product hitbench (the allocation tests measure it)"
(unset HITBENCH_TEST_OPTIMIZE; swift build -c release --product hitbench)
export HITBENCH_RELEASE_BINARY="$PWD/.build/release/hitbench"
step "scripts/check-specialisation.sh (every built-in strategy's loops specialised)"
bash scripts/check-specialisation.sh "$HITBENCH_RELEASE_BINARY"
step "swift build --build-tests"
swift build --build-tests "${scratch[@]}"
step "swift test${HITBENCH_TEST_SIZE:+ ($HITBENCH_TEST_SIZE)}"
log=$(mktemp)
set +e
swift test --skip-build "${scratch[@]}" >"$log" 2>&1
status=$?
set -e
# Per-test progress lines are trimmed; failures, issues, skips and the summaries are kept.
awk '!(/^(◇|✔) (Test|Suite) / && !/^(✔|✘) Test run with/)' "$log"
if [ "$status" = 0 ]; then
  n=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | grep -oE '[0-9]+' | tail -1)
  skipped=$(grep -cE '^➜ Test .* skipped' "$log" || true)
  echo "tests: ${n:-0} passed, 0 failed, ${skipped} skipped (${SECONDS}s so far)"
fi
rm -f "$log"
[ "$status" = 0 ] || exit "$status"

# The example and the peers depend on HitBench by path and share one build directory, so
# HitBench is compiled once for both (the same configuration as the tests: debug with -O).
dependents="$PWD/.build-dependents"
if [ -z "${HITBENCH_TEST_SIZE:-}" ]; then
  step "scripts/example.sh (Examples/RowStrips: a strategy from outside, verified and measured)"
  bash scripts/example.sh "$dependents"
fi

if check=$(bash scripts/peers.sh --check); then
  step "peers: $check; swift build --build-tests && swift test (Peers/)"
  swift build --build-tests --package-path Peers --scratch-path "$dependents"
  swift test --skip-build --package-path Peers --scratch-path "$dependents" 2>&1 \
    | awk '!(/^(◇|✔) (Test|Suite) / && !/^(✔|✘) Test run with/)' | grep -vE '^(strategy|-----|[a-z0-9-]+ +(calayer|uiview))'
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] && echo "peer tests: passed (${SECONDS}s in all)"
  exit "$status"
else
  echo "peers: skipped: $check" >&2
fi
