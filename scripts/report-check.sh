#!/usr/bin/env bash
# Opens a run's HTML report (`hitbench run --report`, `hitbench report`) in headless Chromium
# as a person would, takes a screenshot, and fails on a console message, a request that leaves
# the page, or a picture with nothing drawn in it. Without an argument it makes a report of a
# small run first. Needs Debian's chromium (scripts/install-chromium.sh); exit 69 without it.
#   scripts/report-check.sh [REPORT.html] [--screenshot FILE.png]
set -euo pipefail
report=""
shot=""
# Paths as the caller gave them, before the script moves to the repository.
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --screenshot) [ $# -ge 2 ] || { echo "report-check: --screenshot needs a file" >&2; exit 64; }; shot=$(absolute "$2"); shift 2 ;;
    -*) echo "report-check: unknown option $1" >&2; exit 64 ;;
    *) report=$(absolute "$1"); shift ;;
  esac
done
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "report-check: chromium is not installed (bash scripts/install-chromium.sh)" >&2; exit 69; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$report" ]; then
  swift build -c release --product hitbench >&2
  report=$tmp/report.html
  .build/release/hitbench run --scene app --layers 2000 --strategy grid,window-grid,tree-walk --queries 10 \
    --frames 60 --warmup 3 --report "$report" --format json --output "$tmp/run.json" >&2
fi
[ -f "$report" ] || { echo "report-check: no report at $report" >&2; exit 66; }
shot=${shot:-$tmp/shot.png}
url="file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
# Every host name resolves to nothing, so a request that leaves the page fails, and the
# network log keeps it with the page as its initiator (the browser's own have none).
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1240,1800 \
  --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 --log-net-log="$tmp/net.json" \
  --screenshot="$shot" "$url" 2>"$tmp/chromium.log" >/dev/null || true
python3 - "$tmp/chromium.log" "$tmp/net.json" "$shot" <<'PY'
import json, struct, sys, zlib
log, net, shot = sys.argv[1:4]
problems = []
for line in open(log, errors="replace"):
    if "CONSOLE" in line:
        problems.append("console: " + line.strip()[:200])
try:
    # The page's requests: jobs with an initiator (the browser's own say "not an origin").
    log_json = json.load(open(net))
    start = log_json["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    for e in log_json["events"]:
        p = e.get("params", {})
        if e["type"] == start and "url" in p and p.get("initiator") != "not an origin" and \
                not p.get("url", "").startswith(("file:", "data:", "about:")):
            problems.append("request leaving the page: " + p.get("url", "?")[:200])
except (FileNotFoundError, ValueError, KeyError) as e:
    problems.append(f"chromium wrote no readable network log ({e})")

def pixels(path):
    """The screenshot's RGB rows (8-bit RGB or RGBA PNG, not interlaced)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[ctype]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), w * channels, bytearray(w * channels), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return rows, channels

try:
    rows, ch = pixels(shot)
    # Coloured pixels (a line, a bar): the pictures were drawn, not left blank.
    coloured = sum(1 for row in rows for i in range(0, len(row), ch)
                   if max(row[i:i + 3]) - min(row[i:i + 3]) > 60)
    if coloured < 2000:
        problems.append(f"the pictures look blank ({coloured} coloured pixels)")
except Exception as e:
    problems.append(f"no screenshot: {e}")
if problems:
    print("report-check: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"report-check: the page opened cleanly (no console message, no request leaving it), "
      f"{coloured} coloured pixels drawn; screenshot {shot}")
PY
