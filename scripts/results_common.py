"""What RESULTS.md's tables share: how a result is read, ranked and compared.

Every ranking is by the mean (throughput), with the p99 (smoothness) beside it; the median
only informs. A ratio always reads "Nx faster" with N > 1 meaning faster (or "Nx slower").
A windowed strategy whose frames held fewer whole windows than its run asked is not
comparable (`comparable` false in the JSON): it is shown, marked, and never ranked.
"""

import json
import os

# The two accountings of a frame (RESULTS.md, "both accountings"): the build charged to hit
# testing (the end-to-end frame), or the presentation tree shared with the renderer, which
# builds it anyway to draw (update + queries).
END_TO_END = "frameNs"
SHARED = "hitTestNs"
ACCOUNTINGS = {
    END_TO_END: "end to end (the presentation build charged to hit testing)",
    SHARED: "build shared with the renderer (update + queries)",
}


def load(d, suite):
    """The results document `scripts/results.sh` wrote for a suite (or a named run) in
    directory d, or None when there is none."""
    p = os.path.join(d, suite + ".json")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def fmt(v, digits=1):
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.{digits}f}"


def table(header, rows):
    out = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
    for r in rows:
        out += "| " + " | ".join(str(c) for c in r) + " |\n"
    return out


def sel(results, **kw):
    return [r for r in results if all(r.get(k) == v for k, v in kw.items())]


def find(results, **kw):
    found = sel(results, **kw)
    return found[0] if found else None


def comparable(r):
    return r.get("comparable", True)


def mean_us(r, key=END_TO_END):
    return r[key]["mean"] / 1000


def p99_us(r, key=END_TO_END):
    return r[key]["p99"] / 1000


def cpu_us(r, key=END_TO_END):
    """CPU per frame, every thread, in the accounting `key`. With the build shared: the update
    and the queries (which run on the frame's thread, so their wall time is their CPU) and any
    background work (a time-aware strategy's window builds); the build and its workers left out."""
    if key == SHARED:
        return (r["hitTestNs"]["mean"] + r.get("cpuBackgroundNs", {}).get("mean", 0)) / 1000
    return r["cpuNs"]["mean"] / 1000


def ranked(results, key=END_TO_END):
    """The comparable results, fastest mean first."""
    return sorted([r for r in results if comparable(r)], key=lambda r: r[key]["mean"])


def best(results, key=END_TO_END):
    r = ranked(results, key)
    return r[0] if r else None


def interval(r, key=END_TO_END):
    """The mean's 95% interval (ns), or None when the run had too few blocks."""
    lo, hi = r.get(key + "MeanLow"), r.get(key + "MeanHigh")
    return (lo, hi) if lo is not None and hi is not None else None


def tie(a, b, key=END_TO_END):
    """Whether two results' means are within each other's intervals (their 95% intervals
    overlap): the run cannot tell which is faster. Without intervals, no."""
    ia, ib = interval(a, key), interval(b, key)
    return bool(ia and ib and ia[1] >= ib[0] and ib[1] >= ia[0])


def faster(fast, slow):
    """How much faster `fast` is than `slow`, from two times: 'Nx faster' or 'Nx slower'."""
    if fast <= 0 or slow <= 0:
        return "-"
    return f"{fmt(slow / fast, 2)}x faster" if slow >= fast else f"{fmt(fast / slow, 2)}x slower"


def over_budget(r, key=END_TO_END):
    """Frames over the budget in the accounting `key` (the end-to-end count the run made; the
    shared accounting's from the frame series, when it holds every frame)."""
    if key == END_TO_END:
        return int(r.get("framesOverBudget", 0))
    s = r.get("series") or {}
    if s.get("stride", 1) != 1 or "updateNs" not in s:
        return None
    return sum(1 for u, q in zip(s["updateNs"], s["queriesNs"]) if u + q > r["budgetNs"])


def mark(r):
    """A row's note: not comparable (with its windows), noisy."""
    notes = []
    if not comparable(r):
        notes.append(f"not comparable: {fmt(r['windowsHeld'])} of {fmt(max(r.get('windowsWanted', 0), 1), 0)} windows")
    if r.get("noisy"):
        notes.append("noisy")
    return ", ".join(notes)
