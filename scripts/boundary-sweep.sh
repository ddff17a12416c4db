#!/usr/bin/env bash
# Every scene of the class whose windows cross an iteration's end (scripts/boundary_scenes.py:
# 282 two-layer scenes) under `run --verify`, every strategy, 600 frames at 120, 60 and 37 fps,
# back to back; extra arguments go to each run (e.g. --window 100, or --pacing real-time). Prints
# each run that fails and the count; exit 1 when any does. About 5 minutes (real-time pacing:
# about 25).
#   bash scripts/boundary-sweep.sh [run options...]
set -uo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hitbench
[ -x "$bin" ] || swift build -c release --product hitbench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/boundary_scenes.py "$tmp/scenes" >/dev/null
pacing=(--pacing back-to-back)
for a in "$@"; do [ "$a" = "--pacing" ] && pacing=(); done
runs=0
failed=0
for scene in "$tmp"/scenes/*.json; do
  for fps in 120 60 37; do
    runs=$((runs + 1))
    out=$(timeout 300 "$bin" run --scene "$scene" --strategy all --frames 600 --warmup 1 --queries 200 --fps "$fps" \
      "${pacing[@]}" --verify --failures "$tmp/failures" "$@" 2>&1 >/dev/null)
    status=$?
    if [ "$status" != 0 ]; then
      failed=$((failed + 1))
      echo "$(basename "$scene") at $fps fps: exit $status: $(echo "$out" | grep -m1 ' got ' | cut -c1-200)"
    fi
  done
done
echo "boundary sweep: $failed of $runs runs failed (${SECONDS}s)"
[ "$failed" = 0 ]
