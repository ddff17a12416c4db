#!/usr/bin/env bash
# Checks that a million-layer run's report and trace stay usable (issue: a run you can look
# at): runs particles at 1,000,000 layers, Q = 1000, grid and window-grid with --report and
# --trace, then fails when the page is over 16 MB, the trace over 32 MB, the trace is not
# valid JSON with its slices' times and durations non-negative, the page does not pass scripts/report-check.sh, or the
# page takes 5 s or more to open in headless Chromium beyond what an empty page takes (the
# best of three of each, so the browser's own start is not counted). Needs chromium
# (scripts/install-chromium.sh; exit 69 without it). About two minutes.
#   scripts/report-scale.sh [--frames N]   (default 40 measured frames)
set -euo pipefail
cd "$(dirname "$0")/.."
frames=40
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) [ $# -ge 2 ] || { echo "report-scale: --frames needs a number" >&2; exit 64; }; frames=$2; shift 2 ;;
    *) echo "report-scale: unknown argument $1" >&2; exit 64 ;;
  esac
done
command -v chromium >/dev/null || { echo "report-scale: chromium is not installed (bash scripts/install-chromium.sh)" >&2; exit 69; }
swift build -c release --product hitbench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timeout 900 .build/release/hitbench run --scene particles --layers 1000000 --strategy grid,window-grid \
  --queries 1000 --frames "$frames" --warmup 2 --report "$tmp/report.html" --trace "$tmp/trace.json" \
  --format json --output "$tmp/run.json" >&2
bash scripts/report-check.sh "$tmp/report.html" --screenshot "$tmp/shot.png" >&2
echo '<!doctype html><html><head><meta charset="utf-8"><title>empty</title></head><body>empty</body></html>' \
  > "$tmp/empty.html"
# Seconds for headless Chromium to load a page and take its screenshot, best of three.
open_seconds() {
  local best=""
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1240,1800 \
      --screenshot="$tmp/timed.png" "file://$1" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    best=$(python3 -c "import sys; a, b, c = sys.argv[1:]; d = float(b) - float(a); print(d if not c or d < float(c) else c)" \
      "$start" "$end" "$best")
  done
  echo "$best"
}
empty=$(open_seconds "$tmp/empty.html")
page=$(open_seconds "$tmp/report.html")
python3 - "$tmp/report.html" "$tmp/trace.json" "$empty" "$page" <<'PY'
import json, os, sys
report, trace, empty, page = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
problems = []
mb = lambda p: os.path.getsize(p) / 1e6
if mb(report) > 16: problems.append(f"the page is {mb(report):.1f} MB (at most 16)")
if mb(trace) > 32: problems.append(f"the trace is {mb(trace):.1f} MB (at most 32)")
try:
    events = json.load(open(trace))["traceEvents"]
    slices = [e for e in events if e.get("ph") == "X"]
    if not slices: problems.append("the trace has no slices")
    if any(not (e["dur"] >= 0 and e["ts"] >= 0) for e in slices):
        problems.append("the trace has a slice with a negative time or duration")
except (ValueError, KeyError, TypeError) as e:
    problems.append(f"the trace is not a readable trace ({e})")
    events, slices = [], []
if page - empty >= 5: problems.append(f"the page takes {page - empty:.1f} s to open beyond an empty page's {empty:.1f} s")
if problems:
    print("report-scale: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"report-scale: 1,000,000 layers: page {mb(report):.1f} MB, opens in {page:.2f} s ({page - empty:.2f} s beyond "
      f"an empty page); trace {mb(trace):.2f} MB, {len(events)} events, "
      f"{len(slices)} slices")
PY
