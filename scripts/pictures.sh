#!/usr/bin/env bash
# Draws the pictures README.md, RESULTS.md and docs/time-aware.md show (`hitbench render`):
# the seed scene's model-tree mistake, window-grid's motion bounds on particles against app,
# and the grid's cells on particles. Pictures come from the code and fixed seeds, not from
# measurements, so scripts/results.sh draws them in every mode.
#   bash scripts/pictures.sh [HITBENCH] [DIR]   default .build/release/hitbench, data/results/pictures
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/hitbench}
out=${2:-data/results/pictures}
[ -x "$bin" ] || swift build -c release --product hitbench >&2
mkdir -p "$out"
draw() {
  local name=$1
  shift
  "$bin" render "$@" --output "$out/$name" 2>&1 | sed 's/^/  /' >&2
}
draw seed-move.svg --scene data/scenes/seed-move.json --time 1 --tree both \
  --point 150,50 --point 30,50 --point 250,50 --point 50,300
draw seed-move.html --scene data/scenes/seed-move.json --times 0:3:0.1 --tree both \
  --point 150,50 --point 30,50 --point 250,50 --point 50,300
draw particles-window-grid.svg --scene particles --layers 1000 --time 0.5 --strategy window-grid --queries 8
draw app-window-grid.svg --scene app --layers 1000 --time 0.5 --strategy window-grid --queries 8
draw particles-grid.svg --scene particles --layers 1000 --time 0.5 --strategy grid --queries 8
