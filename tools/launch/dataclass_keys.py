#!/usr/bin/env python3
"""Lists the keys a Python config class defines at a git tag, for the launch-flag lists (src/data/launch-flags.ts).

Usage:
  python3 tools/launch/dataclass_keys.py <git dir> <tag> <path> <root class> [--nested]
Reads the file with `git show` and `ast` (nothing is imported or run). Prints JSON
[[section, key, line], ...]: each annotated field of the root class; with --nested, a field whose
annotation names another class of the same file is a TOML section (dotted) and its fields are listed
under it (torchtitan's JobConfig). A pydantic `Field(..., alias="x")` adds "x" as a second key.
"""
import ast
import json
import subprocess
import sys

repo, tag, path, root = sys.argv[1:5]
nested = "--nested" in sys.argv
src = subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True).stdout
tree = ast.parse(src)
classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
out = []


def walk(cls_name: str, section: str) -> None:
    for n in classes[cls_name].body:
        if not (isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)):
            continue
        ann = ast.unparse(n.annotation)
        name = n.target.id
        if nested and ann in classes:
            walk(ann, f"{section}.{name}" if section else name)
            continue
        out.append([section, name, n.lineno])
        if isinstance(n.value, ast.Call):
            for kw in n.value.keywords:
                if kw.arg == "alias" and isinstance(kw.value, ast.Constant):
                    out.append([section, kw.value.value, n.lineno])


walk(root, "")
print(json.dumps(out))
