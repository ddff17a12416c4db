#!/usr/bin/env bash
# Instructions per frame, by phase, under Valgrind's Callgrind: a measurement that does not
# move with the host (docs/measuring.md). Runs `hitbench run ARGS...` three times under
# Callgrind, collecting in turn only the build, only the update and only the queries of the
# measured frames (HITBENCH_COUNTED_PHASE; each strategy's count a dump of its own, its frames
# one strategy after another, once), and prints per strategy and Q the instructions a frame
# spends in each phase and a query costs. Every thread's instructions count while a phase is
# collected: with two build threads the build's count includes a waiting worker's spinning,
# so compare builds with --threads 1. Background window builds are not counted. Two runs
# agree to about 0.01%.
#   scripts/instructions.sh [--csv FILE] RUN-ARGS...
#   scripts/instructions.sh --scene particles --layers 10000 --strategy grid,window-grid --queries 100 --frames 20
# Exit 69 when Valgrind is missing (apt install valgrind), 64 without run arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
csv=""
if [ "${1:-}" = "--csv" ]; then
  [ $# -ge 2 ] || { echo "instructions: --csv needs a file" >&2; exit 64; }
  csv=$2
  shift 2
fi
[ $# -gt 0 ] || { echo "instructions: give hitbench run's arguments (scene, strategies, queries, frames)" >&2; exit 64; }
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed (apt install valgrind)" >&2; exit 69; }
bin=.build/release/hitbench
swift build -c release --product hitbench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for phase in build update queries; do
  echo "instructions: counting the $phase phase under Callgrind" >&2
  HITBENCH_COUNTED_PHASE=$phase valgrind -q --tool=callgrind --collect-atstart=no \
    --callgrind-out-file="$tmp/$phase.%p" "$bin" run "$@" --format csv --output "$tmp/$phase.csv" >&2
done
python3 - "$tmp" "$csv" <<'PY'
import glob, os, re, sys
tmp, out = sys.argv[1], sys.argv[2]
counts = {}
calibration = []
for path in glob.glob(os.path.join(tmp, "*.*")):
    if path.endswith(".csv"):
        continue
    label = total = None
    for line in open(path, errors="replace"):
        if line.startswith("desc: Trigger: Client Request: hitbench "):
            label = dict(kv.split("=", 1) for kv in line.split("hitbench ", 1)[1].split() if "=" in kv)
        elif line.startswith("totals:"):
            total = int(line.split()[1])
    if label and total is not None and "iterations" in label:
        calibration.append((int(label["iterations"]), total))
    elif label and total is not None:
        key = (label["strategy"], int(label["queries"]))
        counts.setdefault(key, {"frames": int(label["frames"])})[label["phase"]] = total
if not counts:
    sys.exit("instructions: Callgrind wrote no counts (was the run measured?)")
rows = []
for (strategy, q), c in counts.items():
    n = max(c["frames"], 1)
    per = {p: c.get(p, 0) / n for p in ("build", "update", "queries")}
    rows.append((strategy, q, c["frames"], per["build"], per["update"], per["queries"],
                 per["queries"] / q if q else 0, sum(per.values())))
rows.sort(key=lambda r: (r[1], r[0]))
header = ["strategy", "Q", "frames", "build/frame", "update/frame", "queries/frame", "per query", "frame"]
fmt = lambda v: f"{v:,.0f}" if isinstance(v, float) else str(v)
table = [header] + [[fmt(v) for v in r] for r in rows]
widths = [max(len(r[i]) for r in table) for i in range(len(header))]
for r in table:
    print("  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(r, widths))))
print("instructions per measured frame (Callgrind, Ir); the frame = build + update + queries")
for n, total in calibration[:1]:
    print(f"calibration: a loop of 2 x {n:,} instructions counted {total:,} ({(total / (2 * n) - 1) * 100:+.3f}%)")
if out:
    with open(out, "w") as f:
        f.write(",".join(["strategy", "queries", "frames", "buildPerFrame", "updatePerFrame", "queriesPerFrame",
                          "perQuery", "framePerFrame"]) + "\n")
        for r in rows:
            f.write(",".join(str(round(v, 1)) if isinstance(v, float) else str(v) for v in r) + "\n")
PY
