#!/usr/bin/env bash
# The memory breakdown (issue: cost that follows the work): the `memory` suite (Benchmarks/
# Suites.swift: particles at 1,000 to 1,000,000 layers) once per strategy, each strategy in a
# process of its own, so the peak resident memory a result reports is its strategy's alone,
# with the live-heap parts every result carries (model, compiled scene, frame with its builder,
# the strategy's state; docs/results-schema.md); the model generated whole (one verified run);
# and `generate`'s own peak. Writes memory.csv (a row per strategy and size), memory-targets.json
# (the suite's targets, each judged where its strategies ran), memory-generate.csv,
# memory-model-whole.csv and memory-meta.txt (the commit measured) into DIR (default
# data/results). About 7 minutes.
#   bash scripts/memory.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-data/results}
bin=.build/release/hitbench
[ -x "$bin" ] || swift build -c release --product hitbench >&2
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strategies=(tree-walk grid bvh-sah lazy-walk window-grid stagger-grid linear-bvh)
sizes=(1000 10000 100000 1000000)
runs=()
for s in "${strategies[@]}"; do
  echo "memory: $s, every size, in a process of its own" >&2
  "$bin" run --suite memory --strategy "$s" --pacing back-to-back --format json > "$tmp/$s.json"
  runs+=("$tmp/$s.json")
done
python3 scripts/memory_merge.py "$tmp/memory.csv" "$tmp/targets.json" "${runs[@]}"
# The model generated whole (what --verify and the kinds that do not seal their top-level
# layers hold): one verified run at the largest size.
top=${sizes[${#sizes[@]}-1]}
echo "memory: the model generated whole at $top layers (--verify)" >&2
"$bin" run --scene particles --layers "$top" --strategy tree-walk --queries 10 --frames 1 --warmup 0 \
  --pacing back-to-back --verify --format csv > "$tmp/whole.csv"
echo "layers,maxRSSKiB" > "$tmp/generate.csv"
for n in "${sizes[@]}"; do
  echo "memory: generate at $n layers" >&2
  /usr/bin/time -f "%M" -o "$tmp/rss" "$bin" generate particles --layers "$n" -o "$tmp/scene.json"
  echo "$n,$(tail -1 "$tmp/rss")" >> "$tmp/generate.csv"
done
commit=$(git rev-parse HEAD)
git diff --quiet HEAD -- Sources Package.swift || commit="$commit+uncommitted"
echo "commit=$commit date=$(date -u +%Y-%m-%dT%H:%MZ)" > "$out/memory-meta.txt"
mv "$tmp/memory.csv" "$out/memory.csv"
mv "$tmp/targets.json" "$out/memory-targets.json"
mv "$tmp/generate.csv" "$out/memory-generate.csv"
mv "$tmp/whole.csv" "$out/memory-model-whole.csv"
echo "memory: wrote $out/memory.csv, $out/memory-targets.json, $out/memory-generate.csv and $out/memory-model-whole.csv" >&2
