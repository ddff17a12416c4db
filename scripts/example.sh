#!/usr/bin/env bash
# Builds the bring-your-own-strategy example (Examples/RowStrips, a package that depends on this
# one by path, docs/adding-a-strategy.md) and checks it the way a researcher would: `verify`
# against tree-walk and the oracle (exit 1 on any disagreement), a fault that verify must catch,
# and a short `run` beside grid with no allocation in the frame. Called by scripts/test.sh (the
# full suite).
#   bash scripts/example.sh [SCRATCH]   builds in SCRATCH (default Examples/RowStrips/.build)
# The build is HitBench's test configuration (debug, invariant checks on, -O): test.sh passes the
# peers' build directory, so HitBench is compiled there once for the example and the peers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-$root/Examples/RowStrips/.build}"
cd "$root/Examples/RowStrips"
export HITBENCH_TEST_OPTIMIZE=1
swift build --scratch-path "$scratch" --product hitbench-rowstrips 2>&1 | grep -E "error|Compiling RowStrips|Build complete" || true
bin="$scratch/debug/hitbench-rowstrips"
[ -x "$bin" ] || { echo "example: the build failed" >&2; exit 1; }
"$bin" list | grep -q '^row-strips' || { echo "example: row-strips is not registered" >&2; exit 1; }
"$bin" verify --strategy row-strips --scenes 100 --layouts ../../data/scenes | tail -1
if "$bin" verify --strategy row-strips --scenes 40 --large-every 0 --inject-shift 1e-6 >/dev/null 2>&1; then
  echo "example: a 1e-6 pt shift passed verify" >&2
  exit 1
fi
out=$(mktemp)
"$bin" run --scene app --layers 2000 --queries 100 --frames 12 --warmup 3 --strategy grid,row-strips \
  --pacing back-to-back --format csv --output "$out"
allocs=$(python3 -c "
import csv, sys
rows = {r['strategy']: r for r in csv.DictReader(open('$out'))}
print(rows['row-strips']['allocationsPerFrame'])")
rm -f "$out"
python3 -c "import sys; sys.exit(0 if float('$allocs') == 0 else 1)" \
  || { echo "example: row-strips allocates $allocs times per frame" >&2; exit 1; }
echo "example: row-strips built, verified (a 1e-6 pt fault caught), measured with no allocation per frame"
