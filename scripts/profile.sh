#!/usr/bin/env bash
# Records a perf profile of one strategy's phase and writes a demangled report and folded stacks.
#   scripts/profile.sh STRATEGY [PHASE] [hitbench profile options...]
#   e.g. scripts/profile.sh grid update --scene particles --layers 100000 --seconds 5
# Outputs (in data/profiles/STRATEGY-PHASE/): report.txt (perf report, Swift names),
# folded.txt (one line per stack, for flame graphs), perf.data.
set -euo pipefail
cd "$(dirname "$0")/.."
strategy=${1:?usage: scripts/profile.sh STRATEGY [update|queries|presentation] [options]}
phase=${2:-queries}
shift $(( $# >= 2 ? 2 : 1 ))
bash scripts/setup.sh
if ! command -v perf >/dev/null 2>&1; then
  echo "profile: installing linux-perf (apt-get)" >&2
  SUDO=""; [ "$(id -u)" != 0 ] && SUDO=sudo
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq linux-perf >&2
fi
swift build -c release --product hitbench >&2
out="data/profiles/$strategy-$phase"
mkdir -p "$out"
perf record -e cpu-clock -F 4999 --call-graph dwarf -o "$out/perf.data" -- \
  .build/release/hitbench profile --strategy "$strategy" --phase "$phase" --seconds 5 "$@" 2>&1 | tail -2 >&2
perf report -i "$out/perf.data" --no-children --stdio 2>/dev/null | swift demangle --simplified > "$out/report.txt"
perf script -i "$out/perf.data" 2>/dev/null | swift demangle --simplified | python3 scripts/fold_stacks.py > "$out/folded.txt"
echo "profile: $out/report.txt (top of it below), $out/folded.txt" >&2
grep -E '^ +[0-9]' "$out/report.txt" | head -15
