#!/usr/bin/env bash
# The main job: installs what is missing, builds hitbench in release mode and runs the default
# suite (every strategy on an app screen of 10,000 animated layers, Q = 1, 100, 1000), printing
# the table. Any arguments are passed to hitbench instead (e.g. scripts/bench.sh run --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product hitbench >&2
bin=.build/release/hitbench
if [ "$#" -gt 0 ]; then exec "$bin" "$@"; fi
exec "$bin" run --suite default
