#!/usr/bin/env python3
"""Checks docs/architecture.md against the code: its module table names every target of
Package.swift (and nothing else), and its PresentationFrame column table lists exactly the
frame's public columns with their element types. Exit 1 naming each difference."""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
doc = open(os.path.join(root, "docs/architecture.md")).read()
package = open(os.path.join(root, "Package.swift")).read()
frame = open(os.path.join(root, "Sources/Presentation/Frame/PresentationFrame.swift")).read()
problems = []

# Modules: every target (tests excepted) in the first column of the module table.
targets = set(re.findall(r'\.(?:target|executableTarget|systemLibrary)\(\s*name: "([^"]+)"', package))
table = doc[doc.index("| module | concept |"):]
table = table[: table.index("\n\n")]
documented = set()
for line in table.splitlines()[2:]:
    first = line.split("|")[1]
    documented |= set(re.findall(r"`([^`/]+)`", first))
documented.discard("Peers")
for t in sorted(targets - documented):
    problems.append(f"module table: target {t} is not described")
for m in sorted(documented - targets):
    problems.append(f"module table: {m} is not a target of Package.swift")

# Columns: `@inlinable public var NAME: Span<TYPE>` in the frame.
columns = dict(re.findall(r"public var (\w+): Span<(\w+)>", frame))
table = doc[doc.index("| column | type | meaning |"):]
table = table[: table.index("\n\n")]
listed = {}
for line in table.splitlines()[2:]:
    cells = line.split("|")
    for name in re.findall(r"`(\w+)`", cells[1]):
        listed[name] = re.findall(r"`(\w+)`", cells[2])[0]
for name in sorted(set(columns) - set(listed)):
    problems.append(f"column table: {name} ({columns[name]}) is not listed")
for name in sorted(set(listed) - set(columns)):
    problems.append(f"column table: {name} is not a column of PresentationFrame")
for name in sorted(set(listed) & set(columns)):
    if listed[name] != columns[name]:
        problems.append(f"column table: {name} is {columns[name]} in the code, {listed[name]} in the doc")

# Flags: every static flag named in the table's flags row.
flags = re.findall(r"public static let (\w+) = Flags\(", frame)
row = next((l for l in table.splitlines() if l.startswith("| `flags`")), "")
for f in flags:
    if f not in row:
        problems.append(f"column table: flag {f} is not named")

for p in problems:
    print("check-architecture: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"architecture: {len(targets)} targets and {len(columns)} frame columns as documented")
