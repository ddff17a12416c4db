#!/usr/bin/env bash
# The optional peers: installs the established spatial libraries from Debian (apt-get) when
# they are missing, then builds Peers/ (a package that depends on this one by path) in release.
# The last line printed is the path of the hitbench-peers binary: hitbench with the peers
# added as strategies of every verb. A library that cannot be installed is named with its
# package, and that peer is left out; the rest still build.
#   bash scripts/peers.sh            install and build
#   bash scripts/peers.sh --check    only report which libraries are present (exit 1 if none)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# package:header, one per peer library.
libraries=(
  "libbox2d-dev:/usr/include/box2d/b2_dynamic_tree.h"
  "libbullet-dev:/usr/include/bullet/BulletCollision/BroadphaseCollision/btDbvt.h"
  "libgeos-dev:/usr/include/geos_c.h"
  "libspatialindex-dev:/usr/include/spatialindex/capi/sidx_api.h"
  "libembree-dev:/usr/include/embree3/rtcore.h"
)

missing() {
  local out=()
  for entry in "${libraries[@]}"; do
    [ -f "${entry#*:}" ] || out+=("${entry%%:*}")
  done
  echo "${out[@]:-}"
}

if [ "${1:-}" = "--check" ]; then
  m=$(missing)
  if [ -z "$m" ]; then echo "peers: every library present"; exit 0; fi
  echo "peers: missing $m (bash scripts/peers.sh installs them)"
  [ "$(echo "$m" | wc -w)" -lt "${#libraries[@]}" ] && exit 0 || exit 1
fi

m=$(missing)
if [ -n "$m" ]; then
  echo "peers: installing $m (apt-get)" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $m; } >&2; then
    echo "peers: could not install $m; building the peers whose libraries are present" >&2
  fi
  m=$(missing)
  [ -z "$m" ] || echo "peers: still missing $m: those peers are left out (hitbench-peers list names them)" >&2
fi

echo "== swift build -c release (Peers/)" >&2
swift build -c release --package-path Peers >&2
echo "$(cd Peers && swift build -c release --show-bin-path)/hitbench-peers"
