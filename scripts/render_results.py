#!/usr/bin/env python3
"""Renders RESULTS.md from data/results and the template: every number comes from the data.

Usage: render_results.py DIR TEMPLATE > RESULTS.md
       render_results.py DIR TEMPLATE --readme README.md   (rewrites README.md's generated block)
A placeholder of the template that this script does not fill is an error (exit 1): a typo or
a section whose data was never generated must not reach RESULTS.md silently.
"""
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_common import (END_TO_END, SHARED, best, comparable, cpu_us, faster, find, fmt, interval, load, mark,  # noqa: E402
                            mean_us, p99_us, ranked, sel, table)
import results_decision  # noqa: E402

SUITES = ["default", "scaling", "crossover", "build", "threads", "time-aware", "windows", "animated-fraction", "workloads", "scenes"]


def us(r):
    return mean_us(r)


def main():
    d, template = sys.argv[1], sys.argv[2]
    readme = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--readme" else None
    docs = {s: load(d, s) for s in SUITES}
    res = {s: (doc["results"] if doc else []) for s, doc in docs.items()}
    meta = (docs["default"] or {}).get("meta", {})
    v = {}
    machine = {}
    mp = os.path.join(d, "machine.txt")
    if os.path.exists(mp):
        for line in open(mp):
            if "=" in line:
                k, val = line.rstrip("\n").split("=", 1)
                machine[k] = val
    peers = "not recorded"
    pp = os.path.join(d, "peers.txt")
    if os.path.exists(pp):
        peers = open(pp).read().strip().split("=", 1)[1]
    measured = machine.get("commit", meta.get("gitCommit", "?"))
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        head = ""
    note = "" if not head or head == measured else f" (RESULTS.md rendered at {head[:12]}; the data is from the commit measured)"
    hypervisor = machine.get("hypervisor", "")
    v["machine"] = table(["", ""], [
        ["CPU", machine.get("cpu", meta.get("cpuModel", "?"))], ["clock", machine.get("clock", "not recorded")],
        ["cores", machine.get("cores", meta.get("cores", "?"))],
        ["kind", f"a virtual machine ({hypervisor}) whose host other tenants share: times move between runs "
                 "(see how stable the numbers are, below)" if hypervisor else "not recorded"],
        ["memory", machine.get("memory", "?")], ["kernel", machine.get("kernel", "?")],
        ["toolchain", machine.get("swift", meta.get("toolchain", "?"))], ["build", meta.get("buildFlags", "?")],
        ["commit measured", measured + note], ["date", meta.get("date", "?")], ["peers", peers],
    ] + [[f"`{s}` suite measured at", f"{doc['meta'].get('gitCommit', '?')} ({doc['meta'].get('date', '?')}, "
          + f"`{doc['meta'].get('command', '?')}`)"]
         for s, doc in docs.items() if doc and doc["meta"].get("gitCommit", measured) != measured])
    allres = [r for rs in res.values() for r in rs]

    # Headline: the default suite, both accountings, by mean with p99 and CPU.
    rows = []
    for r in res["default"]:
        base = find(res["default"], strategy="tree-walk", queriesPerFrame=r["queriesPerFrame"])
        i = interval(r)
        rows.append([r["strategy"], r["family"], r["queriesPerFrame"], fmt(mean_us(r)),
                     f"{fmt(i[0] / 1000)}-{fmt(i[1] / 1000)}" if i else "-", fmt(p99_us(r)),
                     fmt(r["presentationNs"]["mean"] / 1000), fmt(mean_us(r, SHARED)), fmt(p99_us(r, SHARED)),
                     fmt(cpu_us(r)), ("(the reference)" if r is base else faster(mean_us(r), mean_us(base))) if base else "-",
                     fmt(r["allocationsPerFrame"], 2), mark(r)])
    v["default_table"] = table(["strategy", "family", "Q", "mean us", "mean 95%", "p99 us", "build us",
                                "update + queries us", "its p99 us", "CPU us", "against tree-walk (mean)",
                                "allocs/frame", ""], rows)

    # Which strategy: the decision, both accountings, from the crossover suite.
    budget = res["crossover"][0]["budgetNs"] if res["crossover"] else 1e9 / 120
    v["decision_end"] = results_decision.decision_table(res["crossover"], END_TO_END)
    v["decision_shared"] = results_decision.decision_table(res["crossover"], SHARED)
    v["decision_words"] = results_decision.decision_words(res["crossover"], budget, res["scenes"])

    # How stable the numbers are: the default suite measured twice more (three repetitions
    # each), and scripts/compare-power.sh's trials.
    first, again = load(d, "default-repeat-a"), load(d, "default-repeat-b")
    if first and again:
        changes, apart = [], 0
        for r in first["results"]:
            o = find(again["results"], strategy=r["strategy"], queriesPerFrame=r["queriesPerFrame"])
            if not o:
                continue
            changes.append(((mean_us(o) / mean_us(r) - 1) * 100, f"{r['strategy']} at Q = {r['queriesPerFrame']}"))
            a, b = interval(r), interval(o)
            if a and b and (a[1] < b[0] or b[1] < a[0]):
                apart += 1
        changes.sort(key=lambda c: abs(c[0]))
        flips = sum(1 for t1 in first.get("targets", []) for t2 in again.get("targets", [])
                    if t1["name"] == t2["name"] and {t1["status"], t2["status"]} == {"met", "not met"})
        undecided = sum(1 for t in first.get("targets", []) + again.get("targets", []) if t["status"] == "undecided")
        cp = os.path.join(d, "default-compare.txt")
        lines = open(cp).read().strip().splitlines() if os.path.exists(cp) else []
        verdict = next((line for line in reversed(lines) if " metrics compared, " in line), "(compare not run)")
        at = first["meta"].get("gitCommit", measured)
        when = "" if at == measured else f" at {at[:7]} (not the commit measured above)"
        v["stability"] = (
            f"The `default` suite measured twice more{when}, minutes apart, each `--repeat 3` "
            f"(`data/results/default-repeat-a.json`, `-b.json`), {len(changes)} results: the mean frame moved by "
            f"{fmt(abs(changes[len(changes) // 2][0]))}% at the median "
            f"and by {fmt(abs(changes[-1][0]))}% at most ({changes[-1][1]}, "
            f"{'slower' if changes[-1][0] > 0 else 'faster'} the second time); {apart} of {len(changes)} results' 95% "
            f"intervals do not overlap between the two runs, {flips} target verdicts flip between met and "
            f"not met ({undecided} undecided in the two). `hitbench compare` of the two "
            f"(`data/results/default-compare.txt`): {verdict}.")
    else:
        v["stability"] = "(the default suite was not measured again: scripts/results.sh measures it twice more)"
    # Every suite with time targets measured twice by scripts/target-stability.sh, and the
    # spread between runs that a target's interval carries (scripts/run-spread.sh).
    for key, name, script in (("target_stability", "target-stability", "target-stability.sh"),
                              ("run_spread", "run-spread", "run-spread.sh")):
        sp = os.path.join("data", name, "summary.txt")
        v[key] = ("```\n" + open(sp).read().strip() + "\n```" if os.path.exists(sp)
                  else f"(not measured: `bash scripts/{script}` writes data/{name}/)")
    pp = os.path.join("data", "compare-power", "summary.txt")
    v["compare_power"] = ("```\n" + open(pp).read().strip() + "\n```" if os.path.exists(pp)
                          else "(not measured: `bash scripts/compare-power.sh` writes data/compare-power/)")

    # One configuration measured by several suites: each suite's mean, and the spread.
    keyf = ("scene", "layers", "animatedFraction", "queriesPerFrame", "workload", "semantics", "tree", "threads",
            "strategy")
    seen = {}
    for suite in SUITES:
        for r in res[suite]:
            if r.get("windowPinned") or not comparable(r):
                continue
            seen.setdefault(tuple(r.get(k) for k in keyf), []).append((suite, r))
    rows = []
    for k, found in seen.items():
        if len(found) < 3 or k[0] not in ("app", "particles") or k[1] != 10000 or k[3] not in (100, 1000):
            continue
        means = [mean_us(r) for _, r in found]
        rows.append([f"{k[0]} 10k", k[3], k[8], ", ".join(f"{s_} {fmt(mean_us(r))}" for s_, r in found),
                     f"{fmt(max(means) / min(means), 2)}x"])
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    v["spread_table"] = (table(["configuration", "Q", "strategy", "mean us in each suite", "largest / smallest"], rows)
                         if rows else "(no configuration was measured by three suites)")

    # Targets quoted in the prose, rendered from the suites that declare them.
    def targets_of(suite, *words):
        found = [t for t in (docs[suite] or {}).get("targets", []) if all(w in t["name"] for w in words)]
        return "; ".join(f"\"{t['name']}\": {t['status']} ({t['measured']})" for t in found) or "(no such target measured)"
    v["p_target"] = targets_of("time-aware", "particles 10k, Q = 1000", "rebuild")
    v["m_targets"] = targets_of("time-aware", "1,000,000 particles")
    v["build_targets"] = targets_of("build", "per layer")
    v["peer_targets"] = targets_of("crossover", "peer")

    def frames(results):
        counts = sorted({r["frames"] for r in results})
        return "-" if not counts else (f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}")
    v["ta_frames"] = frames(sel(res["time-aware"], layers=10000))
    v["million_frames"] = frames(sel(res["scaling"], layers=1000000))

    # Targets: the verdicts the suites computed from their own results.
    t = []
    for s in SUITES:
        for tg in (docs[s] or {}).get("targets", []):
            status = tg["status"]
            t.append([f"{tg['name']} (`{s}`)", tg["measured"], status])
    v["targets"] = table(["target (suite)", "measured", "verdict"], t) if t else "(no suite ran)"

    # The build.
    rows = []
    for kind in ["particles", "app", "ui"]:
        for n in sorted({r["layers"] for r in sel(res["build"], scene=kind)}):
            for th in [1, 2]:
                g = find(res["build"], scene=kind, layers=n, threads=th, strategy="grid")
                w = find(res["build"], scene=kind, layers=n, threads=th, strategy="tree-walk")
                if not g:
                    continue
                rows.append([kind, f"{n:,}", th, fmt(g["presentationNs"]["mean"] / n), fmt(w["presentationNs"]["mean"] / n) if w else "-",
                             fmt(g["buildTimingNs"]["mean"] / 1000), fmt(g["buildComposeNs"]["mean"] / 1000),
                             fmt(g["buildOrderNs"]["mean"] / 1000), f"{g['rowsRecomputedPerFrame']:,.0f}",
                             fmt(g["allocationsPerFrame"], 2)])
    v["build_table"] = table(["scene", "layers", "threads", "every column ns/layer", "structure only ns/layer (tree-walk)",
                              "timing + animations us", "composition + boxes us", "ordering us", "rows recomputed", "allocs/frame"], rows)
    rows = []
    af = res["animated-fraction"]
    for kind in ["app", "idle"]:
        for f in sorted({r["animatedFraction"] for r in sel(af, scene=kind)}):
            g = find(af, scene=kind, animatedFraction=f, strategy="grid")
            s = find(af, scene=kind, animatedFraction=f, strategy="flat-scan")
            b = find(af, scene=kind, animatedFraction=f, strategy="bvh-refit")
            if not g or not s or not b:
                raise SystemExit(f"render: animated-fraction lacks grid, flat-scan or bvh-refit for {kind} at {f}")
            rows.append([kind, f"{f * 100:.0f}%", fmt(g["presentationNs"]["mean"] / 1000), f"{g['rowsRecomputedPerFrame']:,.0f}",
                         fmt(g["buildTimingNs"]["mean"] / 1000), fmt(g["buildComposeNs"]["mean"] / 1000),
                         fmt(g["updateNs"]["mean"] / 1000), fmt(s["updateNs"]["mean"] / 1000), f"{s['reindexedPerFrame']:,.0f}",
                         fmt(b["updateNs"]["mean"] / 1000), f"{b['reindexedPerFrame']:,.0f}"])
    v["animated_table"] = table(["scene", "animated", "build us (mean)", "rows recomputed per frame", "timing + animations us",
                                 "composition + boxes us", "grid update us", "flat-scan update us", "flat-scan lanes rewritten",
                                 "bvh-refit update us", "bvh-refit prims refitted"], rows)
    afm = docs["animated-fraction"]["meta"]
    v["animated_measured"] = f"commit {afm.get('gitCommit', '?')[:12]}, {afm.get('date', '?')}"
    g10 = find(af, scene="app", animatedFraction=0.1, strategy="grid")
    g100 = find(af, scene="app", animatedFraction=1.0, strategy="grid")
    if not g10 or not g100:
        raise SystemExit("render: animated-fraction lacks app grid at 10% or 100%")
    v["animated_rows_10"] = f"{g10['rowsRecomputedPerFrame']:,.0f}"
    v["animated_share_10"] = f"{g10['presentationNs']['mean'] / g100['presentationNs']['mean'] * 100:.0f}%"

    # Time-aware.
    rows = []
    for kind in ["particles", "app", "ui"]:
        for q in [100, 1000]:
            sub = sel(res["time-aware"], scene=kind, layers=10000, queriesPerFrame=q)
            for r in ranked(sub) + [r for r in sub if not comparable(r)]:
                rows.append([kind, q, r["strategy"], r["family"], fmt(us(r)), fmt(p99_us(r)),
                             fmt(r["presentationNs"]["mean"] / 1000), fmt(mean_us(r, SHARED)), fmt(cpu_us(r)),
                             fmt(r["candidatesPerQuery"]), fmt(r["presentationsPerQuery"]), f"{r['reindexedPerFrame']:,.0f}",
                             fmt(r["windowMs"]) if r["windowMs"] else "-", r["unboundedLayers"], mark(r)])
    v["time_aware_table"] = table(["scene", "Q", "strategy", "family", "mean us", "p99 us", "build us",
                                   "update + queries us", "CPU us",
                                   "candidates/query", "lazy presentations/query", "re-indexed/frame", "window ms", "unbounded",
                                   ""], rows)
    rows = []
    for r in sorted(sel(res["time-aware"], layers=1000000), key=lambda r: r["frameNs"]["mean"]):
        rows.append([r["strategy"], r["family"], fmt(us(r) / 1000, 1), fmt(p99_us(r) / 1000, 1),
                     fmt(r["presentationNs"]["mean"] / 1e6, 1), fmt(r["updateNs"]["mean"] / 1e6, 1),
                     fmt(r["queriesNs"]["mean"] / 1e6, 1), fmt(cpu_us(r) / 1000, 1), fmt(r["candidatesPerQuery"]),
                     fmt(r["windowMs"]) if r["windowMs"] else "-", mark(r)])
    v["million_time_aware"] = table(["strategy", "family", "mean ms", "p99 ms", "build ms", "update ms", "1000 queries ms",
                                     "CPU ms", "candidates/query", "window ms", ""], rows)
    mres = sel(res["time-aware"], layers=1000000)
    mb = best(mres)
    if mb:
        mb = min(mres, key=lambda r: r["frameNs"]["mean"])
        v["m_verdict"] = (f"The lowest mean frame in this run is `{mb['strategy']}`'s, {fmt(mb['frameNs']['mean'] / 1e6, 1)} ms, "
                          f"with a p99 of {fmt(mb['frameNs']['p99'] / 1e6, 1)} ms.")
    else:
        v["m_verdict"] = "(not measured)"
    gm = find(res["time-aware"], layers=1000000, strategy="grid")
    if gm:
        v["m_grid_ms"] = fmt(us(gm) / 1000, 1)
        v["m_build_ms"] = fmt(gm["presentationNs"]["mean"] / 1e6, 1)
        v["m_update_ms"] = fmt(gm["updateNs"]["mean"] / 1e6, 1)
        v["m_queries_ms"] = fmt(gm["queriesNs"]["mean"] / 1e6, 2)
    else:
        for k in ["m_grid_ms", "m_build_ms", "m_update_ms", "m_queries_ms"]:
            v[k] = "(not measured)"
    # The particles 10k comparison quoted in the prose.
    pq = sel(res["time-aware"], scene="particles", layers=10000, queriesPerFrame=1000)
    ta = best([r for r in pq if r["family"] == "time-aware"])
    rb = best([r for r in pq if r["family"] == "rebuild"])
    if ta and rb:
        v["p_ta"] = ta["strategy"]
        v["p_ta_us"] = fmt(us(ta))
        v["p_ta_cand"] = fmt(ta["candidatesPerQuery"])
        v["p_ta_ns_per_cand"] = fmt(ta["queriesNs"]["mean"] / max(ta["candidatesPerQuery"] * 1000, 1))
        v["p_rb"] = rb["strategy"]
        v["p_rb_us"] = fmt(us(rb))
        v["p_rb_build_us"] = fmt(rb["presentationNs"]["mean"] / 1000)
        v["p_rb_tested"] = fmt(rb["testedPerQuery"])
    else:
        for k in ["p_ta", "p_ta_us", "p_ta_cand", "p_ta_ns_per_cand", "p_rb", "p_rb_us", "p_rb_build_us", "p_rb_tested"]:
            v[k] = "(not measured)"

    # Window length: bound size against re-index cost.
    rows = []
    for kind in ["particles", "app"]:
        for strat in ["window-grid", "linear-bvh"]:
            sub = sel(res["windows"], scene=kind, strategy=strat)
            pinned = sorted([r for r in sub if r.get("windowPinned")], key=lambda r: r["windowMs"])
            chosen = [r for r in sub if not r.get("windowPinned")]
            for r in pinned + chosen:
                label = fmt(r["windowMs"]) + ("" if r.get("windowPinned") else " (chosen by cost)")
                rows.append([kind, strat, label, fmt(r["candidatesPerQuery"]), f"{r['reindexedPerFrame']:,.0f}",
                             fmt(us(r)), fmt(p99_us(r)), fmt(cpu_us(r)), mark(r)])
    v["windows_table"] = table(["scene", "strategy", "window ms", "candidates/query", "re-indexed/frame (mean)",
                                "mean us", "p99 us", "CPU us", ""], rows) if rows else "(not measured)"

    # Crossover, end to end.
    rows = []
    combos = sorted({(r["scene"], r["layers"]) for r in res["crossover"]}, key=lambda c: (c[0] != "app", c[1]))
    for kind, n in combos:
        sub = sel(res["crossover"], scene=kind, layers=n)
        for q in sorted({r["queriesPerFrame"] for r in sub}):
            order = ranked(sel(sub, queriesPerFrame=q))
            if not order:
                continue
            r = order[0]
            second = order[1] if len(order) > 1 else None
            peer = best([x for x in order if x["family"] == "peer"])
            cheapest = min(order, key=cpu_us)
            shared = best(order, SHARED)
            rows.append([kind, f"{n:,}", q, r["strategy"], fmt(us(r)), fmt(p99_us(r)),
                         f"{second['strategy']} ({faster(us(r), us(second))})" if second else "-",
                         f"{peer['strategy']} ({faster(us(r), us(peer))})" if peer else "-",
                         f"{cheapest['strategy']} {fmt(cpu_us(cheapest))}",
                         f"{shared['strategy']} {fmt(mean_us(shared, SHARED))} / {fmt(p99_us(shared, SHARED))}, CPU {fmt(cpu_us(shared, SHARED))}"])
    v["when_crossover"] = table(["scene", "layers", "Q", "fastest by mean, end to end", "mean us", "p99 us",
                                 "runner-up (the fastest against it)", "best peer (the fastest against it)",
                                 "least CPU per frame, us", "fastest with the build shared, mean / p99 and CPU us"], rows)
    words = []
    for kind, n in combos:
        sub = sel(res["crossover"], scene=kind, layers=n)
        spans = []
        for q in sorted({r["queriesPerFrame"] for r in sub}):
            b = best(sel(sub, queriesPerFrame=q))
            if not b:
                continue
            s = b["strategy"]
            if spans and spans[-1][0] == s:
                spans[-1][2] = q
            else:
                spans.append([s, q, q])
        parts = [f"`{s}` for Q = {a}" + (f" to {b}" if b != a else "") for s, a, b in spans]
        words.append(f"- **{kind}, {n:,} layers**: " + "; ".join(parts) + ".")
    v["when_words"] = "\n".join(words)

    # Peers.
    rows = []
    for kind, n in combos:
        for q in [1, 1000]:
            sub = sel(res["crossover"], scene=kind, layers=n, queriesPerFrame=q)
            own = best([r for r in sub if r["family"] != "peer"])
            for r in sorted([r for r in sub if r["family"] == "peer"], key=lambda r: r["frameNs"]["mean"]):
                rows.append([kind, f"{n:,}", q, r["strategy"], fmt(us(r)), fmt(p99_us(r)),
                             fmt(r["presentationNs"]["mean"] / 1000),
                             fmt(r["updateNs"]["mean"] / 1000), fmt(r["queriesNs"]["mean"] / 1000), fmt(r["testedPerQuery"]),
                             fmt(r["allocationsPerFrame"]),
                             f"{own['strategy']}, {faster(us(own), us(r))}" if own else "-", mark(r)])
    v["peers_table"] = table(["scene", "layers", "Q", "peer", "mean us", "p99 us", "build us", "update us", "queries us",
                              "candidates/query", "allocs/frame", "best own strategy (against this peer, by mean)", ""],
                             rows) if rows else \
        "(not measured: the peer libraries were not installed when scripts/results.sh ran; `bash scripts/peers.sh` installs them)"
    words = []
    for kind in ["particles", "app"]:
        sub = sel(res["crossover"], scene=kind, layers=10000, queriesPerFrame=1000)
        own = best([r for r in sub if r["family"] != "peer"])
        peer = best([r for r in sub if r["family"] == "peer"])
        if own and peer:
            words.append(
                f"- **{kind} 10k, Q = 1000**: the best own strategy, `{own['strategy']}`, takes {fmt(us(own))} us "
                f"(build {fmt(own['presentationNs']['mean'] / 1000)}, update {fmt(own['updateNs']['mean'] / 1000)}, "
                f"queries {fmt(own['queriesNs']['mean'] / 1000)}); the best peer, `{peer['strategy']}`, {fmt(us(peer))} us "
                f"(build {fmt(peer['presentationNs']['mean'] / 1000)}, update {fmt(peer['updateNs']['mean'] / 1000)}, "
                f"queries {fmt(peer['queriesNs']['mean'] / 1000)}): the own strategy is {faster(us(own), us(peer))}; "
                f"beyond its build the peer spends {fmt(us(peer) - peer['presentationNs']['mean'] / 1000)} us.")
    v["peers_words"] = "\n".join(words) if words else "(not measured)"

    # Scaling, scenes, workloads.
    rows = []
    for kind in ["app", "particles"]:
        for n in sorted({r["layers"] for r in sel(res["scaling"], scene=kind)}):
            r = best(sel(res["scaling"], scene=kind, layers=n))
            if not r:
                continue
            shared = best(sel(res["scaling"], scene=kind, layers=n), SHARED)
            rows.append([kind, f"{n:,}", r["strategy"], r["family"], fmt(us(r)), fmt(p99_us(r)),
                         fmt(r["presentationNs"]["mean"] / 1000), fmt(cpu_us(r)),
                         f"{shared['strategy']} {fmt(mean_us(shared, SHARED))} / {fmt(p99_us(shared, SHARED))}, CPU {fmt(cpu_us(shared, SHARED))}"])
    v["when_scaling"] = table(["scene", "layers", "fastest by mean at Q = 100, end to end", "family", "mean us", "p99 us",
                               "its build us", "CPU us", "fastest with the build shared, mean / p99 and CPU us"], rows)
    rows = []
    seen = []
    for r in res["scenes"]:
        name = os.path.basename(r["scene"]).replace(".json", "")
        if name in seen:
            continue
        seen.append(name)
        sub = [x for x in res["scenes"] if x["scene"] == r["scene"]]
        bb = best(sub)
        walk = find(sub, strategy="tree-walk")
        shared = best(sub, SHARED)
        rows.append([name, f"{sub[0]['layers']:,}", bb["strategy"], fmt(us(bb)), fmt(p99_us(bb)),
                     fmt(us(walk)) if walk else "-", faster(us(bb), us(walk)) if walk else "-",
                     f"{shared['strategy']} {fmt(mean_us(shared, SHARED))}, CPU {fmt(cpu_us(shared, SHARED))}"])
    v["when_scenes"] = table(["scene", "layers", "fastest by mean at Q = 100", "mean us", "p99 us", "tree-walk mean us",
                              "the fastest against tree-walk", "fastest with the build shared, mean and CPU us"], rows)
    rows = []
    for w in ["uniform", "touch", "hover", "hotspot", "miss"]:
        sub = sel(res["workloads"], workload=w)
        if sub:
            bb = best(sub)
            walk = find(sub, strategy="tree-walk")
            shared = best(sub, SHARED)
            rows.append([w, bb["strategy"], fmt(us(bb)), fmt(p99_us(bb)), fmt(bb["nsPerQuery"]),
                         fmt(walk["nsPerQuery"]) if walk else "-", f"{shared['strategy']} {fmt(mean_us(shared, SHARED))}, CPU {fmt(cpu_us(shared, SHARED))}"])
    v["when_workloads"] = table(["workload", "fastest by mean (app 10k, Q = 1000)", "mean us", "p99 us", "ns/query",
                                 "tree-walk ns/query", "fastest with the build shared, mean and CPU us"], rows)

    # The model-tree mistake.
    mp = os.path.join(d, "mismatch.csv")
    rows = []
    if os.path.exists(mp):
        for m in csv.DictReader(open(mp)):
            rows.append([m["scene"], f"{int(m['layers']):,}", f"{int(m['frames']) * int(m['queries']):,}", f"{float(m['fraction']) * 100:.1f}%"])
    v["mismatch"] = table(["scene", "layers", "answers compared", "model tree answers a different layer"], rows)

    # Verification, budget, a million layers, the scan.
    vp = os.path.join(d, "verify.txt")
    v["verify"] = open(vp).read().strip().splitlines()[-1] if os.path.exists(vp) else "not run"
    checked = sum(r.get("verifiedAnswers", 0) for r in allres)
    bad = sum(r.get("disagreements", 0) for r in allres)
    tol = sum(r.get("toleratedAnswers", 0) for r in allres)
    v["run_verify"] = (f"{checked:,} answers checked against tree-walk during the suites (--verify), {tol:,} tolerated "
                       f"(within the measured rounding of an edge), {bad} disagreements; a frame whose every answer would walk more "
                       f"than 2^25 layers (1,000,000 layers at Q = 1000) checks an evenly spaced share that moves frame by "
                       f"frame (`run --verify-all` checks them all)")
    rows = []
    for r in sel(res["scaling"], layers=1000000):
        rows.append([r["scene"], r["strategy"], r["family"], fmt(us(r) / 1000, 1), fmt(p99_us(r) / 1000, 1),
                     fmt(r["presentationNs"]["mean"] / 1e6, 1),
                     fmt(r["updateNs"]["mean"] / 1e6, 2), fmt(r["queriesNs"]["mean"] / 1e6, 2),
                     fmt(r["indexBytes"] / r["layers"]), fmt(r["peakResidentBytes"] / r["layers"]), mark(r)])
    v["million"] = table(["scene", "strategy", "family", "mean ms", "p99 ms", "build ms", "update ms", "100 queries ms",
                          "index bytes/layer", "peak RSS bytes/layer (process)", ""], rows)
    # Memory by part (scripts/memory.sh): a missing file fails the render.
    mp = os.path.join(d, "memory.csv")
    gp = os.path.join(d, "memory-generate.csv")
    wp = os.path.join(d, "memory-model-whole.csv")
    for p in (mp, gp, wp):
        if not os.path.exists(p):
            sys.stderr.write(f"render_results: missing {p} (scripts/memory.sh measures it)\n")
            sys.exit(1)
    mem = list(csv.DictReader(open(mp)))
    meta_path = os.path.join(d, "memory-meta.txt")
    v["memory_measured"] = open(meta_path).read().strip() if os.path.exists(meta_path) else "commit not recorded"
    per = lambda r, k: float(r[k]) / float(r["layers"])
    top = max(float(r["layers"]) for r in mem)
    rows = []
    for r in [r for r in mem if float(r["layers"]) == top]:
        parts = [per(r, k) for k in ("modelBytes", "compiledSceneBytes", "frameBytes", "strategyBytes")]
        peak = float(r["maxRSSKiB"]) * 1024 / float(r["layers"])
        rows.append([r["strategy"], r["family"]] + [fmt(p, 0) for p in parts] + [fmt(sum(parts), 0), fmt(peak, 0)])
    v["memory_table"] = table(["strategy", "family", "model", "compiled scene", "frame + builder", "strategy state",
                               "sum of parts", "peak RSS"], rows)
    # The targets and their verdicts are the `memory` suite's (Benchmarks/Suites.swift), judged
    # by hitbench in each strategy's own process and merged by scripts/memory_merge.py.
    tp = os.path.join(d, "memory-targets.json")
    if os.path.exists(tp):
        found = json.load(open(tp))["targets"]
        v["memory_missed"] = table(["target (suite memory)", "measured", "verdict"],
                                   [[t["name"], t["measured"], t["status"]] for t in found])
    else:
        v["memory_missed"] = ("The `memory` suite's targets were not judged on this data (no memory-targets.json: "
                              "`bash scripts/memory.sh` measures them).")
    v["memory_layers"] = f"{int(top):,}"
    sizes = sorted({float(r["layers"]) for r in mem})
    first = mem[0]["strategy"]
    grow = []
    for k, label in (("modelBytes", "model"), ("compiledSceneBytes", "compiled scene"), ("frameBytes", "frame + builder")):
        vals = [per(r, k) for n in sizes for r in mem if float(r["layers"]) == n and r["strategy"] == first]
        grow.append([label] + [fmt(x, 0) for x in vals])
    for s in sorted({r["strategy"] for r in mem}):
        vals = [per(r, "strategyBytes") for n in sizes for r in mem if float(r["layers"]) == n and r["strategy"] == s]
        grow.append([f"{s} state"] + [fmt(x, 0) for x in vals])
    v["memory_growth"] = table(["bytes per layer"] + [f"{int(n):,}" for n in sizes], grow)
    whole = list(csv.DictReader(open(wp)))
    v["memory_model_whole"] = fmt(per(whole[0], "modelBytes"), 0)
    gen = list(csv.DictReader(open(gp)))
    v["memory_generate"] = ", ".join(f"{int(g['layers']):,} layers {float(g['maxRSSKiB']) * 1024 / float(g['layers']):,.0f}"
                                     for g in gen)
    sp = os.path.join(d, "suite-seconds.csv")
    v["suite_seconds"] = table(["suite", "seconds (with --verify)"], [[r["suite"], r["seconds"]] for r in csv.DictReader(open(sp))]) if os.path.exists(sp) else ""
    sp = os.path.join(d, "scanbench.csv")
    scans = list(csv.DictReader(open(sp))) if os.path.exists(sp) else []
    v["scanbench"] = table(["scene", "layers", "SIMD8 ns/box", "scalar && ns/box", "scalar & ns/box", "over &&", "over &"],
                           [[s["scene"], f"{int(s['layers']):,}", fmt(float(s["simdNsPerBox"]), 3), fmt(float(s["scalarBranchyNsPerBox"]), 3),
                             fmt(float(s["scalarBranchlessNsPerBox"]), 3), fmt(float(s["speedupOverBranchy"])) + "x",
                             fmt(float(s["speedupOverBranchless"])) + "x"] for s in scans])

    shares = []
    for kind in ["particles", "app"]:
        g = find(res["crossover"], scene=kind, layers=10000, queriesPerFrame=1000, strategy="grid")
        if g:
            shares.append(f"{g['presentationNs']['mean'] / g['frameNs']['mean'] * 100:.0f}% on {kind} 10k")
    v["grid_build_share"] = " and ".join(shares) if shares else "(not measured)"

    pp = os.path.join(d, "peer-profile.csv")
    if os.path.exists(pp):
        prof = {}
        for r in csv.DictReader(open(pp)):
            prof.setdefault((r["peer"], r["scene"], r["phase"]), []).append(f"{r['dso']} {float(r['percent']):.0f}%")
        v["peer_profile"] = table(["peer", "scene", "phase", "samples by library"],
                                  [[k[0], k[1], k[2], ", ".join(x)] for k, x in prof.items()])
    else:
        v["peer_profile"] = "(not measured: needs the peers and perf)"

    tp = os.path.join(d, "time-aware-profile.csv")
    if os.path.exists(tp):
        rows = list(csv.DictReader(open(tp)))
        v["time_aware_profile"] = "; ".join(f"`{r['symbol']}` {float(r['percent']):.0f}%" for r in rows) or "(empty)"
    else:
        v["time_aware_profile"] = "(not measured: needs perf)"

    # Values quoted in "what did not work".
    refit = find(res["scaling"], scene="particles", layers=100000, strategy="bvh-refit")
    sah = find(res["scaling"], scene="particles", layers=100000, strategy="bvh-sah")
    v["refit_particles_update_ms"] = fmt(refit["updateNs"]["mean"] / 1e6, 1) if refit else "(not measured)"
    v["sah_particles_update_ms"] = fmt(sah["updateNs"]["mean"] / 1e6, 1) if sah else "(not measured)"
    wg = sel(res["time-aware"], scene="particles", layers=10000, queriesPerFrame=1000, strategy="window-grid")
    v["p_window_ms"] = fmt(wg[0]["windowMs"]) if wg else "(not measured)"

    # Counts read back from the pictures (scripts/pictures.sh): the picture is the data.
    def picture(name):
        p = os.path.join(d, "pictures", name)
        if not os.path.exists(p):
            sys.stderr.write(f"render_results: missing {p} (scripts/pictures.sh draws it)\n")
            sys.exit(1)
        return open(p).read()
    for key, name in (("particles", "particles-window-grid.svg"), ("app", "app-window-grid.svg")):
        svg = picture(name)
        points = [int(n) for n in re.findall(r'class="point"[^>]*data-candidates="(\d+)"', svg)]
        v[f"pic_{key}_bounds"] = svg.count('class="motion-bound"')
        v[f"pic_{key}_candidates"] = fmt(sum(points) / len(points)) if points else "0"
    svg = picture("particles-grid.svg")
    cells = [int(n) for n in re.findall(r'class="cell" data-count="(\d+)"', svg)]
    v["pic_grid_cells"] = len(cells)
    v["pic_grid_entries"] = sum(cells)
    v["pic_grid_rows"] = svg.count('class="hittable"')

    # Instructions per frame (Callgrind, scripts/results.sh): beside the times of the same run.
    rows = []
    for scene in ["app", "particles"]:
        doc = load(d, f"instructions-{scene}")
        for r in (doc or {}).get("results", []):
            i = r.get("instructions")
            if not i:
                continue
            def count(x):
                return f"{x:,.0f}"
            rows.append([f"{scene} {r['layers']:,}", r["strategy"], r["queriesPerFrame"], fmt(r["frameNs"]["mean"] / 1000),
                         count(i["framePerFrame"]), count(i["buildPerFrame"]), count(i["backgroundPerFrame"]),
                         count(i["perQuery"]), count(i["perCandidate"]) if i["perCandidate"] > 0 else "-",
                         mark(r)])
    v["instructions_table"] = (table(["scene", "strategy", "Q", "mean us (timed run)", "instructions/frame",
                                      "of which build", "background/frame", "per query", "per candidate", ""], rows)
                               if rows else "(not counted: needs Valgrind, `apt install valgrind`)")

    # The headline suite's page (scripts/results.sh writes it with the run).
    report = os.path.join(d, "report.html")
    if not os.path.exists(report):
        sys.stderr.write(f"render_results: missing {report} (the default suite's run --report writes it)\n")
        sys.exit(1)
    v["report_link"] = (f"[{report}]({report}) ({os.path.getsize(report) / 1e6:.1f} MB, self-contained: "
                        "open it in a browser)")

    if readme:
        # README.md's generated block, between its markers: the same decision, and where each
        # strategy (in the registry's order, the `hitbench list` order) wins.
        begin, end = "<!-- results:decision:begin -->", "<!-- results:decision:end -->"
        page = open(readme).read()
        if page.count(begin) != 1 or page.count(end) != 1 or page.index(begin) > page.index(end):
            sys.stderr.write(f"render_results: {readme} needs one {begin} ... {end} block\n")
            sys.exit(1)
        order = list(dict.fromkeys(r["strategy"] for r in res["default"] + res["crossover"]))
        block = results_decision.readme_block(res["crossover"], budget, res["scenes"], order)
        page = page[:page.index(begin) + len(begin)] + "\n" + block + page[page.index(end):]
        with open(readme + ".tmp", "w") as f:
            f.write(page)
        os.replace(readme + ".tmp", readme)
        return

    text = open(template).read()
    missing = sorted(set(re.findall(r"\{\{(\w+)\}\}", text)) - set(v))
    if missing:
        sys.stderr.write("render_results: no value for " + ", ".join(missing) + "\n")
        sys.exit(1)
    # Every picture and plot the page shows must exist: a missing input fails the render.
    absent = [p for p in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text) if not os.path.exists(p)]
    if absent:
        sys.stderr.write("render_results: missing " + ", ".join(absent) + "\n")
        sys.exit(1)
    sys.stdout.write(re.sub(r"\{\{(\w+)\}\}", lambda m: str(v[m.group(1)]), text))


if __name__ == "__main__":
    main()
