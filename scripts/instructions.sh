#!/usr/bin/env bash
# Instructions per frame, by phase, under Valgrind's Callgrind (docs/measuring.md): the release
# `hitbench run RUN-ARGS... --instructions` with the table narrowed to the counts. Each result's
# build, update and queries per frame (every thread's share), its background window builds,
# per query and (a time-aware strategy) per candidate; two runs of the same binary agree (a time-aware strategy whose window was
# chosen by cost keeps the timed run's window while counted: pin --window to count the same
# windows twice).
#   scripts/instructions.sh [--csv FILE] RUN-ARGS...
#   scripts/instructions.sh --scene particles --layers 10000 --strategy grid,window-grid --queries 100 --frames 20
# Exit 69 when Valgrind is missing (apt install valgrind), 64 without run arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
csv=()
if [ "${1:-}" = "--csv" ]; then
  [ $# -ge 2 ] || { echo "instructions: --csv needs a file" >&2; exit 64; }
  csv=(--format csv --output "$2")
  shift 2
fi
[ $# -gt 0 ] || { echo "instructions: give hitbench run's arguments (scene, strategies, queries, frames)" >&2; exit 64; }
swift build -c release --product hitbench >&2
columns=strategy,queries,frames,mean,instructions,instructions-build,instructions-update
columns+=,instructions-queries,instructions-background,instructions-query,instructions-candidate
.build/release/hitbench run "$@" --instructions --columns "$columns" "${csv[@]}"
