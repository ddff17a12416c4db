#!/usr/bin/env bash
# How far one run of a command is from the next on this host: the spread `RunSpread` adds to a
# target's interval (Sources/BenchKit/Statistics/RunSpread.swift, docs/measuring.md). Runs the
# same command RUNS times, one process after another (app 10k, every own strategy, Q = 1 and
# 100, 40 frames after 5 of warm-up: the length of the default and build suites), and splits
# the log of each result's mean frame against its mean over the runs into
#   the run as a whole: the median over a run's strategies (per Q), shared by all of them;
#   a strategy's own: what is left, per strategy.
# Writes data/run-spread/runs.csv (run, strategy, Q, threads, mean frame ns) and summary.txt
# (machine, toolchain, commit, command, the standard deviations). About 6 minutes.
#   scripts/run-spread.sh [RUNS]      (default 12)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
runs=${1:-12}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] && [ "$runs" -ge 3 ] || { echo "run-spread: RUNS must be an integer of at least 3" >&2; exit 64; }
out=data/run-spread
bin=.build/release/hitbench
swift build -c release --product hitbench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
command=(--scene app --layers 10000 --strategy all --queries 1,100 --frames 40 --warmup 5)
for i in $(seq 1 "$runs"); do
  echo "run-spread: run $i of $runs" >&2
  timeout 600 "$bin" run "${command[@]}" --format json --output "$tmp/run-$i.json" >/dev/null
done
python3 - "$tmp" "$out" "$runs" "$(( $(date +%s) - started ))" "${command[*]}" <<'PY'
import json, math, os, statistics, sys
tmp, out, runs, seconds, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rows = []
for i in range(1, runs + 1):
    for r in json.load(open(os.path.join(tmp, f"run-{i}.json")))["results"]:
        rows.append((i, r["strategy"], int(r["queriesPerFrame"]), int(r["threads"]), r["frameNs"]["mean"]))
with open(os.path.join(out, "runs.csv"), "w") as f:
    f.write("run,strategy,queries,threads,frameNsMean\n")
    for row in rows:
        f.write(",".join(str(x) for x in row) + "\n")
# Each result's log against its mean log over the runs.
key = lambda row: (row[1], row[2], row[3])
logs = {}
for row in rows:
    logs.setdefault(key(row), {})[row[0]] = math.log(row[4])
centre = {k: statistics.fmean(v.values()) for k, v in logs.items()}
# The run as a whole, per run and Q: the median of its strategies' deviations.
whole = {}
for k, v in logs.items():
    for run, x in v.items():
        whole.setdefault((run, k[1]), []).append(x - centre[k])
whole = {rq: statistics.median(d) for rq, d in whole.items()}
host = statistics.stdev(whole.values())
own = {}
for k, v in logs.items():
    own[k] = statistics.stdev([x - centre[k] - whole[(run, k[1])] for run, x in v.items()])
spreads = sorted(own.values())
sys.path.insert(0, "scripts")
from provenance import header
pct = lambda s: f"{100 * s:.1f}%"
lines = header() + [
    f"command: hitbench run {command} (one process after another, {runs} runs)",
    f"took {seconds // 60} min {seconds % 60} s, build included",
    f"the run as a whole (the median strategy's log against its mean, per run and Q): standard deviation "
    f"{pct(host)}; from {pct(math.expm1(min(whole.values())))} to {pct(math.expm1(max(whole.values())))}",
    f"a strategy's own, the run as a whole taken out (standard deviation over runs, {len(spreads)} results): "
    f"median {pct(statistics.median(spreads))}, from {pct(spreads[0])} to {pct(spreads[-1])}",
]
open(os.path.join(out, "summary.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
