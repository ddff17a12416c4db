#!/usr/bin/env python3
"""Draws RESULTS.md's plots from data/results/*.json and writes one flat CSV per suite.

Usage: plot.py DIR   (reads DIR/<suite>.json, writes DIR/<suite>.csv and DIR/plots/*.png)
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OWN = ["tree-walk", "flat-scan", "flat-tree", "bvh-sah", "bvh-lbvh", "bvh-refit", "grid",
       "lazy-walk", "window-grid", "stagger-grid", "linear-bvh"]
PEERS = ["box2d-tree", "bullet-dbvt", "geos-strtree", "sidx-rstar", "embree-bvh", "embree-refit", "embree-motion"]
STRATEGIES = OWN + PEERS
COLORS = dict(zip(STRATEGIES, ["#444444", "#1f77b4", "#17becf", "#d62728", "#ff7f0e", "#9467bd", "#2ca02c",
                               "#8c564b", "#e377c2", "#bcbd22", "#7f7f7f",
                               "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#a55194", "#ce6dbd"]))
MARKERS = dict(zip(STRATEGIES, ["o", "s", "^", "D", "v", "P", "*", "X", "h", "<", ">",
                                "1", "2", "3", "4", "x", "+", "d"]))
SUITES = ["default", "scaling", "crossover", "build", "threads", "time-aware", "windows", "animated-fraction", "workloads", "scenes"]


def load(d, suite):
    path = os.path.join(d, suite + ".json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)["results"]


def flat(r):
    row = {k: v for k, v in r.items() if not isinstance(v, dict)}
    for k in [k for k, v in r.items() if isinstance(v, dict)]:
        for s, v in r[k].items():
            row[f"{k}.{s}"] = v
    return row


def write_csv(d, suite, results):
    if not results:
        return
    rows = [flat(r) for r in results]
    with open(os.path.join(d, suite + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def scene_name(r):
    return os.path.basename(r["scene"]).replace(".json", "")


def line_plot(ax, results, x, y, title, xlabel, ylabel):
    for s in STRATEGIES:
        pts = sorted((x(r), y(r)) for r in results if r["strategy"] == s)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=MARKERS[s], color=COLORS[s], label=s,
                    linestyle="--" if s in PEERS else "-")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)


def best_by(results, key):
    """For each key value, the strategy with the smallest frame median."""
    best = {}
    for r in results:
        k = key(r)
        if k not in best or r["frameNs"]["median"] < best[k]["frameNs"]["median"]:
            best[k] = r
    return best


def grouped_bars(ax, results, group, value, groups, title, ylabel, log=True):
    present = [s for s in STRATEGIES if any(r["strategy"] == s for r in results)]
    width = 0.8 / max(len(present), 1)
    for i, s in enumerate(present):
        ys = []
        for g in groups:
            m = [value(r) for r in results if r["strategy"] == s and group(r) == g]
            ys.append(m[0] if m else 0)
        ax.bar([j + i * width for j in range(len(groups))], ys, width, color=COLORS[s], label=s)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(groups))])
    ax.set_xticklabels(groups, rotation=30, ha="right")
    if log:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", which="both", alpha=0.3)


def main():
    d = sys.argv[1]
    plots = os.path.join(d, "plots")
    os.makedirs(plots, exist_ok=True)
    suites = {s: load(d, s) for s in SUITES}
    for s, rs in suites.items():
        write_csv(d, s, rs)
    us = lambda r: r["frameNs"]["median"] / 1000  # noqa: E731

    # 1. Frame time against layers, log-log.
    rs = suites["scaling"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, kind in zip(axes, ["app", "particles"]):
            line_plot(ax, [r for r in rs if r["scene"] == kind], lambda r: r["layers"], us,
                      f"{kind}: frame (build + update + 100 queries)", "layers", "us per frame (median)")
        axes[0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "scaling.png"), dpi=110)
        plt.close(fig)
        # Presentation cost per layer.
        fig, ax = plt.subplots(figsize=(6, 4))
        for kind in ["app", "particles"]:
            pts = sorted({r["layers"]: r["presentationNs"]["median"] / r["layers"]
                          for r in rs if r["scene"] == kind and r["strategy"] == "grid"}.items())
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=kind)
        ax.set_xscale("log")
        ax.set_title("presentation frame build (grid's columns), ns per layer")
        ax.set_xlabel("layers")
        ax.set_ylabel("ns per layer")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "presentation.png"), dpi=110)
        plt.close(fig)

    # 2. Frame time against queries per frame, crossovers marked.
    rs = suites["crossover"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, kind in zip(axes, ["app", "particles"]):
            sub = [r for r in rs if r["scene"] == kind and r["layers"] == 10000]
            line_plot(ax, sub, lambda r: r["queriesPerFrame"], us, f"{kind}, 10,000 layers: frame against Q",
                      "queries per frame", "us per frame (median)")
            best = best_by(sub, lambda r: r["queriesPerFrame"])
            prev = None
            for q in sorted(best):
                s = best[q]["strategy"]
                if prev is not None and s != prev:
                    ax.axvline(q, color=COLORS[s], linestyle="--", alpha=0.6)
                    ax.annotate(f"-> {s}", (q, us(best[q])), fontsize=8, color=COLORS[s])
                prev = s
        axes[0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "crossover.png"), dpi=110)
        plt.close(fig)

    # 3. Update and query split (default suite, Q = 1000).
    rs = [r for r in suites["default"] if r["queriesPerFrame"] == 1000]
    if rs:
        fig, ax = plt.subplots(figsize=(8, 4))
        names = [s for s in STRATEGIES if any(r["strategy"] == s for r in rs)]
        pick = lambda s: next(r for r in rs if r["strategy"] == s)  # noqa: E731
        build = [pick(s)["presentationNs"]["median"] / 1000 for s in names]
        upd = [pick(s)["updateNs"]["median"] / 1000 for s in names]
        qs = [pick(s)["queriesNs"]["median"] / 1000 for s in names]
        ax.bar(names, build, label="presentation build", color="#7f7f7f")
        ax.bar(names, upd, bottom=build, label="update", color="#ff7f0e")
        ax.bar(names, qs, bottom=[a + b for a, b in zip(build, upd)], label="queries (1000)", color="#1f77b4")
        ax.tick_params(axis="x", rotation=30)
        ax.set_yscale("log")
        ax.set_ylabel("us per frame (median)")
        ax.set_title("app, 10,000 animated layers, 1000 queries: where the frame goes")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "split.png"), dpi=110)
        plt.close(fig)

    # 4. Floor ratios.
    rs = [r for r in suites["scaling"] if r["layers"] in (10000, 100000) and r["strategy"] != "tree-walk"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        groups = [f"{k} {n // 1000}k" for k in ("app", "particles") for n in (10000, 100000)]
        g = lambda r: f"{r['scene']} {r['layers'] // 1000}k"  # noqa: E731
        grouped_bars(axes[0], rs, g, lambda r: r["queryFloorRatio"], groups, "query cost / query floor", "ratio")
        grouped_bars(axes[1], rs, g, lambda r: r["updateFloorRatio"], groups, "update cost / update floor", "ratio")
        for ax, target in zip(axes, (8, 6)):
            ax.axhline(target, color="red", linestyle=":", label=f"target {target}")
        axes[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "floors.png"), dpi=110)
        plt.close(fig)

    # 5. Workloads and 6. scenes.
    rs = suites["workloads"]
    if rs:
        fig, ax = plt.subplots(figsize=(10, 4.5))
        wl = ["uniform", "touch", "hover", "hotspot", "miss"]
        grouped_bars(ax, rs, lambda r: r["workload"], lambda r: r["nsPerQuery"], wl,
                     "app, 10,000 layers, 1000 queries per frame: ns per query by workload", "ns per query")
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "workloads.png"), dpi=110)
        plt.close(fig)
    rs = suites["scenes"]
    if rs:
        fig, ax = plt.subplots(figsize=(13, 5))
        order = []
        for r in rs:
            if scene_name(r) not in order:
                order.append(scene_name(r))
        grouped_bars(ax, rs, scene_name, us, order, "frame (build + update + 100 queries) by scene",
                     "us per frame (median)")
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "scenes.png"), dpi=110)
        plt.close(fig)
    rs = suites["animated-fraction"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
        for ax, scene in zip(axes, ["app", "idle"]):
            for s in STRATEGIES:
                pts = sorted((r["animatedFraction"], r["frameNs"]["mean"] / 1000) for r in rs
                             if r["strategy"] == s and r["scene"] == scene)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=MARKERS[s], color=COLORS[s], label=s)
            ax.set_yscale("log")
            ax.set_xlabel("fraction of layers animated")
            ax.set_ylabel("us per frame (mean)")
            ax.set_title(f"{scene}, 10,000 layers, Q = 100")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "animated-fraction.png"), dpi=110)
        plt.close(fig)

    # 7. The build: ns per layer against size, one thread and two.
    rs = [r for r in suites["build"] if r["strategy"] == "grid"]
    if rs:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for kind, color in zip(["particles", "app", "ui"], ["#1f77b4", "#d62728", "#2ca02c"]):
            for threads, style in [(1, "-"), (2, "--")]:
                pts = sorted((r["layers"], r["presentationNs"]["median"] / r["layers"])
                             for r in rs if r["scene"] == kind and r["threads"] == threads)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", color=color,
                            label=f"{kind}, {threads} thread{'s' if threads > 1 else ''}")
        ax.set_xscale("log")
        ax.set_xlabel("layers")
        ax.set_ylabel("ns per layer (median)")
        ax.set_title("presentation build (every column), per layer")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "build.png"), dpi=110)
        plt.close(fig)

    # 8. Time-aware and peers: end-to-end frame against Q at 10,000 layers.
    for suite, kinds, name in [("time-aware", ["particles", "app", "ui"], "time-aware.png"),
                               ("crossover", ["particles", "app"], "peers.png")]:
        rs = [r for r in suites[suite] if r["layers"] == 10000]
        if name == "peers.png":
            keep = {"tree-walk", "grid", "bvh-lbvh", "window-grid", "linear-bvh"}
            rs = [r for r in rs if r["family"] == "peer" or r["strategy"] in keep]
            if not any(r["family"] == "peer" for r in rs):
                continue
        if not rs:
            continue
        fig, axes = plt.subplots(1, len(kinds), figsize=(6 * len(kinds), 4.5))
        for ax, kind in zip(axes, kinds):
            line_plot(ax, [r for r in rs if r["scene"] == kind], lambda r: r["queriesPerFrame"], us,
                      f"{kind}, 10,000 layers: end-to-end frame against Q", "queries per frame", "us per frame (median)")
        axes[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, name), dpi=110)
        plt.close(fig)

    # 9. Window length: candidates and mean frame against the pinned window.
    rs = [r for r in suites["windows"] if r.get("windowPinned")]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, kind in zip(axes, ["particles", "app"]):
            for s in ["window-grid", "linear-bvh"]:
                pts = sorted((r["windowMs"], r["frameNs"]["mean"] / 1000, r["candidatesPerQuery"])
                             for r in rs if r["scene"] == kind and r["strategy"] == s)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=MARKERS[s], color=COLORS[s],
                            label=f"{s}: mean frame us")
                    ax.plot([p[0] for p in pts], [p[2] * 100 for p in pts], linestyle=":", color=COLORS[s],
                            label=f"{s}: candidates/query x 100")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{kind}, 10,000 layers, Q = 1000: window length")
            ax.set_xlabel("window ms (pinned)")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "windows.png"), dpi=110)
        plt.close(fig)

    # Memory per layer by part, 1k to 1M particles (scripts/memory.sh: a process per run).
    mp = os.path.join(d, "memory.csv")
    if os.path.exists(mp):
        rows = list(csv.DictReader(open(mp)))
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        parts = [("modelBytes", "model"), ("compiledSceneBytes", "compiled scene"), ("frameBytes", "frame + builder")]
        first = [r for r in rows if r["strategy"] == rows[0]["strategy"]]
        xs = [float(r["layers"]) for r in first]
        for key, label in parts:
            ys = [float(r[key]) / float(r["layers"]) for r in first]
            if not any(ys):
                # Compiled while generated: never held whole (nothing to draw on a log scale).
                label += " (0: compiled while generated)"
            axes[0].plot([x for x, y in zip(xs, ys) if y > 0], [y for y in ys if y > 0], marker="o", label=label)
        wp = os.path.join(d, "memory-model-whole.csv")
        if os.path.exists(wp):
            for w in csv.DictReader(open(wp)):
                axes[0].plot([float(w["layers"])], [float(w["modelBytes"]) / float(w["layers"])], marker="x",
                             linestyle="none", color="C0", label="model generated whole (--verify)")
        axes[0].set_title("the scene's parts (every strategy pays them)")
        for s in sorted({r["strategy"] for r in rows}):
            rs = [r for r in rows if r["strategy"] == s]
            axes[1].plot([float(r["layers"]) for r in rs],
                         [float(r["strategyBytes"]) / float(r["layers"]) for r in rs],
                         marker=MARKERS.get(s, "o"), color=COLORS.get(s), label=f"{s}: state")
            axes[1].plot([float(r["layers"]) for r in rs],
                         [float(r["maxRSSKiB"]) * 1024 / float(r["layers"]) for r in rs],
                         linestyle=":", color=COLORS.get(s), label=f"{s}: peak RSS")
        axes[1].set_title("each strategy's state (solid) and the process peak (dotted)")
        for ax in axes:
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("layers (particles)")
            ax.set_ylabel("bytes per layer")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(plots, "memory.png"), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
