#!/usr/bin/env bash
# Where the fastest peers spend their frame: perf (cpu-clock) over `profile` loops of the best
# rebuilt and the best bulk-loaded peer, each phase, grouped by library (shared object).
# Writes OUT/peer-profile.csv (peer,scene,phase,dso,percent). Called by scripts/results.sh
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
    perf report -i "$tmp/p.data" --no-children --sort dso --stdio 2>/dev/null \
      | awk -v p="$1" -v s="$2" -v ph="$phase" '/^ +[0-9.]+%/ { gsub("%", "", $1); print p "," s "," ph "," $2 "," $1 }' \
      | head -4 >> "$out/peer-profile.csv.tmp"
  done
done
mv "$out/peer-profile.csv.tmp" "$out/peer-profile.csv"
