#!/usr/bin/env python3
"""Folds `perf script` output (demangled) into one line per stack: `root;...;leaf count`."""
import collections
import re
import sys

stacks = collections.Counter()
frames = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        if frames:
            stacks[";".join(reversed(frames))] += 1
        frames = []
        continue
    if line.startswith((" ", "\t")):
        m = re.match(r"\s+[0-9a-f]+\s+(.*?)(\s+\(.*\))?$", line)
        if m:
            name = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1)).replace(";", ":")
            frames.append(name)
if frames:
    stacks[";".join(reversed(frames))] += 1
for stack, count in stacks.most_common():
    print(f"{stack} {count}")
