#!/usr/bin/env python3
"""Draws RESULTS.md's plots from data/results/*.json and writes one flat CSV per suite.

Usage: plot.py DIR   (reads DIR/<suite>.json, writes DIR/<suite>.csv and DIR/plots/*.png)
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_common import best, comparable, load  # noqa: E402

# Colour-blind-safe colours (Paul Tol's "muted" and "vibrant" schemes) by family, a marker per
# strategy and a line style per family, so a line reads by any one of the three. Assigned in
# the registry's order as the results record it (`STYLE`, made by `styles`), so a strategy
# keeps its look in every plot and a new one gets the next in its family.
FAMILY_COLORS = {
    "rebuild": ["#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#0077BB", "#009988"],
    "lazy": ["#EE7733"],
    "time-aware": ["#CC3311", "#AA4499", "#882255", "#EE3377"],
    "peer": ["#000000", "#555555", "#777777", "#999999", "#BBBBBB", "#444444", "#666666", "#888888"],
}
FAMILY_LINES = {"rebuild": "-", "lazy": ":", "time-aware": "-.", "peer": "--"}
MARKER_CYCLE = ["o", "s", "^", "D", "v", "P", "*", "X", "h", "<", ">", "p", "d", "H", "8", "1", "2", "3"]
STYLE = {}


def styles(results):
    """Every strategy's (colour, marker, line style), in the order the results first name it."""
    out, used = {}, {}
    for r in results:
        s, family = r["strategy"], r.get("family", "rebuild")
        if s in out:
            continue
        k = used.get(family, 0)
        used[family] = k + 1
        palette = FAMILY_COLORS.get(family, FAMILY_COLORS["peer"])
        out[s] = (palette[k % len(palette)], MARKER_CYCLE[len(out) % len(MARKER_CYCLE)], FAMILY_LINES.get(family, "-"))
    return out


def legend_outside(ax, panels=(), **kw):
    """The legend to the right of the axes, never over the data: of every series on `ax` and
    on the other `panels` (each label once), so panels that plot different strategies share
    one legend that names them all."""
    handles, labels = [], []
    for a in [ax, *panels]:
        for h, label in zip(*a.get_legend_handles_labels()):
            if label not in labels:
                handles.append(h)
                labels.append(label)
    if handles:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7, borderaxespad=0, **kw)


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


SUITES = ["default", "scaling", "crossover", "build", "threads", "time-aware", "windows", "animated-fraction", "workloads", "scenes"]


def results(d, suite):
    doc = load(d, suite)
    return doc["results"] if doc else []


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
    for s, (color, marker, line) in STYLE.items():
        pts = sorted((x(r), y(r)) for r in results if r["strategy"] == s and comparable(r))
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=color, label=s, linestyle=line)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)


def best_by(results, key):
    """For each key value, the comparable strategy with the smallest mean frame (`best`)."""
    out = {k: best([r for r in results if key(r) == k]) for k in {key(r) for r in results}}
    return {k: r for k, r in out.items() if r}


def grouped_bars(ax, results, group, value, groups, title, ylabel, log=True):
    present = [s for s in STYLE if any(r["strategy"] == s for r in results)]
    width = 0.8 / max(len(present), 1)
    for i, s in enumerate(present):
        ys = []
        for g in groups:
            m = [value(r) for r in results if r["strategy"] == s and group(r) == g]
            ys.append(m[0] if m else 0)
        ax.bar([j + i * width for j in range(len(groups))], ys, width, color=STYLE[s][0], label=s,
               hatch="//" if STYLE[s][2] == "--" else None, edgecolor="white", linewidth=0.3)
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
    suites = {s: results(d, s) for s in SUITES}
    for s, rs in suites.items():
        write_csv(d, s, rs)
    STYLE.update(styles([r for s in SUITES for r in suites[s]]))
    us = lambda r: r["frameNs"]["mean"] / 1000  # noqa: E731

    # 1. Frame time against layers, log-log.
    rs = suites["scaling"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, kind in zip(axes, ["app", "particles"]):
            line_plot(ax, [r for r in rs if r["scene"] == kind], lambda r: r["layers"], us,
                      f"{kind}: frame (build + update + 100 queries)", "layers", "us per frame (mean)")
        legend_outside(axes[1], panels=[axes[0]])
        save(fig, os.path.join(plots, "scaling.png"))
        # Presentation cost per layer.
        fig, ax = plt.subplots(figsize=(6, 4))
        for kind in ["app", "particles"]:
            pts = sorted({r["layers"]: r["presentationNs"]["mean"] / r["layers"]
                          for r in rs if r["scene"] == kind and r["strategy"] == "grid"}.items())
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=kind)
        ax.set_xscale("log")
        ax.set_title("presentation frame build (grid's columns), ns per layer")
        ax.set_xlabel("layers")
        ax.set_ylabel("ns per layer (mean)")
        ax.grid(True, which="both", alpha=0.3)
        legend_outside(ax)
        save(fig, os.path.join(plots, "presentation.png"))

    # 2. Frame time against queries per frame, crossovers marked.
    rs = suites["crossover"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, kind in zip(axes, ["app", "particles"]):
            sub = [r for r in rs if r["scene"] == kind and r["layers"] == 10000]
            line_plot(ax, sub, lambda r: r["queriesPerFrame"], us, f"{kind}, 10,000 layers: frame against Q",
                      "queries per frame", "us per frame (mean)")
            best = best_by(sub, lambda r: r["queriesPerFrame"])
            prev = None
            for q in sorted(best):
                s = best[q]["strategy"]
                if prev is not None and s != prev:
                    ax.axvline(q, color=STYLE[s][0], linestyle="--", alpha=0.6)
                    ax.annotate(f"-> {s}", (q, us(best[q])), fontsize=8, color=STYLE[s][0])
                prev = s
        legend_outside(axes[1], panels=[axes[0]])
        save(fig, os.path.join(plots, "crossover.png"))

    # 3. Where the frame goes (default suite, Q = 1000), by mean, on a linear axis (a stacked
    # bar on a log axis misstates its parts).
    rs = [r for r in suites["default"] if r["queriesPerFrame"] == 1000]
    if rs:
        fig, ax = plt.subplots(figsize=(8, 0.35 * len(rs) + 1.5))
        names = [s for s in STYLE if any(r["strategy"] == s for r in rs)][::-1]
        pick = lambda s: next(r for r in rs if r["strategy"] == s)  # noqa: E731
        build = [pick(s)["presentationNs"]["mean"] / 1000 for s in names]
        upd = [pick(s)["updateNs"]["mean"] / 1000 for s in names]
        qs = [pick(s)["queriesNs"]["mean"] / 1000 for s in names]
        ax.barh(names, build, label="presentation build", color="#BBBBBB")
        ax.barh(names, upd, left=build, label="update", color="#EE7733")
        ax.barh(names, qs, left=[a + b for a, b in zip(build, upd)], label="1000 queries", color="#0077BB")
        ax.set_xlabel("us per frame (mean)")
        ax.set_title("app, 10,000 animated layers, Q = 1000: where the frame goes")
        ax.grid(True, axis="x", alpha=0.3)
        legend_outside(ax)
        save(fig, os.path.join(plots, "split.png"))

    # 4. The frames' distribution (ECDF) of the leading strategies in the headline
    # configurations: the fastest four by mean and tree-walk, every measured frame.
    rs = [r for r in suites["default"] if r.get("series")]
    qs = sorted({r["queriesPerFrame"] for r in rs})
    if qs:
        fig, axes = plt.subplots(len(qs), 1, figsize=(7, 3.2 * len(qs)), squeeze=False)
        for ax, q in zip(axes[:, 0], qs):
            sub = sorted([r for r in rs if r["queriesPerFrame"] == q and comparable(r)],
                         key=lambda r: r["frameNs"]["mean"])
            lead = sub[:4] + [r for r in sub[4:] if r["strategy"] == "tree-walk"]
            for r in lead:
                xs = sorted(x / 1000 for x in r["series"]["frameNs"])
                if r["series"].get("stride", 1) != 1 or not xs:
                    continue
                color, marker, line = STYLE[r["strategy"]]
                ax.step(xs, [(i + 1) / len(xs) for i in range(len(xs))], where="post", color=color, linestyle=line,
                        label=f"{r['strategy']} (mean {r['frameNs']['mean'] / 1000:.0f})")
            ax.set_xscale("log")
            ax.set_xlabel("frame time, us (end to end)")
            ax.set_ylabel("share of frames at most x")
            ax.set_title(f"app 10k, Q = {q}: every frame")
            ax.grid(True, which="both", alpha=0.3)
            legend_outside(ax)
        save(fig, os.path.join(plots, "ecdf.png"))

    # 5. Workloads and 6. scenes.
    rs = suites["workloads"]
    if rs:
        fig, ax = plt.subplots(figsize=(10, 4.5))
        wl = ["uniform", "touch", "hover", "hotspot", "miss"]
        grouped_bars(ax, rs, lambda r: r["workload"], lambda r: r["nsPerQuery"], wl,
                     "app, 10,000 layers, 1000 queries per frame: ns per query by workload", "ns per query")
        legend_outside(ax)
        save(fig, os.path.join(plots, "workloads.png"))
    rs = suites["scenes"]
    if rs:
        fig, ax = plt.subplots(figsize=(13, 5))
        order = []
        for r in rs:
            if scene_name(r) not in order:
                order.append(scene_name(r))
        grouped_bars(ax, rs, scene_name, us, order, "frame (build + update + 100 queries) by scene",
                     "us per frame (mean)")
        legend_outside(ax)
        save(fig, os.path.join(plots, "scenes.png"))
    rs = suites["animated-fraction"]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
        for ax, scene in zip(axes, ["app", "idle"]):
            for s, (color, marker, line) in STYLE.items():
                pts = sorted((r["animatedFraction"], r["frameNs"]["mean"] / 1000) for r in rs
                             if r["strategy"] == s and r["scene"] == scene)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=color, linestyle=line,
                            label=s)
            ax.set_yscale("log")
            ax.set_xlabel("fraction of layers animated")
            ax.set_ylabel("us per frame (mean)")
            ax.set_title(f"{scene}, 10,000 layers, Q = 100")
            ax.grid(True, which="both", alpha=0.3)
        legend_outside(axes[1], panels=[axes[0]])
        save(fig, os.path.join(plots, "animated-fraction.png"))

    # 7. The build: ns per layer against size, one thread and two.
    rs = [r for r in suites["build"] if r["strategy"] == "grid"]
    if rs:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for kind, color in zip(["particles", "app", "ui"], ["#1f77b4", "#d62728", "#2ca02c"]):
            for threads, style in [(1, "-"), (2, "--")]:
                pts = sorted((r["layers"], r["presentationNs"]["mean"] / r["layers"])
                             for r in rs if r["scene"] == kind and r["threads"] == threads)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", color=color,
                            label=f"{kind}, {threads} thread{'s' if threads > 1 else ''}")
        ax.set_xscale("log")
        ax.set_xlabel("layers")
        ax.set_ylabel("ns per layer (mean)")
        ax.set_title("presentation build (every column), per layer")
        ax.grid(True, which="both", alpha=0.3)
        legend_outside(ax)
        save(fig, os.path.join(plots, "build.png"))

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
                      f"{kind}, 10,000 layers: end-to-end frame against Q", "queries per frame", "us per frame (mean)")
        legend_outside(axes[-1], panels=list(axes[:-1]))
        save(fig, os.path.join(plots, name))

    # 9. Window length: candidates and mean frame against the pinned window.
    rs = [r for r in suites["windows"] if r.get("windowPinned")]
    if rs:
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, kind in zip(axes, ["particles", "app"]):
            for s in ["window-grid", "linear-bvh"]:
                pts = sorted((r["windowMs"], r["frameNs"]["mean"] / 1000, r["candidatesPerQuery"])
                             for r in rs if r["scene"] == kind and r["strategy"] == s)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=STYLE[s][1], color=STYLE[s][0],
                            label=f"{s}: mean frame, us")
                    ax.plot([p[0] for p in pts], [p[2] * 100 for p in pts], linestyle=":", color=STYLE[s][0],
                            label=f"{s}: candidates per query x 100")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{kind}, 10,000 layers, Q = 1000: window length")
            ax.set_xlabel("window, ms (pinned)")
            ax.set_ylabel("us per frame (mean); candidates per query x 100")
            ax.grid(True, which="both", alpha=0.3)
        legend_outside(axes[1], panels=[axes[0]])
        save(fig, os.path.join(plots, "windows.png"))

    # Memory per layer by part, 1k to 1M particles (scripts/memory.sh: a process per run).
    mp = os.path.join(d, "memory.csv")
    if os.path.exists(mp):
        rows = list(csv.DictReader(open(mp)))
        fig, axes = plt.subplots(2, 1, figsize=(8, 9))
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
                         marker=STYLE.get(s, ("C0", "o", "-"))[1], color=STYLE.get(s, ("C0", "o", "-"))[0],
                         label=f"{s}: state")
            axes[1].plot([float(r["layers"]) for r in rs],
                         [float(r["maxRSSKiB"]) * 1024 / float(r["layers"]) for r in rs],
                         linestyle=":", color=STYLE.get(s, ("C0", "o", "-"))[0], label=f"{s}: peak RSS")
        axes[1].set_title("each strategy's state (solid) and the process peak (dotted)")
        for ax in axes:
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("layers (particles)")
            ax.set_ylabel("bytes per layer")
            ax.grid(True, which="both", alpha=0.3)
            legend_outside(ax)
        save(fig, os.path.join(plots, "memory.png"))


if __name__ == "__main__":
    main()
