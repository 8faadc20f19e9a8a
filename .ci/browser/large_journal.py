"""Writes a journal of N steps in the format a Fluxion Journal writes (version 2), for the viewer's load test.

A todo list that stays short (so that each line stays small), a filter, counts; every 50th step starts an
effect that dispatches a step of its own, some effects fail, some steps are queued by another, a few carry
an error. Times advance by a few milliseconds a step.

usage: large_journal.py STEPS FILE
"""

import datetime
import json
import random
import sys


def item_diff(old, new):
    """The diff lines of a list of items, as Fluxion's StateDiff writes them."""
    text = lambda item: f"[{'x' if item['isDone'] else ' '}] {item['title']}"
    lines = []
    for index in range(max(len(old), len(new))):
        if index >= len(new):
            lines.append(f"items[{index}]: - {text(old[index])}")
        elif index >= len(old):
            lines.append(f"items[{index}]: + {text(new[index])}")
        elif old[index] != new[index]:
            if old[index]["title"] != new[index]["title"]:
                lines.append(f'items[{index}].title: "{old[index]["title"]}" → "{new[index]["title"]}"')
            if old[index]["isDone"] != new[index]["isDone"]:
                lines.append(f"items[{index}].isDone: {str(old[index]['isDone']).lower()} → "
                             f"{str(new[index]['isDone']).lower()}")
    return lines


def main():
    steps, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(7)
    start = datetime.datetime(2026, 11, 25, 9, 0, 0, tzinfo=datetime.timezone.utc)
    clock = [0.0]

    def now(advance):
        clock[0] += advance
        stamp = start + datetime.timedelta(milliseconds=clock[0])
        return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"

    items, filter_, stats = [], "all", {"total": 0, "done": 0}
    seen = set()
    pending = []  # effects running: (the step at which it ends, the step that started it, how it ends)
    sequence = 0
    with open(path, "w") as out:
        def write(line):
            out.write(json.dumps(line, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n")

        write({"format": "fluxion-journal", "kind": "header", "time": now(0), "version": 2})

        def change(store, before, after, diff):
            entry = {"store": store, "after": after, "diff": diff}
            if store not in seen:
                seen.add(store)
                entry["before"] = before
            return entry

        while sequence < steps:
            sequence += 1
            line = {"kind": "action", "sequence": sequence, "time": now(rng.uniform(1, 9)), "replayable": True}
            for failed in [p for p in pending if p[0] == sequence and p[2] == "failed"]:
                pending.remove(failed)
                write({"kind": "effect", "sequence": failed[1], "time": now(0.5), "effect": {
                    "name": "import", "index": 0, "event": "failed",
                    "error": f"could not import batch-{failed[1]}.json: no such file"}})
            ending = [p for p in pending if p[0] == sequence]
            roll = rng.random()
            old_items, old_stats = [dict(i) for i in items], dict(stats)
            changes = []
            if ending:
                effect_of = ending[0][1]
                pending.remove(ending[0])
                title = f"Imported {sequence}"
                items.append({"title": title, "isDone": False})
                line["action"] = {"name": "importFinished", "payload": [{"title": title, "isDone": False}],
                                  "description": f"importFinished([[ ] {title}])"}
                line["cause"] = {"effect": "import", "step": effect_of}
            elif sequence % 50 == 0:
                line["action"] = {"name": "importTodos", "payload": f"batch-{sequence}.json",
                                  "description": f"importTodos(batch-{sequence}.json)"}
            elif roll < 0.45 or not items:
                title = f"Task {sequence} {rng.choice(['milk', 'dog', 'mail', 'bank', 'gym', 'tax'])}"
                items.append({"title": title, "isDone": False})
                line["action"] = {"name": "addTodo", "payload": title, "description": f"addTodo({title})"}
            elif roll < 0.75:
                number = rng.randrange(len(items)) + 1
                items[number - 1]["isDone"] = True
                line["action"] = {"name": "completeTodo", "payload": number, "description": f"completeTodo({number})"}
            elif roll < 0.9:
                items[:] = [i for i in items if not i["isDone"]]
                line["action"] = {"name": "clearCompleted", "payload": None, "description": "clearCompleted(())"}
            elif roll < 0.97:
                new = rng.choice(["all", "active", "completed"])
                line["action"] = {"name": "setFilter", "payload": new, "description": f"setFilter({new})"}
                line["cause"] = {"queued": max(1, sequence - 1)}
                if new != filter_:
                    changes.append(change("FilterStore", filter_, new, [f"state: {filter_} → {new}"]))
                    filter_ = new
            else:
                line["action"] = {"name": "completeTodo", "payload": 99, "description": "completeTodo(99)",
                                  "error": "there is no item 99"}
                line["replayable"] = False
            while len(items) > 6:
                items.pop(0)
            stats = {"total": len(items), "done": sum(i["isDone"] for i in items)}
            if items != old_items:
                diff = item_diff(old_items, items)
                changes.insert(0, change("TodoStore", {"items": old_items}, {"items": [dict(i) for i in items]}, diff))
            if stats != old_stats:
                diff = [f"{k}: {old_stats[k]} → {stats[k]}" for k in ("total", "done") if old_stats[k] != stats[k]]
                changes.append(change("StatsStore", old_stats, stats, diff))
            line["changes"] = changes
            write(line)
            if ending:
                write({"kind": "effect", "sequence": effect_of, "time": now(0.2),
                       "effect": {"name": "import", "index": 0, "event": "finished"}})
            if line["action"]["name"] == "importTodos":
                write({"kind": "effect", "sequence": sequence, "time": now(0.3),
                       "effect": {"name": "import", "index": 0, "event": "started"}})
                outcome = "finished" if rng.random() < 0.8 else "failed"
                pending.append((sequence + rng.randrange(2, 6), sequence, outcome))


if __name__ == "__main__":
    main()
