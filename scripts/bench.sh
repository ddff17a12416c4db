#!/usr/bin/env bash
# The main job: installs what is missing, builds hitbench in release mode and runs it.
# With no arguments it hit-tests the seed scene at the article's times; any arguments are
# passed to hitbench instead (e.g. scripts/bench.sh hittest --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product hitbench >&2
bin=.build/release/hitbench
if [ "$#" -gt 0 ]; then exec "$bin" "$@"; fi
for t in 1 3; do
  for tree in presentation model; do
    echo "t=$t --tree $tree: $("$bin" hittest --scene data/scenes/seed-move.json --time "$t" --tree "$tree" --point 150,50)"
  done
done
"$bin" hittest --scene data/scenes/seed-layers.json --point 160,284 --point 70,200 --point -5,-12.5
