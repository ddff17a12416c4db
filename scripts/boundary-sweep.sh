#!/usr/bin/env bash
# Every scene of the class whose windows cross an iteration's end (scripts/boundary_scenes.py:
# 282 two-layer scenes) under `run --verify`: by default every strategy, 600 frames at 120, 60
# and 37 fps, back to back (about 10 minutes). Arguments go to each run and replace those
# defaults (--strategy, --frames, --pacing; anything else is added, e.g. --window 100). Real-time
# pacing runs each strategy's frames on the clock (600 frames at 37 fps are 16 s), so sweep a
# share of the scenes then: BOUNDARY_EVERY=K takes every K-th scene, BOUNDARY_FPS the rates.
# Prints each run that fails and the count; exit 1 when any does.
#   bash scripts/boundary-sweep.sh [run options...]
#   BOUNDARY_EVERY=6 BOUNDARY_FPS=120 bash scripts/boundary-sweep.sh --pacing real-time \
#     --strategy window-grid,stagger-grid,linear-bvh --frames 240
set -uo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hitbench
[ -x "$bin" ] || swift build -c release --product hitbench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/boundary_scenes.py "$tmp/scenes" >/dev/null
every=${BOUNDARY_EVERY:-1}
rates=(${BOUNDARY_FPS:-120 60 37})
defaults=()
for pair in "--strategy all" "--frames 600" "--pacing back-to-back"; do
  name=${pair%% *}
  given=0
  for a in "$@"; do [ "$a" = "$name" ] && given=1; done
  [ "$given" = 1 ] || defaults+=($pair)
done
runs=0
failed=0
i=0
for scene in "$tmp"/scenes/*.json; do
  i=$((i + 1))
  [ $(((i - 1) % every)) = 0 ] || continue
  for fps in "${rates[@]}"; do
    runs=$((runs + 1))
    out=$(timeout 600 "$bin" run --scene "$scene" --warmup 1 --queries 200 --fps "$fps" --verify \
      --failures "$tmp/failures" "${defaults[@]}" "$@" 2>&1 >/dev/null)
    status=$?
    if [ "$status" != 0 ]; then
      failed=$((failed + 1))
      echo "$(basename "$scene") at $fps fps: exit $status: $(echo "$out" | grep -m1 ' got ' | cut -c1-200)"
    fi
  done
done
echo "boundary sweep: $failed of $runs runs failed (${SECONDS}s)"
[ "$failed" = 0 ]
