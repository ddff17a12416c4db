#!/usr/bin/env bash
# Where the fastest peers spend their frame: perf (cpu-clock) over `profile` loops of the best
# rebuilt and the best bulk-loaded peer, each phase, grouped by library (shared object).
# Writes OUT/peer-profile.csv (peer,scene,phase,dso,percent) and OUT/time-aware-profile.csv
# (symbol,percent: window-grid's queries on particles). Called by scripts/results.sh
# when the peers and perf are present.
#   scripts/peer_profile.sh OUT HITBENCH_PEERS_BINARY
set -euo pipefail
out=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "peer,scene,phase,dso,percent" > "$out/peer-profile.csv.tmp"
for run in "embree-bvh particles" "embree-bvh app" "geos-strtree particles" "geos-strtree app"; do
  set -- $run
  for phase in update queries; do
    perf record -q -e cpu-clock -o "$tmp/p.data" "$bin" profile --strategy "$1" --scene "$2" --layers 10000 \
      --phase "$phase" --seconds 2 >/dev/null 2>&1
    # Through a file: `head` closing a pipe would fail the pipeline (SIGPIPE under pipefail).
    perf report -i "$tmp/p.data" --no-children --sort dso --stdio >"$tmp/p.txt" 2>/dev/null
    awk -v p="$1" -v s="$2" -v ph="$phase" \
      '/^ +[0-9.]+%/ && n < 4 { n++; gsub("%", "", $1); print p "," s "," ph "," $2 "," $1 }' "$tmp/p.txt" \
      >> "$out/peer-profile.csv.tmp"
  done
done
mv "$out/peer-profile.csv.tmp" "$out/peer-profile.csv"

# And where the best time-aware strategy spends its queries on particles (RESULTS.md: why it
# misses its target there): the top symbols, demangled.
perf record -q -e cpu-clock -o "$tmp/t.data" "$bin" profile --strategy window-grid --scene particles --layers 10000 \
  --phase queries --seconds 2 >/dev/null 2>&1
{
  echo "symbol,percent"
  perf report -i "$tmp/t.data" --no-children --sort symbol --stdio >"$tmp/t.txt" 2>/dev/null
  awk '/^ +[0-9.]+%/ && n < 6 { n++; p = $1; gsub("%", "", p); $1 = ""; $2 = ""; sub(/^ +/, "");
    sub(/ +- -$/, ""); gsub(",", ";"); print $0 "," p }' "$tmp/t.txt" | swift demangle --simplified
} > "$out/time-aware-profile.csv.tmp"
mv "$out/time-aware-profile.csv.tmp" "$out/time-aware-profile.csv"
