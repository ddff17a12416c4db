#!/usr/bin/env python3
"""The presentation build's threads, swept: how long a waiting build thread spins after a build
before it parks (HITBENCH_BUILD_SPIN_US), whether waiting threads spin for as long as a build
runs (HITBENCH_BUILD_SPIN_THROUGH) and for how long at most (HITBENCH_BUILD_SPIN_LIMIT_US),
whether workers are pinned to CPUs of their own (HITBENCH_BUILD_PIN), whether a build that will
split wakes its workers as it starts (HITBENCH_BUILD_WAKE_AHEAD), and from how many rows a pass
is split (HITBENCH_BUILD_SPLIT_ROWS), against the same frames built on one thread and,
optionally, another binary (the code before a change).

Each configuration is `run --strategy tree-walk,grid --queries 1` (the frame is the build, of
the structure only and of every column, plus one query), real-time paced, so that workers wait
between frames as they do in an app. Settings take turns within each repetition in a shuffled
order (seeded), so a slow minute of the host lands on all of them; each setting's figure is the
median over repetitions of its run's mean.

Prints, per configuration, strategy and setting: the build's mean wall time and its ratio to
one thread, CPU per frame (every thread) and its ratio to the wall frame and to one thread's
CPU. Writes every run's figures to --csv.

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


STRATEGIES = ["tree-walk", "grid"]


def run(binary, scene, layers, frames, threads, env_extra, timeout):
    env = dict(os.environ)
    for k in ("HITBENCH_BUILD_SPIN_US", "HITBENCH_BUILD_WAKE_AHEAD", "HITBENCH_BUILD_SPLIT_ROWS",
              "HITBENCH_BUILD_SPIN_THROUGH", "HITBENCH_BUILD_PIN", "HITBENCH_BUILD_SPIN_LIMIT_US"):
        env.pop(k, None)
    env.update(env_extra)
    cmd = [
        binary, "run", "--scene", scene, "--layers", str(layers), "--strategy", ",".join(STRATEGIES),
        "--queries", "1", "--frames", str(frames), "--warmup", str(max(frames // 10, 2)),
        "--threads", str(threads), "--pacing", "real-time", "--format", "json",
    ]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, check=True)
    results = {}
    for r in json.loads(out.stdout)["results"]:
        results[r["strategy"]] = {
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
                for strategy, m in run(binary, scene, layers, frames, threads, env, timeout=900).items():
                    m.update(scene=scene, layers=layers, rep=rep, setting=name, strategy=strategy)
                    rows.append(m)
                    print(f"  {scene} {layers} rep {rep} {name} {strategy}: build {m['build_mean_us']:.1f} us, "
                          f"cpu {m['cpu_mean_us']:.1f} us", file=sys.stderr, flush=True)

    if a.csv:
        os.makedirs(os.path.dirname(a.csv) or ".", exist_ok=True)
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["scene", "layers", "strategy", "rep", "setting", "build_mean_us", "build_p99_us",
                                              "frame_mean_us", "cpu_mean_us"])
            w.writeheader()
            w.writerows(rows)

    def med(scene, layers, strategy, setting, key):
        return statistics.median(r[key] for r in rows if (r["scene"], r["layers"], r["strategy"], r["setting"])
                                 == (scene, layers, strategy, setting))

    print(f"{'scene':<10} {'layers':>8} {'strategy':<10} {'setting':<24} {'build us':>9} {'vs 1t':>6} {'p99 us':>8} "
          f"{'cpu us':>8} {'cpu/wall':>8} {'cpu/1t':>7}")
    for size in a.sizes.split(","):
        scene, layers = size.split(":")
        layers = int(layers)
        for strategy in STRATEGIES:
            b1 = med(scene, layers, strategy, "1 thread", "build_mean_us")
            c1 = med(scene, layers, strategy, "1 thread", "cpu_mean_us")
            for name, _, _ in settings:
                b = med(scene, layers, strategy, name, "build_mean_us")
                p = med(scene, layers, strategy, name, "build_p99_us")
                c = med(scene, layers, strategy, name, "cpu_mean_us")
                f = med(scene, layers, strategy, name, "frame_mean_us")
                print(f"{scene:<10} {layers:>8} {strategy:<10} {name:<24} {b:>9.1f} {b / b1:>6.2f} {p:>8.1f} {c:>8.1f} "
                      f"{c / f:>8.2f} {c / c1:>7.2f}")


if __name__ == "__main__":
    main()
