#!/usr/bin/env bash
# How often `hitbench compare` cries wolf, and how often it sees a real slowdown (issue 43). Each
# side of a time comparison is two runs, and the two sides' runs are taken in turns (A B A B),
# so that both see the host's slow and fast stretches alike; `compare A1,A2 B1,B2` pools each
# side's frames (docs/measuring.md):
#   A/A:   TRIALS comparisons of one binary and command against itself (app 10k, every own
#          strategy, Q = 1 and 100, 20 frames a run after 5 of warm-up): a trial is clean when compare reports no
#          regression (exit 0).
#   power: TRIALS comparisons (app 10k, tree-walk, grid and window-grid, Q = 100, 60 frames), the B runs
#          with grid's queries slowed by a tenth of grid's mean frame (--inject-query-delay-ns,
#          measured from a first run): a trial detects the slowdown when compare reports
#          grid's frameNsMean or hitTestNsMean (its update + queries, where the delay is) as a
#          REGRESSION; the summary also says in how many its frame mean was one.
#   by instructions (with Valgrind; skipped without it): TRIALS / 4 pairs of runs with
#          --instructions (app 10k, tree-walk, grid and window-grid with a pinned 50 ms window,
#          Q = 100), the second of each with 2% of grid's instructions per frame planted in its
#          queries (--inject-query-instructions): a pair detects it when compare reports grid's
#          instructionsPerFrame as a REGRESSION; each base against the one before is an A/A trial,
#          clean when no instruction count is reported.
# Writes data/compare-power/trials.csv (kind, trial, regressions, detected, frame) and summary.txt
# (machine, toolchain, commit, the counts). About 15 minutes on a 2-core machine.
#   scripts/compare-power.sh [TRIALS]      (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
trials=${1:-20}
[[ "$trials" =~ ^[1-9][0-9]*$ ]] || { echo "compare-power: TRIALS must be a positive integer" >&2; exit 64; }
out=data/compare-power
bin=.build/release/hitbench
swift build -c release --product hitbench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
aa=(--scene app --layers 10000 --strategy all --queries 1,100 --frames 20 --warmup 5)
power=(--scene app --layers 10000 --strategy tree-walk,grid,window-grid --queries 100 --frames 60 --warmup 10)

echo "kind,trial,regressions,detected,frame" >"$tmp/trials.csv"
# The number of regressions compare reports between two files (its summary line).
regressions() { "$bin" compare "$1" "$2" | sed -n 's/.* metrics compared, \([0-9]*\) regressions.*/\1/p'; }

# Runs of A and of B in turns, PAIRS of each: prints "A1,A2 B1,B2" for compare.
pairs=2
in_turns() {
  local name=$1
  shift
  local a=() b=()
  for p in $(seq 1 $pairs); do
    "$bin" run "$@" --format json --output "$tmp/$name-a$p.json"
    "$bin" run "$@" ${inject:+--inject-query-delay-ns "$inject"} --format json --output "$tmp/$name-b$p.json"
    a+=("$tmp/$name-a$p.json")
    b+=("$tmp/$name-b$p.json")
  done
  echo "$(IFS=,; echo "${a[*]}") $(IFS=,; echo "${b[*]}")"
}

inject=""
for i in $(seq 1 "$trials"); do
  echo "compare-power: A/A trial $i of $trials" >&2
  read -r sa sb < <(in_turns "aa-$i" "${aa[@]}")
  n=$(regressions "$sa" "$sb" || true)
  echo "aa,$i,${n:-0},$([ "${n:-0}" -gt 0 ] && echo 1 || echo 0),0" >>"$tmp/trials.csv"
done

"$bin" run "${power[@]}" --format json --output "$tmp/probe.json"
delay=$(python3 -c "
import json, sys
r = [x for x in json.load(open('$tmp/probe.json'))['results'] if x['strategy'] == 'grid'][0]
print(int(r['frameNs']['mean'] * 0.10))")
echo "compare-power: planted slowdown ${delay} ns a frame (a tenth of grid's mean frame)" >&2
inject="grid:$delay"
for i in $(seq 1 "$trials"); do
  echo "compare-power: power trial $i of $trials" >&2
  read -r sa sb < <(in_turns "power-$i" "${power[@]}")
  set +e
  report=$("$bin" compare "$sa" "$sb")
  set -e
  n=$(sed -n 's/.* metrics compared, \([0-9]*\) regressions.*/\1/p' <<<"$report")
  # Reported: grid's frame or its own share (update + queries, where the delay is planted) a
  # REGRESSION; `frame` says whether its frame mean was one of them.
  hit=$(awk '$1 == "grid" && / (frameNsMean|hitTestNsMean) / && /REGRESSION/ { print 1; exit }' <<<"$report")
  frame=$(awk '$1 == "grid" && / frameNsMean / && /REGRESSION/ { print 1; exit }' <<<"$report")
  echo "power,$i,${n:-0},${hit:-0},${frame:-0}" >>"$tmp/trials.csv"
done
inject=""

counted=(--scene app --layers 10000 --strategy tree-walk,grid,window-grid --window 50 --queries 100 --frames 20
  --warmup 5 --instructions)
planted=0
if command -v valgrind >/dev/null; then
  "$bin" run "${counted[@]}" --format json --output "$tmp/counted-probe.json"
  planted=$(python3 -c "
import json
r = [x for x in json.load(open('$tmp/counted-probe.json'))['results'] if x['strategy'] == 'grid'][0]
print(int(r['instructions']['framePerFrame'] * 0.02))")
  echo "compare-power: planted ${planted} instructions a frame (2% of grid's)" >&2
  for i in $(seq 1 $(((trials + 3) / 4))); do
    echo "compare-power: instruction trial $i" >&2
    "$bin" run "${counted[@]}" --format json --output "$tmp/cbase-$i.json"
    "$bin" run "${counted[@]}" --inject-query-instructions "grid:$planted" --format json --output "$tmp/cslow-$i.json"
    set +e
    report=$("$bin" compare "$tmp/cbase-$i.json" "$tmp/cslow-$i.json")
    same=$("$bin" compare "$tmp/$([ "$i" -gt 1 ] && echo "cbase-$((i - 1))" || echo counted-probe).json" "$tmp/cbase-$i.json")
    set -e
    hit=$(awk '$1 == "grid" && / instructionsPerFrame / && /REGRESSION/ { print 1; exit }' <<<"$report")
    n=$(grep -c 'nstructionsPerFrame .*REGRESSION' <<<"$same" || true)
    echo "instructions-power,$i,0,${hit:-0},0" >>"$tmp/trials.csv"
    echo "instructions-aa,$i,${n:-0},$([ "${n:-0}" -gt 0 ] && echo 1 || echo 0),0" >>"$tmp/trials.csv"
  done
else
  echo "compare-power: valgrind is not installed: no trials by instructions" >&2
fi

cp "$tmp/trials.csv" "$out/trials.csv"
python3 - "$out" "$trials" "$delay" "$planted" "$(( $(date +%s) - started ))" <<'PY'
import csv, os, sys
out, trials, delay, planted, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rows = list(csv.DictReader(open(os.path.join(out, "trials.csv"))))
aa = [r for r in rows if r["kind"] == "aa"]
pw = [r for r in rows if r["kind"] == "power"]
clean = sum(1 for r in aa if r["regressions"] == "0")
false_alarms = sum(int(r["regressions"]) for r in aa)
detected = sum(1 for r in pw if r["detected"] == "1")
by_frame = sum(1 for r in pw if r.get("frame") == "1")
sys.path.insert(0, "scripts")
from provenance import header
lines = header() + [
    "time: each side two runs, the sides' runs taken in turns (A B A B), pooled by compare",
    f"took {seconds // 60} min {seconds % 60} s, build included (target under 15 min)",
    f"A/A: {clean} of {len(aa)} trials clean (target at least {len(aa) - len(aa) // 20}); "
    f"{false_alarms} regressions reported in all",
    f"power: a slowdown of {delay} ns a frame (10% of grid's mean) detected in {detected} of {len(pw)} trials "
    f"(target at least {len(pw) - len(pw) // 20}), by its frame mean in {by_frame}",
]
ipw = [r for r in rows if r["kind"] == "instructions-power"]
iaa = [r for r in rows if r["kind"] == "instructions-aa"]
if ipw:
    lines += [
        f"by instructions, A/A: {sum(1 for r in iaa if r['detected'] == '0')} of {len(iaa)} trials report no "
        f"instruction count (target all)",
        f"by instructions, power: {planted} instructions a frame (2% of grid's) reported in "
        f"{sum(1 for r in ipw if r['detected'] == '1')} of {len(ipw)} trials (target all)",
    ]
open(os.path.join(out, "summary.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
