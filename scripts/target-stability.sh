#!/usr/bin/env bash
# Whether a suite's verdicts hold when the same commit is measured again (issue 43): runs every
# suite whose targets rest on times twice, the second round after the whole first (so the two
# measurements of a suite are half an hour apart), through hitbench-peers when the peers are
# installed (scripts/peers.sh; the crossover suite's targets need them), and counts for each
# target whether its two verdicts agree, one is undecided, or they flip between met and not met
# (which must not happen: a verdict's interval carries the spread between runs, `RunSpread`).
# Writes data/target-stability/verdicts.csv (suite, target, first, second) and summary.txt
# (machine, toolchain, commit, the counts). About an hour on a 2-core machine.
#   scripts/target-stability.sh [SUITE ...]   (default: build threads animated-fraction time-aware crossover)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(build threads animated-fraction time-aware crossover)
out=data/target-stability
bin=.build/release/hitbench
swift build -c release --product hitbench >&2
if bash scripts/peers.sh --check >/dev/null 2>&1; then bin=$(bash scripts/peers.sh | tail -1); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
for side in first second; do
  for suite in "${suites[@]}"; do
    echo "target-stability: suite $suite, $side run" >&2
    timeout 3000 "$bin" run --suite "$suite" --format json --output "$tmp/$suite-$side.json" >/dev/null
  done
done
python3 - "$tmp" "$out" "$(( $(date +%s) - started ))" "$bin" "${suites[@]}" <<'PY'
import json, os, sys
tmp, out, seconds, binary, suites = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
rows = []
loads = []
for suite in suites:
    for side in ("first", "second"):
        for r in json.load(open(os.path.join(tmp, f"{suite}-{side}.json")))["results"]:
            if r.get("hostOtherCores") is not None:
                loads.append(r["hostOtherCores"])
    first, second = (json.load(open(os.path.join(tmp, f"{suite}-{side}.json")))["targets"] for side in ("first", "second"))
    second = {t["name"]: t for t in second}
    for t in first:
        other = second.get(t["name"], {"status": "missing", "measured": ""})
        rows.append((suite, t["name"], t["status"], other["status"], t["measured"], other["measured"]))
with open(os.path.join(out, "verdicts.csv"), "w") as f:
    f.write("suite\ttarget\tfirst\tsecond\tfirst measured\tsecond measured\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
decided = ("met", "not met")
flips = [r for r in rows if r[2] in decided and r[3] in decided and r[2] != r[3]]
same = [r for r in rows if r[2] == r[3]]
undecided = [r for r in rows if r not in flips and r not in same and "undecided" in (r[2], r[3])]
sys.path.insert(0, "scripts")
from provenance import header
lines = header() + [
    f"binary: {os.path.basename(binary)}; suites {', '.join(suites)}, each run twice (all once, then all again)",
    f"took {seconds // 60} min {seconds % 60} s, build included",
    f"targets: {len(rows)}; the same verdict twice: {len(same)} "
    f"({sum(1 for r in same if r[2] == 'met')} met, {sum(1 for r in same if r[2] == 'not met')} not met, "
    f"{sum(1 for r in same if r[2] == 'undecided')} undecided, "
    f"{sum(1 for r in same if r[2] == 'not measured')} not measured); "
    f"undecided in one run only: {len(undecided)}; flipped between met and not met: {len(flips)} (target 0)",
] + ([f"the host's other work during a configuration's turns (cores, {len(loads)} results): median "
       f"{sorted(loads)[len(loads) // 2]:.2f}, at most {max(loads):.2f}; busy (above 0.25, times the busy host's): "
       f"{sum(1 for x in loads if x > 0.25)}"] if loads else []) + [
    f"flipped: {r[0]}: {r[1]}: {r[2]} ({r[4]}) then {r[3]} ({r[5]})" for r in flips]
open(os.path.join(out, "summary.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
