"""Checks that a module's public API is documented, from its symbol graph.

usage: doc-comments.py SYMBOL_GRAPH_DIR MODULE [--examples]

Lists each public symbol declared in MODULE (not one it inherits or the compiler synthesizes) that has no `///`
comment; with --examples, also each type, initializer, method, function or operator whose comment has no
```swift example. Exits with status 1 if it lists any.
"""

import json
import pathlib
import sys

CALLABLE = {"class", "struct", "enum", "protocol", "actor", "init", "method", "type.method", "func", "func.op",
            "subscript", "type.subscript"}


def declared(graph_dir, module):
    """The public symbols MODULE declares: its own graph and its extensions of other modules' types."""
    paths = [graph_dir / f"{module}.symbols.json", *sorted(graph_dir.glob(f"{module}@*.symbols.json"))]
    for path in paths:
        for symbol in json.loads(path.read_text(encoding="utf-8"))["symbols"]:
            if symbol["accessLevel"] not in ("public", "open") or "location" not in symbol:
                continue  # inherited from a protocol, synthesized, or not public
            yield symbol


def main():
    graph_dir, module = pathlib.Path(sys.argv[1]), sys.argv[2]
    examples = "--examples" in sys.argv[3:]
    symbols = list(declared(graph_dir, module))
    missing = []
    for symbol in symbols:
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        name = "/".join(symbol["pathComponents"])
        where = f'{symbol["location"]["uri"].rsplit("/", 1)[-1]}:{symbol["location"]["position"]["line"] + 1}'
        lines = [line["text"].strip() for line in symbol.get("docComment", {}).get("lines", [])]
        if not any(lines):
            missing.append(f"{where}: {kind} {name} has no doc comment")
        elif examples and kind in CALLABLE and "```swift" not in lines:
            missing.append(f"{where}: {kind} {name}'s doc comment has no ```swift example")
    for line in missing:
        print(line)
    what = "doc comments and examples" if examples else "doc comments"
    print(f"{module}: {len(symbols)} public symbols, {len(symbols) - len(missing)} with {what}, {len(missing)} without")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
