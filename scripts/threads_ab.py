#!/usr/bin/env python3
"""Two threads against one, under settings taken in turns.

Each round runs `hitbench run ... --threads 1,2` once per setting (environment assignments such
as HITBENCH_BUILD_ADAPTIVE=0), one process after the other, and prints for every strategy and
query count the two-thread result against the one-thread result of the same process (their
turns interleaved, so a slow stretch of the host lands on both): CPU per frame, the build's
wall time, the frame's mean, and the share of frames whose build split between threads
(`splitBuilds`). The ratio is paired within a process because the host moves between
processes by more than the effects measured (docs/optimisation-log.md entries 68 and 74).

    python3 scripts/threads_ab.py --rounds 3 HITBENCH_BUILD_ADAPTIVE=1 HITBENCH_BUILD_ADAPTIVE=0
    python3 scripts/threads_ab.py --args "--scene particles --layers 10000 --strategy grid" \\
        HITBENCH_BUILD_ADAPTIVE=1 HITBENCH_BUILD_ADAPTIVE=0
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

DEFAULT_ARGS = "--scene app --layers 10000 --strategy tree-walk,grid --queries 1,100 --frames 120 --warmup 10"


def run(binary, args, setting, timeout):
    env = dict(os.environ)
    for assignment in setting.split():
        name, _, value = assignment.partition("=")
        env[name] = value
    cmd = [binary, "run", *args.split(), "--threads", "1,2", "--format", "json"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, check=True).stdout
    return json.loads(out)["results"]


def build_ns(r):
    return r["buildTimingNs"]["mean"] + r["buildOrderNs"]["mean"] + r["buildComposeNs"]["mean"]


def ratios(results):
    by = {(r["strategy"], r["queriesPerFrame"], r["threads"]): r for r in results}
    out = {}
    for (strategy, q, threads), two in sorted(by.items()):
        one = by.get((strategy, q, 1))
        if threads != 2 or one is None:
            continue
        out[(strategy, q)] = {
            "cpu": two["cpuNs"]["mean"] / one["cpuNs"]["mean"],
            "build": build_ns(two) / build_ns(one),
            "mean": two["frameNs"]["mean"] / one["frameNs"]["mean"],
            "split": two.get("splitBuilds", float("nan")),
        }
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("settings", nargs="+", help="environment assignments, space-separated within one setting")
    ap.add_argument("--bin", default=".build/release/hitbench")
    ap.add_argument("--args", default=DEFAULT_ARGS, help="hitbench run's arguments (not --threads)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args()
    seen = {s: [] for s in a.settings}
    for k in range(a.rounds):
        for setting in a.settings:
            r = ratios(run(a.bin, a.args, setting, a.timeout))
            seen[setting].append(r)
            cells = " | ".join(
                f"{s} Q={q}: CPU {v['cpu']:.2f} build {v['build']:.2f} mean {v['mean']:.2f} split {v['split']:.2f}"
                for (s, q), v in r.items())
            print(f"round {k + 1} [{setting}] {cells}", flush=True)
    print("\ntwo threads / one, median over rounds [range]: CPU per frame; build wall")
    for setting, rounds in seen.items():
        keys = sorted({key for r in rounds for key in r})
        for key in keys:
            cpu = [r[key]["cpu"] for r in rounds if key in r]
            build = [r[key]["build"] for r in rounds if key in r]
            print(f"[{setting}] {key[0]} Q={key[1]}: CPU {statistics.median(cpu):.2f} [{min(cpu):.2f}-{max(cpu):.2f}]"
                  f"; build {statistics.median(build):.2f} [{min(build):.2f}-{max(build):.2f}]")


if __name__ == "__main__":
    sys.exit(main())
