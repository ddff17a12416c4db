"""The decision RESULTS.md and README.md open with: which strategy to pick, by scene kind and
size and by queries per frame, in both accountings, from the `crossover` suite's results.
"""
from results_common import (ACCOUNTINGS, END_TO_END, comparable, cpu_us, fmt, mean_us, over_budget, p99_us, ranked,
                            sel, table, tie)

QUERIES = [1, 10, 100, 1000]
KINDS = ["app", "particles"]


def configurations(results):
    """(scene, layers) pairs the results hold, app first, small first."""
    return sorted({(r["scene"], r["layers"]) for r in results if r["scene"] in KINDS},
                  key=lambda c: (KINDS.index(c[0]), c[1]))


def cell(results, key):
    """The best comparable result and its runner-up when the two are tied, or None."""
    order = ranked(results, key)
    if not order:
        return None, None
    second = order[1] if len(order) > 1 and tie(order[0], order[1], key) else None
    return order[0], second


def decision_table(results, key=END_TO_END):
    """Rows by scene and size, columns by Q: the best strategy by mean, its mean / p99 and CPU
    per frame (us), frames over budget, and the runner-up when tied."""
    rows = []
    for kind, n in configurations(results):
        row = [f"{kind} {n:,}"]
        for q in QUERIES:
            b, second = cell(sel(results, scene=kind, layers=n, queriesPerFrame=q), key)
            if not b:
                row.append("-")
                continue
            text = f"**{b['strategy']}** {fmt(mean_us(b, key))} / {fmt(p99_us(b, key))}, CPU {fmt(cpu_us(b, key))}"
            over = over_budget(b, key)
            if over:
                text += f", {over} over budget"
            if second:
                text += f"; tie: {second['strategy']} {fmt(mean_us(second, key))}"
            # A faster mean left out because its windows were too few to compare: say so.
            left = [r for r in sel(results, scene=kind, layers=n, queriesPerFrame=q)
                    if not comparable(r) and r[key]["mean"] < b[key]["mean"]]
            if left:
                text += "; not comparable: " + ", ".join(
                    f"{r['strategy']} {fmt(mean_us(r, key))} ({fmt(r['windowsHeld'])} of "
                    f"{fmt(max(r.get('windowsWanted', 0), 1), 0)} windows)" for r in left)
            row.append(text)
        rows.append(row)
    return table(["scene, layers"] + [f"Q = {q}" for q in QUERIES], rows)


def hardly_matters(results, budget_ns):
    """The configurations where every comparable strategy's end-to-end p99 is within a tenth
    of the frame budget: the choice hardly matters there."""
    out = []
    for kind, n in configurations(results):
        qs = [q for q in QUERIES
              if (sub := [r for r in sel(results, scene=kind, layers=n, queriesPerFrame=q) if comparable(r)])
              and max(r["frameNs"]["p99"] for r in sub) <= budget_ns / 10]
        if qs:
            out.append(f"{kind} {n:,} at Q = {', '.join(str(q) for q in qs)}")
    return out


def wins(results):
    """For each strategy, the cells where it is best (or tied best) in either accounting."""
    found = {}
    for key in ACCOUNTINGS:
        for kind, n in configurations(results):
            for q in QUERIES:
                b, second = cell(sel(results, scene=kind, layers=n, queriesPerFrame=q), key)
                for r in [x for x in (b, second) if x]:
                    found.setdefault(r["strategy"], {}).setdefault(key, []).append(f"{kind} {n:,} Q = {q}")
    return found


def decision_words(results, budget_ns, scenes_results):
    """The sentence under the tables: where the choice hardly matters, and the real layouts."""
    easy = hardly_matters(results, budget_ns)
    words = []
    if easy:
        words.append("Every strategy's p99 is within a tenth of the "
                     f"{fmt(budget_ns / 1e6, 2)} ms frame budget at " + "; ".join(easy)
                     + ": there the choice hardly matters, and the simplest strategy will do.")
    real = [r for r in scenes_results if r["scene"].endswith(".json") and comparable(r)]
    if real:
        means = [mean_us(r) for r in real]
        sizes = sorted({r["layers"] for r in real})
        words.append(f"On the real layouts ({len({r['scene'] for r in real})} screens of {sizes[0]} to {sizes[-1]} "
                     f"layers, Q = 100) every strategy's mean frame is between {fmt(min(means))} and "
                     f"{fmt(max(means))} us: at such sizes the choice does not matter.")
    return " ".join(words)


def readme_block(results, budget_ns, scenes_results, order):
    """README.md's generated block: the end-to-end decision table, the sentence, and where
    each strategy (in `order`, the registry's) wins."""
    found = wins(results)
    rows = []
    for s in order:
        w = found.get(s, {})
        if not w:
            rows.append([f"`{s}`", "never the fastest in these runs"])
            continue
        parts = [f"{'end to end' if k == END_TO_END else 'build shared'}: {', '.join(v)}" for k, v in w.items()]
        rows.append([f"`{s}`", "; ".join(parts)])
    return ("Measured on this project's machine (`RESULTS.md`, section \"Which strategy\", generated by "
            "`scripts/results.sh` from `data/results/crossover.json`; mean / p99 and CPU per frame in us, "
            "end to end):\n\n" + decision_table(results) + "\n" + decision_words(results, budget_ns, scenes_results)
            + "\n\nWhere each strategy is the fastest by mean (or tied with the fastest), in either accounting:\n\n"
            + table(["strategy", "fastest at"], rows))
