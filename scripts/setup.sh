#!/usr/bin/env bash
# Installs what HitBench needs beyond the Swift toolchain: jemalloc (libjemalloc-dev, found
# through pkg-config). Does nothing when it is already there. Sourced by test.sh and bench.sh.
set -euo pipefail
if ! pkg-config --exists jemalloc 2>/dev/null; then
  echo "setup: installing libjemalloc-dev and pkg-config (apt-get)" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libjemalloc-dev pkg-config >&2
fi
