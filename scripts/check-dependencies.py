#!/usr/bin/env python3
"""Fails when a target imports a module Package.swift does not declare for it, or declares one it
never imports (a dependency that builds only because an import leaks through another target).

Reads `swift package describe --type json` (the declared graph) and every `import X` in each
target's Swift sources (the used graph); toolchain modules (Swift, Foundation, Glibc, Testing,
Synchronization, Dispatch...) are not package targets and are ignored. Conditional imports
(inside `#if`) count as used.
    python3 scripts/check-dependencies.py [PACKAGE_DIR]
"""
import json
import os
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
root = os.path.abspath(root)
described = subprocess.run(
    ["swift", "package", "describe", "--type", "json"], cwd=root, check=True, capture_output=True, text=True
).stdout
package = json.loads(described[described.index("{"):])
targets = {t["name"]: t for t in package["targets"]}
import_line = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)

# Modules of this package, and those of the packages it depends on (as products).
known = set(targets)
for t in targets.values():
    known |= set(t.get("product_dependencies") or [])

problems = []
for name, target in sorted(targets.items()):
    if target.get("type") == "system-target" or "path" not in target:
        continue
    declared = set(target.get("target_dependencies") or []) | set(target.get("product_dependencies") or [])
    used = set()
    for folder, _, files in os.walk(os.path.join(root, target["path"])):
        for f in files:
            if f.endswith(".swift"):
                with open(os.path.join(folder, f), encoding="utf-8") as source:
                    used |= set(import_line.findall(source.read()))
    used &= known  # package modules only, not the toolchain's
    used.discard(name)
    for module in sorted(used - declared):
        problems.append(f"{name} imports {module} without declaring it in Package.swift")
    for module in sorted(declared - used):
        problems.append(f"{name} declares {module} but never imports it")
for p in problems:
    print(f"check-dependencies: {p}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"dependencies: {len(targets)} targets, every import declared and every declaration imported")
