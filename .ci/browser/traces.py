"""Checks a performance trace that `todo --trace` wrote, then loads it in a headless Chromium.

usage:
  traces.py TRACE.json STORES_DIR ACTION_NAMES.swift [PAGE.html]
      STORES_DIR holds the todo example's stores (their `.on(.name …)` / `.route(.name, to: …)` tables) and
      ACTION_NAMES.swift the raw names of its actions: what says which handlers each action runs.
      PAGE is written beside the trace and loaded in the browser.

The trace must be Trace Event Format JSON (Perfetto, chrome://tracing): complete events ("ph": "X")
with a name, a category, times in microseconds, a process and a thread; on each thread the events
are well nested; and each action's event holds exactly one handler event per store that handles it
(one per store that ran, for an action that threw). Each check prints what it found; the first that
fails ends the run with status 1.
"""

import collections
import json
import os
import pathlib
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser, CheckFailed  # noqa: E402

passed = 0


def check(condition, what, detail=""):
    global passed
    if not condition:
        raise CheckFailed(f"{what}{': ' + str(detail) if detail else ''}")
    passed += 1
    print(f"  ok  {what}")


def handlers_by_action(stores_dir, names_file):
    """Which stores handle which raw action name, read from the stores' handler tables."""
    raw = dict(re.findall(r'static var (\w+): Self \{ "([^"]+)" \}', pathlib.Path(names_file).read_text()))
    table = collections.defaultdict(set)
    for path in pathlib.Path(stores_dir).glob("*.swift"):
        source = path.read_text()
        store = re.search(r"class (\w+): Store<", source)
        for name in re.findall(r"\.(?:on|route)\(\.(\w+)", source):
            table[raw.get(name, name)].add(store.group(1))
    # A computed store (`register(S.self, computedFrom: A.self, …)` in the app's wiring, a folder up) runs a
    # handler for every action its sources handle.
    for wiring in pathlib.Path(stores_dir).parent.glob("*.swift"):
        for computed, sources in re.findall(r"register\((\w+)\.self, computedFrom: ([\w.,\s]+?)\)", wiring.read_text()):
            for source in re.findall(r"(\w+)\.self", sources):
                for stores in list(table.values()):
                    if source in stores:
                        stores.add(computed)
    return table


def ns(value):
    """Microseconds with three decimals, as integer nanoseconds."""
    return round(value * 1000)


def check_trace(path, stores_dir, names_file):
    with open(path, encoding="utf-8") as file:
        root = json.load(file)
    check(isinstance(root, dict) and isinstance(root.get("traceEvents"), list), "it is Trace Event JSON")
    events = root["traceEvents"]
    complete = [e for e in events if e.get("ph") == "X"]
    print(f"trace: {path} ({len(complete)} complete events)")
    fields = {"name": str, "cat": str, "ts": (int, float), "dur": (int, float), "pid": int, "tid": int, "args": dict}
    bad = [e for e in complete if any(not isinstance(e.get(k), t) for k, t in fields.items())
           or e["ts"] < 0 or e["dur"] < 0]
    check(complete and not bad, "every complete event has a name, a category, ts, dur, pid, tid and args", bad[:3])
    check(all(e.get("ph") in ("X", "M") for e in events), "the others are metadata (track names)")
    named = {e["tid"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    check({e["tid"] for e in complete} <= named, "every track is named")

    # Well nested: on one track, two events are apart or one holds the other.
    tracks = collections.defaultdict(list)
    for event in complete:
        tracks[event["tid"]].append((ns(event["ts"]), ns(event["ts"]) + ns(event["dur"]), event))
    for tid, spans in tracks.items():
        spans.sort(key=lambda s: (s[0], -s[1]))
        open_spans = []
        for start, end, event in spans:
            while open_spans and open_spans[-1][1] <= start and not (
                    start >= open_spans[-1][0] and end <= open_spans[-1][1]):
                open_spans.pop()
            if open_spans and not (start >= open_spans[-1][0] and end <= open_spans[-1][1]):
                raise CheckFailed(f"track {tid}: {event} overlaps {open_spans[-1][2]} without nesting")
            open_spans.append((start, end, event))
    check(True, f"the events of each of the {len(tracks)} tracks are well nested")

    # One handler event per handler run, inside its action's event.
    table = handlers_by_action(stores_dir, names_file)
    check(table.get("addTodo") == {"TodoStore", "StatsStore", "HistoryStore"}, "the handler tables read",
          dict(table))
    actions = [e for e in complete if e["cat"] == "action"]
    handler_count = 0
    for action in actions:
        start, end = ns(action["ts"]), ns(action["ts"]) + ns(action["dur"])
        inside = [e["name"] for e in complete if e["cat"] == "handler" and e["tid"] == action["tid"]
                  and e["args"].get("action") == action["name"]
                  and start <= ns(e["ts"]) and ns(e["ts"]) + ns(e["dur"]) <= end]
        expected = table.get(action["name"], set())
        runs = collections.Counter(inside)
        if action["args"].get("outcome") == "threw":
            ok = set(runs) <= expected and all(n == 1 for n in runs.values())
        else:
            ok = sorted(inside) == sorted(expected)
        if not ok:
            raise CheckFailed(f"action {action['name']} at {action['ts']} µs holds handlers {inside}, not {expected}")
        handler_count += len(inside)
    handlers = [e for e in complete if e["cat"] == "handler"]
    check(handler_count == len(handlers),
          f"each of the {len(actions)} actions holds one handler event per store that ran ({len(handlers)})",
          f"{handler_count} inside actions")
    kinds = collections.Counter(e["cat"] for e in complete)
    print(f"  ({dict(sorted(kinds.items()))})")
    check(kinds["commit"] >= 1 and kinds["observer"] >= 1, "it has commits and observer calls too")
    if any(a["name"] == "importTodos" for a in actions):
        check(kinds["effect"] >= 1, "and the import's effect, on a track of its own",
              [e for e in complete if e["cat"] == "effect"])
    return len(complete), len(handlers)


PAGE = """<!doctype html>
<meta charset="utf-8">
<title>trace check</title>
<script type="application/json" id="trace">%s</script>
<script>
  const trace = JSON.parse(document.getElementById("trace").textContent);
  const complete = trace.traceEvents.filter((e) => e.ph === "X");
  document.documentElement.dataset.events = complete.length;
  document.documentElement.dataset.handlers = complete.filter((e) => e.cat === "handler").length;
  document.documentElement.dataset.state = "ready";
</script>
"""


def check_in_browser(path, page, events, handlers):
    text = pathlib.Path(path).read_text(encoding="utf-8")
    # NB: `</` cannot end the script element early; JSON reads `<\\/` as `</`.
    pathlib.Path(page).write_text(PAGE % text.replace("</", "<\\/"), encoding="utf-8")
    with Browser() as browser:
        browser.navigate(pathlib.Path(page).resolve().as_uri(), 'document.documentElement.dataset.state === "ready"')
        shown = browser.evaluate("[document.documentElement.dataset.events, document.documentElement.dataset.handlers]")
        check(shown == [str(events), str(handlers)], "the browser parses it to the same events and handlers", shown)
        check(not browser.errors, "no console errors", browser.errors)


def main():
    started = time.monotonic()
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    try:
        events, handlers = check_trace(sys.argv[1], sys.argv[2], sys.argv[3])
        if len(sys.argv) > 4:
            check_in_browser(sys.argv[1], sys.argv[4], events, handlers)
    except CheckFailed as failure:
        print(f"FAILED {failure}")
        print(f"trace: {passed} passed, 1 failed")
        sys.exit(1)
    print(f"({time.monotonic() - started:.1f} s)")
    print(f"trace: {passed} passed, 0 failed")


if __name__ == "__main__":
    main()
