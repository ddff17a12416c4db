#!/usr/bin/env bash
# Draws a few pictures with `hitbench render` and rasterises them with a real renderer from
# Debian (librsvg's rsvg-convert), so a person can look at them; the HTML page is loaded in
# headless Chromium where it is installed, which must run its script (the time label is set)
# and make no request (the page's Content-Security-Policy forbids every fetch, and Chromium
# reports a refused one).
#   bash scripts/render-check.sh [DIR] [--large]   pictures in DIR (default .build/render-check);
#                                                  --large adds a million-layer frame
# Installs librsvg2-bin when missing (apt); Chromium is optional (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/render-check
large=0
for a in "$@"; do
  case "$a" in
    --large) large=1 ;;
    -*) echo "usage: bash scripts/render-check.sh [DIR] [--large]" >&2; exit 64 ;;
    *) out=$a ;;
  esac
done
mkdir -p "$out"
if ! command -v rsvg-convert >/dev/null; then
  echo "== installing librsvg2-bin (rsvg-convert)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q librsvg2-bin >/dev/null
fi
swift build -c release --product hitbench >&2
h=.build/release/hitbench

draw() {  # name, then render's options
  local name=$1
  shift
  "$h" render "$@" --output "$out/$name" 2>&1 | sed 's/^/  /' >&2
}
# The pictures the docs show (scripts/pictures.sh), then a few more.
bash scripts/pictures.sh "$h" "$out"
draw app-flat-tree.svg --scene app --layers 500 --time 0.5 --strategy flat-tree --queries 4
draw particles-stagger.svg --scene particles --layers 300 --times 0:1:0.1 --strategy stagger-grid --queries 4
if [ "$large" = 1 ]; then
  start=$(date +%s.%N)
  draw particles-1m-grid.svg --scene particles --layers 1000000 --time 0.5 --strategy grid --queries 20
  echo "  1,000,000 layers: $(echo "$(date +%s.%N) - $start" | bc) s, $(stat -c %s "$out/particles-1m-grid.svg") bytes" >&2
fi

for svg in "$out"/*.svg; do
  png=${svg%.svg}.png
  rsvg-convert -w 1000 "$svg" -o "$png"
  [ -s "$png" ] || { echo "render-check: $svg: rsvg-convert wrote nothing" >&2; exit 1; }
  echo "$png"
done

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "render-check: chromium not installed: the page was not loaded (apt-get install chromium)" >&2
  exit 0
fi
page=$(realpath "$out/seed-move.html")
log=$(mktemp)
dom=$("$chromium" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
  --virtual-time-budget=2000 --dump-dom "file://$page" 2>"$log")
if ! grep -q 't = 0 s (1 of 31)' <<<"$dom"; then
  echo "render-check: $page: the page's script did not run (no time label)" >&2
  exit 1
fi
if grep -iE "Refused to|Content.Security.Policy" "$log" >&2; then
  echo "render-check: $page: the page asked for something outside itself" >&2
  exit 1
fi
"$chromium" --headless --no-sandbox --disable-gpu --window-size=1100,1000 \
  --screenshot="$(realpath "$out")/seed-move-page.png" "file://$page" 2>/dev/null
rm -f "$log"
echo "$out/seed-move-page.png (the page in Chromium: script ran, no request)"
