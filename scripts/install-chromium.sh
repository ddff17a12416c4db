#!/usr/bin/env bash
# Installs Debian's Chromium for scripts/report-check.sh (optional: the benchmark and the tests
# do not need it).
set -euo pipefail
command -v chromium >/dev/null && { echo "install-chromium: chromium is installed"; exit 0; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update
$sudo apt-get install -y chromium
