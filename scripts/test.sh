#!/usr/bin/env bash
# The test command: installs what is missing, checks formatting (swift format lint --strict over
# Sources, Tests and Benchmarks), then builds and runs every test target; then the optional
# peers (Peers/) when their libraries are installed (scripts/peers.sh installs them), or says
# why they were skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== swift format lint --strict" >&2
swift format lint --strict --recursive Sources Tests Benchmarks Package.swift Peers/Sources Peers/Tests Peers/Package.swift
echo "== swift build --build-tests" >&2
swift build --build-tests
echo "== swift test" >&2
log=$(mktemp)
set +e
swift test --skip-build >"$log" 2>&1
status=$?
set -e
# Per-test progress lines are trimmed; failures, issues and the summaries are kept.
awk '!(/^(◇|✔) (Test|Suite) / && !/^(✔|✘) Test run with/)' "$log"
if [ "$status" = 0 ]; then
  n=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | grep -oE '[0-9]+' | tail -1)
  echo "tests: ${n:-0} passed, 0 failed"
fi
rm -f "$log"
[ "$status" = 0 ] || exit "$status"

if check=$(bash scripts/peers.sh --check); then
  echo "== peers: $check; swift build --build-tests && swift test (Peers/)" >&2
  swift build --build-tests --package-path Peers
  swift test --skip-build --package-path Peers 2>&1 | awk '!(/^(◇|✔) (Test|Suite) / && !/^(✔|✘) Test run with/)' | grep -vE '^(strategy|-----|[a-z0-9-]+ +(calayer|uiview))'
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] && echo "peer tests: passed"
  exit "$status"
else
  echo "peers: skipped: $check" >&2
fi
