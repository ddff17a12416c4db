#!/usr/bin/env python3
"""Merges the `memory` suite's per-strategy runs (scripts/memory.sh: one process each) into
memory.csv, a row per strategy and size with the live-heap parts and the process's peak
resident memory, and memory-targets.json, the suite's targets each judged over the processes
where its strategies ran: a process without the target's strategies reports it not measured,
and those verdicts are left out; the rest combine as `TargetVerdict.all` does (not met if one
is, else undecided if one is, else met). Exit 65 on a file that is not a suite's report.
  python3 scripts/memory_merge.py OUT.csv OUT-targets.json RUN.json...
"""
import csv
import json
import sys

COLUMNS = ["layers", "strategy", "family", "modelBytes", "compiledSceneBytes", "frameBytes", "strategyBytes",
           "peakResidentBytes", "maxRSSKiB"]


def main(argv):
    if len(argv) < 4:
        sys.stderr.write("usage: memory_merge.py OUT.csv OUT-targets.json RUN.json...\n")
        return 64
    rows, verdicts, order = [], {}, []
    for path in argv[3:]:
        try:
            doc = json.load(open(path))
            results, targets = doc["results"], doc["targets"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.stderr.write(f"memory_merge: {path}: not a suite's report ({e})\n")
            return 65
        for r in results:
            row = {k: r[k] for k in COLUMNS[:-1]}
            row["maxRSSKiB"] = r["peakResidentBytes"] // 1024
            rows.append(row)
        for t in targets:
            if t["name"] not in verdicts:
                verdicts[t["name"]] = []
                order.append(t["name"])
            if t["status"] != "not measured":
                verdicts[t["name"]].append(t)
    with open(argv[1], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(sorted(rows, key=lambda r: r["layers"]))  # stable: the processes' order within a size
    merged = []
    for name in order:
        found = verdicts[name]
        statuses = [t["status"] for t in found]
        status = ("not measured" if not found else "not met" if "not met" in statuses
                  else "undecided" if "undecided" in statuses else "met")
        merged.append({"name": name, "status": status, "measured": "; ".join(t["measured"] for t in found)})
    with open(argv[2], "w") as f:
        json.dump({"targets": merged}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
