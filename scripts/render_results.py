#!/usr/bin/env python3
"""Renders RESULTS.md from data/results and the template: every number comes from the data.

Usage: render_results.py DIR TEMPLATE > RESULTS.md
"""
import csv
import json
import os
import re
import sys

STRATEGIES = ["tree-walk", "flat-scan", "flat-tree", "bvh-sah", "bvh-lbvh", "bvh-refit", "grid"]


def load(d, suite):
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


def us(r):
    return r["frameNs"]["median"] / 1000


def table(header, rows):
    out = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
    for r in rows:
        out += "| " + " | ".join(str(c) for c in r) + " |\n"
    return out


def find(results, **kw):
    for r in results:
        if all(r.get(k) == v for k, v in kw.items()):
            return r
    return None


def best(results):
    return min(results, key=lambda r: r["frameNs"]["median"]) if results else None


def main():
    d, template = sys.argv[1], sys.argv[2]
    docs = {s: load(d, s) for s in ["default", "scaling", "crossover", "animated-fraction", "workloads", "scenes"]}
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
    v["machine"] = table(["", ""], [
        ["CPU", machine.get("cpu", meta.get("cpuModel", "?"))], ["cores", machine.get("cores", meta.get("cores", "?"))],
        ["memory", machine.get("memory", "?")], ["kernel", machine.get("kernel", "?")],
        ["toolchain", machine.get("swift", meta.get("toolchain", "?"))], ["build", meta.get("buildFlags", "?")],
        ["commit measured", machine.get("commit", meta.get("gitCommit", "?"))], ["date", meta.get("date", "?")],
    ])

    # Headline: the default suite.
    rows = []
    for r in res["default"]:
        base = find(res["default"], strategy="tree-walk", queriesPerFrame=r["queriesPerFrame"])
        rows.append([r["strategy"], r["queriesPerFrame"], fmt(us(r)), fmt(r["updateNs"]["median"] / 1000),
                     fmt(r["queriesNs"]["median"] / 1000), fmt(r["nsPerQuery"]),
                     fmt(base["frameNs"]["median"] / r["frameNs"]["median"]) + "x" if base else "-",
                     fmt(r["queryFloorRatio"]), fmt(r["updateFloorRatio"]), fmt(r["allocationsPerFrame"], 2),
                     "noisy" if r["noisy"] else ""])
    v["default_table"] = table(["strategy", "Q", "frame us", "update us", "queries us", "ns/query", "vs tree-walk",
                                "q-floor x", "u-floor x", "allocs/frame", ""], rows)

    # Targets.
    t = []
    q1000 = [r for r in res["default"] if r["queriesPerFrame"] == 1000]
    tw = find(q1000, strategy="tree-walk")
    b = best([r for r in q1000 if r["strategy"] != "tree-walk"])
    if tw and b:
        ratio = tw["frameNs"]["median"] / b["frameNs"]["median"]
        t.append(["app 10k, all animated, Q=1000, uniform: best frame >= 100x tree-walk",
                  f"{b['strategy']}: {fmt(ratio)}x ({fmt(us(b))} us vs {fmt(us(tw))} us)",
                  "met" if ratio >= 100 else "not met"])
    for strat in ["grid", "best BVH"]:
        for kind in ["app", "particles"]:
            for n in [10000, 100000]:
                cand = [r for r in res["scaling"] if r["scene"] == kind and r["layers"] == n]
                if strat == "grid":
                    r = find(cand, strategy="grid")
                else:
                    r = best([c for c in cand if c["strategy"].startswith("bvh")])
                if not r:
                    continue
                ok = r["queryFloorRatio"] <= 8 and r["updateFloorRatio"] <= 6
                t.append([f"{strat if strat == 'grid' else r['strategy']} on {kind} {n // 1000}k: query floor ratio <= 8, update floor ratio <= 6",
                          f"{fmt(r['queryFloorRatio'])} and {fmt(r['updateFloorRatio'])}", "met" if ok else "not met"])
    sp = os.path.join(d, "scanbench.csv")
    scans = list(csv.DictReader(open(sp))) if os.path.exists(sp) else []
    for s in scans:
        br = float(s["speedupOverBranchy"])
        bl = float(s["speedupOverBranchless"])
        t.append([f"flat-scan SIMD >= 4x per box over a scalar loop ({s['scene']} {int(s['layers']) // 1000}k)",
                  f"{fmt(float(s['simdNsPerBox']), 3)} ns/box: {fmt(br)}x over the branchy loop, {fmt(bl)}x over the branchless loop (auto-vectorised)",
                  "met" if br >= 4 else "not met"])
    allres = [r for rs in res.values() for r in rs]
    maxalloc = max((r["allocationsPerFrame"] for r in allres), default=0)
    t.append(["zero allocations per frame, every strategy, every size", f"max {fmt(maxalloc, 3)} over {len(allres)} results",
              "met" if maxalloc == 0 else "not met"])
    million = [r for r in res["scaling"] if r["layers"] == 1000000]
    done = sorted({r["strategy"] for r in million})
    t.append(["1,000,000 layers: every strategy but tree-walk completes scaling",
              f"{len(done)} strategies: {', '.join(done)}", "met" if len(done) == 6 else "not met"])
    v["targets"] = table(["target", "measured", "verdict"], t)

    # Presentation cost per animated layer.
    rows = []
    for kind in ["app", "particles"]:
        for r in sorted({r["layers"]: r for r in res["scaling"] if r["scene"] == kind}.values(), key=lambda r: r["layers"]):
            rows.append([kind, f"{r['layers']:,}", fmt(r["presentationNs"]["median"] / 1000), fmt(r["presentationNs"]["median"] / r["layers"])])
    v["presentation_table"] = table(["scene", "layers", "build us (median)", "ns per animated layer"], rows)

    # Which strategy when.
    rows = []
    combos = sorted({(r["scene"], r["layers"]) for r in res["crossover"]}, key=lambda c: (c[0] != "app", c[1]))
    for kind, n in combos:
        sub = [r for r in res["crossover"] if r["scene"] == kind and r["layers"] == n]
        qs = sorted({r["queriesPerFrame"] for r in sub})
        bests = [(q, best([r for r in sub if r["queriesPerFrame"] == q])) for q in qs]
        for q, r in bests:
            second = sorted([x for x in sub if x["queriesPerFrame"] == q], key=lambda x: x["frameNs"]["median"])
            margin = second[1]["frameNs"]["median"] / r["frameNs"]["median"] if len(second) > 1 else 1
            rows.append([kind, f"{n:,}", q, r["strategy"], fmt(us(r)), f"{second[1]['strategy']} ({fmt(margin, 2)}x slower)" if len(second) > 1 else "-"])
    v["when_crossover"] = table(["scene", "layers", "Q", "fastest", "frame us", "runner-up"], rows)
    cross = []
    for kind, n in combos:
        sub = [r for r in res["crossover"] if r["scene"] == kind and r["layers"] == n]
        kind = f"{kind} {n:,}"
        prev = None
        for q in sorted({r["queriesPerFrame"] for r in sub}):
            r = best([x for x in sub if x["queriesPerFrame"] == q])
            if prev and r["strategy"] != prev:
                cross.append(f"{kind}: {prev} until Q = {lastq}, {r['strategy']} from Q = {q}")
            prev = r["strategy"]
            lastq = q
        if prev and not any(c.startswith(kind + ":") for c in cross):
            cross.append(f"{kind}: {prev} at every Q measured")
    v["crossovers"] = "\n".join(f"- {c}" for c in cross)
    rows = []
    for kind in ["app", "particles"]:
        for n in sorted({r["layers"] for r in res["scaling"] if r["scene"] == kind}):
            r = best([x for x in res["scaling"] if x["scene"] == kind and x["layers"] == n])
            rows.append([kind, f"{n:,}", r["strategy"], fmt(us(r))])
    v["when_scaling"] = table(["scene", "layers", "fastest at Q = 100", "frame us"], rows)
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
        rows.append([name, sub[0]["layers"], bb["strategy"], fmt(us(bb)), fmt(us(walk)) if walk else "-"])
    v["when_scenes"] = table(["scene", "layers", "fastest at Q = 100", "frame us", "tree-walk us"], rows)
    rows = []
    for w in ["uniform", "touch", "hover", "hotspot", "miss"]:
        sub = [x for x in res["workloads"] if x["workload"] == w]
        if sub:
            bb = best(sub)
            rows.append([w, bb["strategy"], fmt(bb["nsPerQuery"]), fmt(find(sub, strategy="tree-walk")["nsPerQuery"])])
    v["when_workloads"] = table(["workload", "fastest (app 10k, Q = 1000)", "ns/query", "tree-walk ns/query"], rows)
    rows = []
    for f in sorted({r["animatedFraction"] for r in res["animated-fraction"]}):
        sub = [x for x in res["animated-fraction"] if x["animatedFraction"] == f]
        bb = best(sub)
        rows.append([f, bb["strategy"], fmt(us(bb)), fmt(sub[0]["presentationNs"]["median"] / 1000)])
    v["when_animated"] = table(["animated fraction", "fastest (app 10k, Q = 100)", "frame us", "presentation us"], rows)

    # The model-tree mistake.
    mp = os.path.join(d, "mismatch.csv")
    rows = []
    if os.path.exists(mp):
        for m in csv.DictReader(open(mp)):
            rows.append([m["scene"], f"{int(m['layers']):,}", f"{int(m['frames']) * int(m['queries']):,}", f"{float(m['fraction']) * 100:.1f}%"])
    v["mismatch"] = table(["scene", "layers", "answers compared", "model tree answers a different layer"], rows)

    # Verification and the million-layer budget.
    vp = os.path.join(d, "verify.txt")
    v["verify"] = open(vp).read().strip().splitlines()[-1] if os.path.exists(vp) else "not run"
    checked = sum(r.get("verifiedAnswers", 0) for r in allres)
    bad = sum(r.get("disagreements", 0) for r in allres)
    v["run_verify"] = f"{checked:,} answers checked against tree-walk during the suites (--verify), {bad} disagreements"
    rows = []
    for r in million:
        rows.append([r["scene"], r["strategy"], fmt(r["updateNs"]["median"] / 1e6, 2), fmt(r["queriesNs"]["median"] / 1e6, 2),
                     fmt(r["presentationNs"]["median"] / 1e6, 1), fmt(r["indexBytes"] / r["layers"]), fmt(r["peakResidentBytes"] / r["layers"])])
    v["million"] = table(["scene", "strategy", "update ms", "100 queries ms", "presentation ms", "index bytes/layer", "peak RSS bytes/layer (process)"], rows)
    sp = os.path.join(d, "suite-seconds.csv")
    v["suite_seconds"] = table(["suite", "seconds (with --verify)"], [[r["suite"], r["seconds"]] for r in csv.DictReader(open(sp))]) if os.path.exists(sp) else ""
    scan_rows = [[s["scene"], f"{int(s['layers']):,}", fmt(float(s["simdNsPerBox"]), 3), fmt(float(s["scalarBranchyNsPerBox"]), 3),
                  fmt(float(s["scalarBranchlessNsPerBox"]), 3), fmt(float(s["speedupOverBranchy"])) + "x", fmt(float(s["speedupOverBranchless"])) + "x"] for s in scans]
    v["scanbench"] = table(["scene", "layers", "SIMD8 ns/box", "scalar && ns/box", "scalar & ns/box", "over &&", "over &"], scan_rows)

    # Which strategy when, in words: one sentence per scene kind, from the crossover runs, and
    # a list of the kinds where each strategy wins at Q = 100.
    words = []
    for kind, n in combos:
        sub = [r for r in res["crossover"] if r["scene"] == kind and r["layers"] == n]
        spans = []
        for q in sorted({r["queriesPerFrame"] for r in sub}):
            s = best([r for r in sub if r["queriesPerFrame"] == q])["strategy"]
            if spans and spans[-1][0] == s:
                spans[-1][2] = q
            else:
                spans.append([s, q, q])
        parts = [f"`{s}` for Q = {a}" + (f" to {b}" if b != a else "") for s, a, b in spans]
        words.append(f"- **{kind}, {n:,} layers**: " + "; ".join(parts) + ".")
    winners = {}
    for name in seen:
        sub = [x for x in res["scenes"] if os.path.basename(x["scene"]).replace(".json", "") == name]
        winners.setdefault(best(sub)["strategy"], []).append(name)
    for s in STRATEGIES:
        if s in winners:
            words.append(f"- `{s}` is fastest at Q = 100 on: " + ", ".join(winners[s]) + ".")
    crossover_winners = {best([r for r in res["crossover"] if (r["scene"], r["layers"], r["queriesPerFrame"]) == key])["strategy"]
                         for key in {(r["scene"], r["layers"], r["queriesPerFrame"]) for r in res["crossover"]}}
    never = [s for s in STRATEGIES if s not in winners and s not in crossover_winners]
    if never:
        words.append("- never fastest in these runs: " + ", ".join(f"`{s}`" for s in never) + ".")
    v["when_words"] = "\n".join(words)
    sah = find(res["default"], strategy="bvh-sah", queriesPerFrame=1000)
    lb = find(res["default"], strategy="bvh-lbvh", queriesPerFrame=1000)
    rf = find(res["default"], strategy="bvh-refit", queriesPerFrame=1000)
    if sah and lb and rf:
        v["sah_lbvh_update_ratio"] = fmt(sah["updateNs"]["median"] / lb["updateNs"]["median"])
        v["lbvh_sah_query_ratio"] = fmt(lb["nsPerQuery"] / sah["nsPerQuery"])
        v["refit_sah_update_ratio"] = fmt(sah["updateNs"]["median"] / rf["updateNs"]["median"])

    # Values quoted in the prose.
    def val(suite, key, **kw):
        r = find(res[suite], **kw)
        return r[key] if r else None
    refit_p100k = find(res["scaling"], scene="particles", layers=100000, strategy="bvh-refit")
    sah_p100k = find(res["scaling"], scene="particles", layers=100000, strategy="bvh-sah")
    v["refit_particles_update_ms"] = fmt(refit_p100k["updateNs"]["median"] / 1e6, 1) if refit_p100k else "-"
    v["sah_particles_update_ms"] = fmt(sah_p100k["updateNs"]["median"] / 1e6, 1) if sah_p100k else "-"
    if tw and b:
        v["tw_q1000_us"] = fmt(us(tw))
        v["best_q1000"] = b["strategy"]
        v["best_q1000_us"] = fmt(us(b))
        v["best_q1000_update_us"] = fmt(b["updateNs"]["median"] / 1000)
        v["best_q1000_query_ns"] = fmt(b["nsPerQuery"])
        v["floor_q1000_ns"] = fmt(b["queryFloorNs"])
        v["needed_us"] = fmt(us(tw) / 100)
        v["pres_app10k_us"] = fmt(b["presentationNs"]["median"] / 1000)

    text = open(template).read()
    missing = set(re.findall(r"\{\{(\w+)\}\}", text)) - set(v)
    for k in missing:
        v[k] = "(not measured)"
    sys.stdout.write(re.sub(r"\{\{(\w+)\}\}", lambda m: str(v[m.group(1)]), text))


if __name__ == "__main__":
    main()
