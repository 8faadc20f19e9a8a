#!/usr/bin/env python3
"""Counts the named functions from `dispatch` to an effect's task, in a debug build, with gdb.

usage: .ci/dispatch-hops.py [--check] [TEST_BINARY]   (after `swift build --build-tests`; not run by .ci/run: it
needs gdb, and a debug build)

It runs Tests/FluxionTests/DispatchDepthTests' effect test under gdb and takes the call stack where the
handler's request reaches the transaction (`Transaction.keep(effect:)`), where the effect's task is created
(`swift_task_create`) and where the effect's work begins (the test's marked line). The hops are Fluxion's
named functions on those stacks above `dispatch`, each counted once (an overload too); closures, thunks, the
standard library's and the runtime's functions are not hops. Prints them in path order, then their count; with
--check, exits with status 1 unless they are the "Hops (N):" list of Dispatcher+Turn.swift's header, in order.
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEST = ROOT / "Tests/FluxionTests/DispatchDepthTests.swift"


def marked_line(marker):
    for number, line in enumerate(TEST.read_text(encoding="utf-8").splitlines(), start=1):
        if marker in line:
            return number
    sys.exit(f"no line marked {marker!r} in {TEST}")


# The events on the way, in the order they happen, each a function (the prefix of its mangled name) or the
# test's marked line: admission decides, the handler's request is kept, the step commits, its effect is
# tracked, the effect's task is created, it executes the effect, the effect's work begins (on the task's thread).
EVENTS = [
    "$s7Fluxion9AdmissionO6decide",
    "$s7Fluxion11TransactionC4keep6effect",
    "$s7Fluxion11TransactionC3end4step",
    "$s7Fluxion10DispatcherC21trackRequestedEffects",
    "swift_task_create",
    "$s7Fluxion10DispatcherC7execute6effect",
    "work",
]


def function(binary, prefix):
    """The function whose mangled name begins with `prefix`: the shortest, which is no closure."""
    names = subprocess.run(["nm", str(binary)], capture_output=True, text=True).stdout.split()
    found = sorted((name for name in names if name.startswith(prefix)), key=len)
    if not found:
        sys.exit(f"no function named {prefix}… in {binary}: update EVENTS (and the header diagrams)")
    return found[0]


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--check"]
    binary = pathlib.Path(arguments[0]) if arguments else ROOT / ".build/debug/FluxionPackageTests.xctest"
    script = ROOT / ".build/dispatch-hops.gdb"
    work = marked_line("`.ci/dispatch-hops.py` stops here")
    lines = ["set pagination off", "set breakpoint pending on"]
    for number, event in enumerate(EVENTS, start=1):
        if event == "work":
            lines.append(f"break DispatchDepthTests.swift:{work}")
        elif event.startswith("$"):
            lines.append(f"break {function(binary, event)}")
        else:
            lines.append(f"break {event}")
        if number > 1:
            lines.append(f"disable {number}")
    # NB: each breakpoint is enabled once the one before it stopped: the test runner creates tasks too.
    lines.append("run")
    for number in range(1, len(EVENTS) + 1):
        lines += ["bt", f"disable {number}"]
        if number < len(EVENTS):
            lines += [f"enable {number + 1}", "continue"]
    lines += ["kill", "quit", ""]
    script.write_text("\n".join(lines))
    out = subprocess.run(
        ["gdb", "-q", "-batch", "-x", str(script), "--args", str(binary), "--testing-library", "swift-testing",
         "--filter", "anEffectAskedForByAHandlerRunsOnceItsActionCommits"],
        capture_output=True, text=True, timeout=900,
    ).stdout
    traces, current = [], None
    for line in out.splitlines():
        match = re.match(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)", line)
        if not match:
            continue
        if match.group(1) == "0":
            current = []
            traces.append(current)
        current.append(match.group(2))
    if len(traces) != len(EVENTS):
        sys.exit(f"expected {len(EVENTS)} stacks, one an event, got {len(traces)}:\n{out[-3000:]}")
    names = sorted({symbol for trace in traces for symbol in trace})
    demangled = dict(zip(names, subprocess.run(
        ["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True, text=True
    ).stdout.splitlines()))
    hops = []
    for index, trace in enumerate(traces):
        frames = list(reversed(trace))  # outermost first
        if index <= EVENTS.index("swift_task_create"):  # the dispatching thread: from `dispatch` on
            starts = [i for i, symbol in enumerate(frames) if re.match(r"^\$s7Fluxion10DispatcherC8dispatch", symbol)]
            if not starts:
                sys.exit("no `dispatch` frame on the dispatching thread's stack")
            frames = frames[starts[0]:]
        for symbol in frames:
            if not symbol.startswith("$s7Fluxion"):
                continue  # the runtime's, the standard library's, the test's
            text = demangled.get(symbol, symbol)
            if re.search(r"closure #|thunk|partial apply|\bspecialized\b", text):
                continue
            name = re.sub(r"\(.*", "", re.sub(r"^.*? in ", "", text)) if " in " in text.split("(")[0] else text
            name = re.sub(r"\(.*", "", name).replace("Fluxion.", "")
            name = re.sub(r"<.*?>", "", name).removeprefix("static ").removeprefix("Dispatcher.")
            if name not in hops:
                hops.append(name)
    for hop in hops:
        print(hop)
    print(f"{len(hops)} hops")
    if "--check" in sys.argv[1:]:
        text = (ROOT / "Sources/Fluxion/Dispatcher/Dispatcher+Turn.swift").read_text(encoding="utf-8")
        listed = re.search(r"Hops \((\d+)\):\s*(.*?)\.\s*\n", text, re.S).group(2)
        listed = [hop.strip() for hop in re.sub(r"\s*//\s*", " ", listed).split("·")]
        if listed != hops:
            sys.exit(f"the header of Dispatcher+Turn.swift lists other hops:\n{' · '.join(listed)}")


if __name__ == "__main__":
    main()
