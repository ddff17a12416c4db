#!/usr/bin/env bash
# Regenerates RESULTS.md and its plots: runs every suite (with --verify) and the auxiliary
# measurements, writes JSON and CSV under data/results/ (and the default suite's HTML page,
# data/results/report.html, checked in headless Chromium when it is installed), draws the plots with matplotlib (pinned
# in scripts/requirements.txt, installed into .venv by this script) and renders RESULTS.md
# from scripts/RESULTS.template.md. When the peer libraries are installed (scripts/peers.sh)
# every suite runs through hitbench-peers, so the peers appear beside the project's strategies;
# otherwise RESULTS.md says they were not measured; then the memory breakdown (scripts/memory.sh).
# About 40 minutes on a 2-core machine.
#   scripts/results.sh            measure, plot, render
#   scripts/results.sh --render   plot and render from the data already in data/results/
#   scripts/results.sh --asan     the pipeline on the default and crossover suites with a binary
#                                 built with AddressSanitizer, into a temporary directory (RESULTS.md
#                                 untouched); any sanitizer report fails it (scripts/asan.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mode="${1:-measure}"
out=data/results
bin=.build/release/hitbench
suites=(default scaling crossover build threads time-aware windows animated-fraction workloads scenes)
verify_scenes=2000
if [ "$mode" = "--asan" ]; then
  out=$(mktemp -d)
  bin=.build-asan/release/hitbench
  suites=(default crossover)
  verify_scenes=200
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
  export HITBENCH_NO_JEMALLOC=1 SWIFT_BACKTRACE=enable=no
  swift build -c release --product hitbench --scratch-path .build-asan --sanitize=address >&2
fi
mkdir -p "$out/plots"
if [ "$mode" != "--render" ]; then
  if [ "$mode" != "--asan" ]; then
    swift build -c release --product hitbench >&2
    if bash scripts/peers.sh --check >&2; then
      bin=$(bash scripts/peers.sh | tail -1)
      echo "peers=measured ($($bin list | grep -cE '^[a-z0-9-]+ +peer[:,]') peers)" > "$out/peers.txt"
    else
      echo "peers=not installed (bash scripts/peers.sh installs them)" > "$out/peers.txt"
    fi
  fi
  rm -f "$out/suite-seconds.csv.tmp"
  for suite in "${suites[@]}"; do
    echo "results: suite $suite" >&2
    start=$(date +%s)
    # The headline suite's run also writes its page: every frame, the frame's split, CPU by
    # thread, and a picture of the scene at the fastest strategy's slowest frame.
    report=()
    [ "$suite" = default ] && report=(--report "$out/report.html")
    "$bin" run --suite "$suite" --verify --format json --output "$out/$suite.json" ${report[@]+"${report[@]}"}
    echo "$suite,$(( $(date +%s) - start ))" >> "$out/suite-seconds.csv.tmp"
  done
  if [ "$mode" != "--asan" ]; then
    # The headline suite twice more, three repetitions each: how far the same commit's numbers
    # move on this host, and whether compare cries wolf between them (RESULTS.md's stability
    # section compares the two).
    for side in a b; do
      echo "results: suite default, --repeat 3 ($side)" >&2
      "$bin" run --suite default --repeat 3 --format json --output "$out/default-repeat-$side.json"
    done
    rm -f "$out/default-again.json"
    # compare exits 1 when it reports a regression: that is the figure, not a failure.
    "$bin" compare "$out/default-repeat-a.json" "$out/default-repeat-b.json" > "$out/default-compare.txt" || true
  fi
  { echo "suite,seconds"; cat "$out/suite-seconds.csv.tmp"; } > "$out/suite-seconds.csv"
  rm -f "$out/suite-seconds.csv.tmp"
  if [ "$mode" != "--asan" ]; then
    # Instructions per frame by phase (Callgrind): the code's own work, which the host's noise
    # does not move; the project's strategies only (the release binary), 20 frames each.
    rm -f "$out"/instructions-*.json
    if command -v valgrind >/dev/null; then
      for scene in app particles; do
        echo "results: instructions, $scene" >&2
        .build/release/hitbench run --scene "$scene" --layers 10000 --queries 1,100,1000 --frames 20 --warmup 3 \
          --min-windows 3 --instructions --format json --output "$out/instructions-$scene.json"
      done
    else
      echo "results: instructions not counted: valgrind is not installed (apt install valgrind)" >&2
    fi
  fi
  echo "results: mismatch" >&2
  "$bin" mismatch --format csv > "$out/mismatch.csv"
  if [ "$mode" != "--asan" ]; then
    echo "results: memory" >&2
    bash scripts/memory.sh "$out"
  fi
  echo "results: scanbench" >&2
  {
    "$bin" scanbench --scene app --layers 10000
    "$bin" scanbench --scene app --layers 100000 | tail -1
    "$bin" scanbench --scene particles --layers 10000 | tail -1
    "$bin" scanbench --scene particles --layers 100000 | tail -1
  } > "$out/scanbench.csv"
  if grep -q '^peers=measured' "$out/peers.txt" 2>/dev/null && command -v perf >/dev/null; then
    echo "results: peer profiles" >&2
    bash scripts/peer_profile.sh "$out" "$bin"
  fi
  echo "results: verify" >&2
  "$bin" verify --scenes "$verify_scenes" --points 2000 > "$out/verify.txt"
  {
    echo "swift=$(swift --version 2>&1 | head -1)"
    echo "kernel=$(uname -sr)"
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "clock=$(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') MHz"
    # A hypervisor's name (KVM...) when the CPU flags say there is one: a virtual machine,
    # whose host other tenants may share.
    echo "hypervisor=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor: *//p' | head -1)"
    echo "cores=$(nproc)"
    echo "memory=$(free -h | awk '/Mem:/ {print $2}')"
    echo "commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)"
  } > "$out/machine.txt"
fi
if command -v chromium >/dev/null && [ "$mode" != "--asan" ]; then
  echo "results: the report's page in Chromium" >&2
  bash scripts/report-check.sh "$out/report.html" --screenshot "$out/report.png"
fi
echo "results: pictures" >&2
bash scripts/pictures.sh "$bin" "$out/pictures"
# JSON -> CSV for every suite (one flat row per result).
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv >&2; fi
.venv/bin/pip install -q -r scripts/requirements.txt >&2
# Only the plots this commit draws: one that is no longer drawn must not linger unlinked.
rm -f "$out"/plots/*.png
.venv/bin/python scripts/plot.py "$out"
if [ "$mode" = "--asan" ]; then
  # No RESULTS.md: it needs every suite, and this run measures two (the render refuses a
  # missing input). What the sanitizer checks is the binaries, which have all run by now.
  echo "results: the pipeline completed under AddressSanitizer without a report ($out)" >&2
  exit 0
fi
.venv/bin/python scripts/render_results.py "$out" scripts/RESULTS.template.md > RESULTS.md.tmp
mv RESULTS.md.tmp RESULTS.md
.venv/bin/python scripts/render_results.py "$out" scripts/RESULTS.template.md --readme README.md
echo "results: RESULTS.md, README.md's decision and $out/plots/*.png written" >&2
