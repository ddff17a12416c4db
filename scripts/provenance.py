"""Where a measurement script's figures come from: the lines every summary.txt opens with."""

import os
import subprocess


def _sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except Exception:
        return "unknown"


def header():
    """The machine (CPU model and cores), the toolchain and the commit, one line each."""
    cpu = _sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    return [
        f"machine: {cpu}, {os.cpu_count()} cores (a shared virtual machine)",
        f"toolchain: {_sh('swift --version 2>&1 | head -1')}",
        f"commit: {_sh('git rev-parse --short HEAD')}",
    ]
