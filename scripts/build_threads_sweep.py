#!/usr/bin/env python3
"""The presentation build's threads, swept: how long a waiting build thread spins after a build
before it parks (HITBENCH_BUILD_SPIN_US), whether waiting threads spin for as long as a build
runs (HITBENCH_BUILD_SPIN_THROUGH) and for how long at most (HITBENCH_BUILD_SPIN_LIMIT_US),
whether workers are pinned to CPUs of their own (HITBENCH_BUILD_PIN), whether a build that will
split wakes its workers as it starts (HITBENCH_BUILD_WAKE_AHEAD), and from how many rows a pass
is split (HITBENCH_BUILD_SPLIT_ROWS; pass 1's lists: HITBENCH_BUILD_SPLIT_LIST), how many parts
a split pass has a thread (HITBENCH_BUILD_PARTS_PER_THREAD), against the same frames built on
one thread and, optionally, another binary (the code before a change).

Each configuration is `run --strategy tree-walk,grid --queries 1` (the frame is the build, of
the structure only and of every column, plus one query; --strategies and --queries change it),
real-time paced, so that workers wait between frames as they do in an app (--pacing changes
it). Settings take turns within each repetition in a shuffled order (seeded), so a slow minute
of the host lands on all of them; each setting's figure is the median over repetitions of its
run's mean, and each ratio to one thread the median over repetitions of that repetition's
ratio (with its range: the host's drift between repetitions cancels).

Prints, per configuration, strategy and setting: the build's mean wall time and its ratio to
one thread, CPU per frame (every thread) and its ratio to the wall frame and to one thread's
CPU, the frame's mean and its ratio to one thread's. Writes every run's figures to --csv.

  python3 scripts/build_threads_sweep.py --bin .build/release/hitbench --base-bin OLD --reps 3 \\
      --sizes app:10000,particles:10000,particles:1000000 --csv data/sweeps/build-threads.csv
"""

import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys


KNOBS = ("HITBENCH_BUILD_SPIN_US", "HITBENCH_BUILD_WAKE_AHEAD", "HITBENCH_BUILD_SPLIT_ROWS",
         "HITBENCH_BUILD_SPLIT_LIST", "HITBENCH_BUILD_PARTS_PER_THREAD", "HITBENCH_BUILD_SPIN_THROUGH",
         "HITBENCH_BUILD_PIN", "HITBENCH_BUILD_SPIN_LIMIT_US")


def run(binary, scene, layers, frames, threads, env_extra, timeout, strategies, queries, pacing):
    env = dict(os.environ)
    for k in KNOBS:
        env.pop(k, None)
    env.update(env_extra)
    cmd = [
        binary, "run", "--scene", scene, "--layers", str(layers), "--strategy", ",".join(strategies),
        "--queries", ",".join(map(str, queries)), "--frames", str(frames), "--warmup", str(max(frames // 10, 2)),
        "--threads", str(threads), "--pacing", pacing, "--format", "json",
    ]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, check=True)
    results = {}
    for r in json.loads(out.stdout)["results"]:
        results[(r["strategy"], r["queriesPerFrame"])] = {
            "build_mean_us": r["presentationNs"]["mean"] / 1000,
            "build_p99_us": r["presentationNs"]["p99"] / 1000,
            "frame_mean_us": r["frameNs"]["mean"] / 1000,
            "cpu_mean_us": r["cpuNs"]["mean"] / 1000,
        }
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=".build/release/hitbench")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sizes", default="app:2000,app:10000,app:50000,particles:10000,particles:100000")
    ap.add_argument("--spins", default="0,200,5000", help="spin bounds after a build to try, in microseconds")
    ap.add_argument("--only", default="", help="comma-separated setting names to keep (1 thread is always kept)")
    ap.add_argument("--limits", default="", help="spin limits within a build to try, in microseconds")
    ap.add_argument("--split-rows", default="", help="split thresholds to sweep (default: the binary's)")
    ap.add_argument("--split-lists", default="", help="pass 1's list split thresholds to sweep")
    ap.add_argument("--parts", default="", help="parts a thread of a split pass to sweep")
    ap.add_argument("--strategies", default="tree-walk,grid")
    ap.add_argument("--queries", default="1")
    ap.add_argument("--pacing", default="real-time")
    ap.add_argument("--frames", type=int, default=240, help="frames a run (a million layers: a tenth)")
    ap.add_argument("--base-bin", default="", help="also this binary with two threads (the code before a change)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv", default="")
    a = ap.parse_args()

    settings = [("1 thread", 1, {})]
    if a.base_bin:
        settings.append(("base binary", 2, {}))
    settings.append(("defaults", 2, {}))
    settings.append(("workers not pinned", 2, {"HITBENCH_BUILD_PIN": "0"}))
    settings.append(("park within a build", 2, {"HITBENCH_BUILD_SPIN_THROUGH": "0"}))
    settings.append(("no wake-ahead", 2, {"HITBENCH_BUILD_WAKE_AHEAD": "0"}))
    for us in filter(None, a.spins.split(",")):
        settings.append((f"spin {us} us after a build", 2, {"HITBENCH_BUILD_SPIN_US": us}))
    for us in filter(None, a.limits.split(",")):
        settings.append((f"spin {us} us at most in a build", 2, {"HITBENCH_BUILD_SPIN_LIMIT_US": us}))
    for rows in filter(None, a.split_rows.split(",")):
        settings.append((f"split from {rows} rows", 2, {"HITBENCH_BUILD_SPLIT_ROWS": rows}))
    for n in filter(None, a.split_lists.split(",")):
        settings.append((f"lists split from {n}", 2, {"HITBENCH_BUILD_SPLIT_LIST": n}))
    for n in filter(None, a.parts.split(",")):
        settings.append((f"{n} parts a thread", 2, {"HITBENCH_BUILD_PARTS_PER_THREAD": n}))
    strategies = a.strategies.split(",")
    queries = [int(q) for q in a.queries.split(",")]

    if a.only:
        keep = set(a.only.split(",")) | {"1 thread"}
        settings = [x for x in settings if x[0] in keep]

    rng = random.Random(a.seed)
    rows = []
    for size in a.sizes.split(","):
        scene, layers = size.split(":")
        layers = int(layers)
        frames = a.frames if layers < 500_000 else max(a.frames // 10, 12)
        for rep in range(a.reps):
            order = list(settings)
            rng.shuffle(order)
            for name, threads, env in order:
                binary = a.base_bin if name == "base binary" else a.bin
                measured = run(binary, scene, layers, frames, threads, env, 900, strategies, queries, a.pacing)
                for (strategy, q), m in measured.items():
                    m.update(scene=scene, layers=layers, rep=rep, setting=name, strategy=strategy, queries=q)
                    rows.append(m)
                    print(f"  {scene} {layers} rep {rep} {name} {strategy} Q {q}: build {m['build_mean_us']:.1f} us, "
                          f"cpu {m['cpu_mean_us']:.1f} us", file=sys.stderr, flush=True)

    if a.csv:
        os.makedirs(os.path.dirname(a.csv) or ".", exist_ok=True)
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["scene", "layers", "strategy", "queries", "rep", "setting", "build_mean_us",
                                              "build_p99_us", "frame_mean_us", "cpu_mean_us"])
            w.writeheader()
            w.writerows(rows)

    def pick(scene, layers, strategy, q, setting):
        return {r["rep"]: r for r in rows
                if (r["scene"], r["layers"], r["strategy"], r["queries"], r["setting"]) == (scene, layers, strategy, q, setting)}

    def ratio(mine, ones, key, over_key=None):
        # Per repetition, then the median and range: the host's drift between repetitions cancels.
        xs = [mine[k][key] / ones[k][over_key or key] for k in mine if k in ones]
        return statistics.median(xs), min(xs), max(xs)

    print(f"{'scene':<10} {'layers':>8} {'strategy':<10} {'Q':>4} {'setting':<24} {'build us':>9} {'vs 1t':>6} "
          f"{'p99 us':>8} {'cpu us':>8} {'cpu/wall':>8} {'cpu/1t':>17} {'frame/1t':>17}")
    for size in a.sizes.split(","):
        scene, layers = size.split(":")
        layers = int(layers)
        for strategy in strategies:
            for q in queries:
                ones = pick(scene, layers, strategy, q, "1 thread")
                for name, _, _ in settings:
                    mine = pick(scene, layers, strategy, q, name)
                    b = statistics.median(r["build_mean_us"] for r in mine.values())
                    p = statistics.median(r["build_p99_us"] for r in mine.values())
                    c = statistics.median(r["cpu_mean_us"] for r in mine.values())
                    cw = statistics.median(r["cpu_mean_us"] / r["frame_mean_us"] for r in mine.values())
                    rb = ratio(mine, ones, "build_mean_us")
                    rc = ratio(mine, ones, "cpu_mean_us")
                    rf = ratio(mine, ones, "frame_mean_us")
                    print(f"{scene:<10} {layers:>8} {strategy:<10} {q:>4} {name:<24} {b:>9.1f} {rb[0]:>6.2f} {p:>8.1f} "
                          f"{c:>8.1f} {cw:>8.2f} {rc[0]:>5.2f} [{rc[1]:.2f}-{rc[2]:.2f}] "
                          f"{rf[0]:>5.2f} [{rf[1]:.2f}-{rf[2]:.2f}]")


if __name__ == "__main__":
    main()
