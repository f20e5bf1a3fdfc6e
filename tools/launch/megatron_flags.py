#!/usr/bin/env python3
"""Lists every command-line flag that Megatron-LM's megatron/training/arguments.py defines at a tag.

Usage: python3 tools/launch/megatron_flags.py <Megatron-LM git dir> <tag>

Reads the sources with `git show` and the standard library's `ast` (no torch, nothing imported
from Megatron-LM). Two kinds of flags are collected:
- literal: each "--name" string passed to an `add_argument(...)` call in arguments.py, with its line;
- generated: each flag that `ArgumentGroupFactory(Config, exclude=[...])` derives from a dataclass,
  following that class's naming rule in megatron/training/argument_utils.py at the same tag: "--"
  plus the field name with "_" turned into "-"; a bool field whose default is not False becomes the
  pair "--no-name" and "--disable-name"; an "arg_names" entry in the field's argparse metadata
  replaces both; excluded fields and fields with init=False are skipped; base classes count.
Prints JSON: {"literal": [[flag, line], ...], "generated": [[flag, class, path, line], ...]}.
"""
import ast
import json
import subprocess
import sys

repo, tag = sys.argv[1], sys.argv[2]


def show(path: str) -> str:
    return subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True).stdout


def grep_class(name: str) -> str:
    out = subprocess.run(
        ["git", "-C", repo, "grep", "-l", f"^class {name}\\b", tag, "--", "megatron"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    paths = sorted({line.split(":", 1)[1] for line in out})
    if len(paths) != 1:
        raise SystemExit(f"class {name}: found in {paths}")
    return paths[0]


ARGS = "megatron/training/arguments.py"
args_tree = ast.parse(show(ARGS))

literal = []
for node in ast.walk(args_tree):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
        for a in node.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--"):
                literal.append([a.value, a.lineno])


def list_value(node, scope):
    """A list of strings given literally or through a name assigned a list in the same function."""
    if isinstance(node, ast.List):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    if isinstance(node, ast.Name):
        for n in ast.walk(scope):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets):
                return list_value(n.value, scope)
    raise SystemExit(f"cannot read exclude list at line {node.lineno}")


factories = []
for fn in ast.walk(args_tree):
    if not isinstance(fn, ast.FunctionDef):
        continue
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ArgumentGroupFactory":
            cls = node.args[0].id
            exclude = []
            for kw in node.keywords:
                if kw.arg == "exclude":
                    exclude = list_value(kw.value, fn)
            factories.append((cls, set(exclude)))


def class_fields(name: str):
    """(field name, annotation node, default node, path, line) of a dataclass and its bases, bases first."""
    path = grep_class(name)
    tree = ast.parse(show(path))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    out = []
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id not in ("object",):
            out.extend(class_fields(base.id))
    for n in cls.body:
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            ann = ast.unparse(n.annotation)
            if ann.startswith("ClassVar"):
                continue
            out = [f for f in out if f[0] != n.target.id]
            out.append((n.target.id, n.annotation, n.value, path, n.lineno))
    return out


def is_bool(ann) -> bool:
    text = ast.unparse(ann).replace(" ", "")
    return text in ("bool", "Optional[bool]", "bool|None", "typing.Optional[bool]")


def default_of(value):
    """(known, default) of a field's default: a constant, or field(default=...); a factory is not False."""
    if value is None:
        return True, "MISSING"
    if isinstance(value, ast.Constant):
        return True, value.value
    if isinstance(value, ast.Call) and ast.unparse(value.func) in ("field", "dataclasses.field"):
        for kw in value.keywords:
            if kw.arg == "default":
                return default_of(kw.value)
        return True, "MISSING"
    return True, "EXPR"


def field_meta(value):
    """(init flag, arg_names from argparse_meta or None)."""
    init, names = True, None
    if isinstance(value, ast.Call) and ast.unparse(value.func) in ("field", "dataclasses.field"):
        for kw in value.keywords:
            if kw.arg == "init" and isinstance(kw.value, ast.Constant):
                init = bool(kw.value.value)
            if kw.arg == "metadata" and isinstance(kw.value, ast.Dict):
                for k, v in zip(kw.value.keys, kw.value.values):
                    if isinstance(k, ast.Constant) and k.value == "argparse_meta" and isinstance(v, ast.Dict):
                        for k2, v2 in zip(v.keys, v.values):
                            if isinstance(k2, ast.Constant) and k2.value == "arg_names":
                                names = [e.value for e in v2.elts]
    return init, names


generated = []
for cls, exclude in factories:
    for name, ann, value, path, line in class_fields(cls):
        if name in exclude:
            continue
        init, meta_names = field_meta(value)
        if not init:
            continue
        flag = "--" + name.replace("_", "-")
        names = [flag]
        if is_bool(ann):
            _, default = default_of(value)
            if default is not False:
                names = ["--no-" + name.replace("_", "-"), "--disable-" + name.replace("_", "-")]
        if meta_names is not None:
            names = meta_names
        for n in names:
            generated.append([n, cls, path, line])

print(json.dumps({"literal": literal, "generated": generated}))
