#!/usr/bin/env python3
"""Checks that each function and type the dispatch diagrams name exists in Sources.

usage: .ci/diagram-names.py

The header comments of the files below draw the way of a dispatch. Each name in backticks there is a type
(`EffectStarts`), a function of a type (`Transaction.end`) or a function of `Dispatcher` (`transact`); each
must be declared in Sources/Fluxion: the type as a class, struct, enum, protocol or actor, the function in a
file that declares or extends its type. A "Hops (N):" list, the names separated by "·" up to a full stop, must
hold N names, each of which exists too. Exits with status 1, naming what it could not find.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources/Fluxion"
DIAGRAMS = ["Sources/Fluxion/Dispatcher/Dispatcher+Turn.swift", "Sources/Fluxion/Dispatcher/Transaction.swift"]


def header(path):
    """The comment lines a file begins with, without their slashes."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:])
    return "\n".join(lines)


def sources():
    return {path: path.read_text(encoding="utf-8") for path in SOURCES.rglob("*.swift")}


def declares_type(texts, name):
    pattern = re.compile(rf"\b(?:class|struct|enum|protocol|actor)\s+{re.escape(name)}\b")
    return any(pattern.search(text) for text in texts.values())


def declares_function(texts, owner, name):
    owner_pattern = re.compile(rf"\b(?:class|struct|enum|protocol|actor|extension)\s+{re.escape(owner)}\b")
    function = re.compile(rf"\bfunc\s+{re.escape(name)}\s*[(<]")
    return any(owner_pattern.search(text) and function.search(text) for text in texts.values())


def exists(texts, name):
    if re.fullmatch(r"[A-Z]\w*", name):
        return declares_type(texts, name)
    match = re.fullmatch(r"(?:([A-Z]\w*)\.)?([a-z]\w*)", name)
    if not match:
        return None  # not a function or a type: a path, a string
    owner, function = match.group(1) or "Dispatcher", match.group(2)
    return declares_function(texts, owner, function)


def main():
    texts = sources()
    missing = []
    for relative in DIAGRAMS:
        text = header(ROOT / relative)
        names = {name for name in re.findall(r"`([^`\n]+)`", text)}
        for hops in re.finditer(r"Hops \((\d+)\):\s*(.*?)\.\s*(?:\n|$)", text, re.S):
            listed = [re.sub(r"\s+", " ", hop).strip() for hop in hops.group(2).replace("\n", " ").split("·")]
            if len(listed) != int(hops.group(1)):
                missing.append(f"{relative}: the hop list says {hops.group(1)} hops and names {len(listed)}")
            names.update(listed)
        for name in sorted(names):
            found = exists(texts, name)
            if found is False:
                missing.append(f"{relative}: the diagram names `{name}`, which Sources/Fluxion does not declare")
    for line in missing:
        print(line, file=sys.stderr)
    if missing:
        sys.exit(1)
    print(f"every name the diagrams of {', '.join(DIAGRAMS)} use exists")


if __name__ == "__main__":
    main()
