"""Checks of the journal viewer and the docs site in a real (headless) Chromium.

usage:
  checks.py viewer SESSION.jsonl PAGE.html EMPTY.html [SCREENSHOT.png]
      PAGE is `todo history SESSION --html PAGE`; EMPTY the page of a journal with no step.
  checks.py large PAGE.html
      PAGE holds a journal of 100,000 steps: it loads, scrolls and searches in time; the times are logged.
  checks.py docs SITE GRAPHS MODULE... [--every-symbol MODULE]...
      SITE is the docs site (`.ci/docs-site`), GRAPHS the folder of its modules' symbol graphs, one folder per
      module (.build-docs/sg-by-module); each MODULE's catalog is Sources/MODULE/MODULE.docc. The landing page
      links each module; each module's articles are reachable; each public symbol of a module named with
      --every-symbol has a page that shows its doc comment and its example.

Each check prints what it found; the first that fails ends the run with status 1.
"""

import json
import os
import pathlib
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser, CheckFailed  # noqa: E402
from docs_site import check_docs  # noqa: E402

READY = 'document.body.dataset.state === "ready"'
passed = 0


def check(condition, what, detail=""):
    global passed
    if not condition:
        raise CheckFailed(f"{what}{': ' + str(detail) if detail else ''}")
    passed += 1
    print(f"  ok  {what}")


def rows_shown(browser):
    """The rows in the list, as the page shows them: their step number and action name."""
    return browser.evaluate("""[...document.querySelectorAll("#rows .row")]
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
        .map((r) => ({row: Number(r.dataset.row), seq: r.querySelector(".seq").textContent,
                      name: r.querySelector(".name b").textContent}))""")


def steps_of(path):
    """The journal's rows: its steps (action and resume lines) and its refusals, in order."""
    with open(path, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    return [line for line in lines if line.get("kind") in ("action", "resume", "refusal")]


def check_viewer(session, page, empty, screenshot):
    steps = steps_of(session)
    with Browser() as browser:
        browser.navigate(pathlib.Path(page).resolve().as_uri(), READY)
        print(f"viewer: {page} ({len(steps)} steps)")
        rows = rows_shown(browser)
        refused = [i for i, s in enumerate(steps) if s["kind"] == "refusal"]
        check(len(rows) == len(steps), f"the list has one row per step and refusal ({len(steps)})", len(rows))
        count = f"{len(steps) - len(refused)} steps" + (f" · {len(refused)} refused" if refused else "")
        check(browser.evaluate('document.getElementById("count").textContent') == count, f"the count says so ({count})")
        banner = browser.evaluate('document.getElementById("banner").textContent')
        check(not banner.strip(), "every line is read: the banner names no problem", banner)
        # Times to the microsecond: the effects are drawn on a time axis, not in step order.
        check(all(re.search(r"\.\d{6}Z$", s.get("time", "")) for s in steps), "the file has times to the microsecond")
        mode = browser.evaluate('document.getElementById("axis-mode").textContent')
        check(mode == "axis: time", "so the axis is a time axis", mode)

        # No action name is cut, however narrow the list: the payload after it and the chips give way.
        browser.evaluate('document.querySelector("main").style.gridTemplateColumns = "340px minmax(0, 1fr)"')
        cut = browser.evaluate("""[...document.querySelectorAll("#rows .row")].filter((r) => {
            const b = r.querySelector(".name b").getBoundingClientRect();
            const name = r.querySelector(".name").getBoundingClientRect();
            const tags = r.querySelector(".tags").getBoundingClientRect();
            return b.right > name.right + 0.5 || (tags.width > 0 && b.right > tags.left + 0.5);
        }).map((r) => r.querySelector(".name b").textContent)""")
        check(not cut, "no action name is cut, in the narrowest list", cut)
        browser.evaluate('document.querySelector("main").style.gridTemplateColumns = ""')

        # Clicking step k shows its diff.
        k = max(i for i, s in enumerate(steps) if s["kind"] == "action" and s["action"]["name"] == "completeTodo")
        browser.click(f'#rows .row[data-row="{k}"]')
        browser.wait_for(f'document.querySelector("#rows .row.selected")?.dataset.row === "{k}"', 5)
        title = browser.evaluate('document.querySelector("#detail h1").textContent')
        check(title == f"#{steps[k]['sequence']}{steps[k]['action']['name']}", f"clicking row {k} selects it", title)
        shown = browser.evaluate("""Object.fromEntries([...document.querySelectorAll("#detail .change")]
            .map((c) => [c.dataset.store, [...c.querySelectorAll(".diff > div")].map((d) => d.textContent)]))""")
        expected = {c["store"]: c["diff"] for c in steps[k]["changes"]}
        check(shown == expected, f"it shows the diff of each store step {k} changed", f"{shown} != {expected}")
        states = browser.evaluate('[...document.querySelectorAll("#detail details.store")].map((d) => d.dataset.store)')
        stores = {c["store"] for s in steps for c in s.get("changes", [])}
        check(set(states) == stores, "and the state of every store", states)

        # The keyboard: back in time, then to the step a step's cause names.
        browser.press("ArrowLeft", key_code=37)
        check(browser.evaluate('document.querySelector("#rows .row.selected")?.dataset.row') == str(k - 1),
              "← steps back to the step before")
        caused = next((i for i, s in enumerate(steps) if s.get("cause")), None)
        if caused is not None:
            browser.click(f'#rows .row[data-row="{caused}"]')
            browser.press("c", code="KeyC", key_code=67)
            cause = steps[caused]["cause"]
            target = cause.get("step", cause.get("queued"))
            selected = browser.evaluate('document.querySelector("#detail h1 .seqno").textContent')
            check(selected == f"#{target}", f"c goes from step {caused + 1} to its cause, #{target}", selected)

        # Each refusal has a row of its own, marked, which says what refused it; the refused filter shows them.
        check(len(refused) == 2, "the session has two refused actions", refused)
        marked = browser.evaluate('[...document.querySelectorAll("#rows .row.refused")].map((r) => '
                                  'Number(r.dataset.row)).sort((a, b) => a - b)')
        check(marked == refused and all(rows[i]["seq"] == "✗" for i in refused),
              f"the rows of the refusals ({refused}) are marked ✗, and no other", marked)
        browser.click(f'#rows .row[data-row="{refused[-1]}"]')
        callout = browser.evaluate('[...document.querySelectorAll("#detail .callout.error")].map((c) => '
                                   'c.textContent).join(" ")')
        error = steps[refused[-1]]["refusal"]["error"]
        check(f"Refused (thrown): {error}" in callout, "its detail says it was refused, and with what error", callout)
        browser.click("#refused-only")
        check([r["row"] for r in rows_shown(browser)] == refused, "the refused filter shows the refusals alone",
              rows_shown(browser))
        browser.click("#refused-only")

        # A filter narrows the list.
        adds = [i for i, s in enumerate(steps) if s.get("action", {}).get("name") == "addTodo"]
        browser.evaluate("""(() => { const s = document.getElementById("action-filter");
            s.value = "addTodo"; s.dispatchEvent(new Event("change")); })()""")
        rows = rows_shown(browser)
        check([r["row"] for r in rows] == adds, f"the action filter shows the {len(adds)} addTodo steps alone",
              rows)
        browser.evaluate("""(() => { const s = document.getElementById("action-filter");
            s.value = ""; s.dispatchEvent(new Event("change")); })()""")
        store = "FilterStore"
        changing = [i for i, s in enumerate(steps) if any(c["store"] == store for c in s.get("changes", []))]
        browser.evaluate(f"""(() => {{ const s = document.getElementById("store-filter");
            s.value = [...s.options].find((o) => o.text.startsWith("{store} ")).value;
            s.dispatchEvent(new Event("change")); }})()""")
        rows = rows_shown(browser)
        check([r["row"] for r in rows] == changing, f"the store filter shows the {len(changing)} steps that changed "
              f"{store}", rows)
        browser.evaluate("""(() => { const s = document.getElementById("store-filter");
            s.value = ""; s.dispatchEvent(new Event("change")); })()""")

        # Search finds a payload.
        needle = next(s["action"]["payload"] for s in steps
                      if isinstance(s.get("action", {}).get("payload"), str) and s["action"]["name"] == "addTodo")
        with_it = [i for i, s in enumerate(steps) if s.get("action", {}).get("payload") == needle]
        browser.click("#search")
        browser.type_text(needle)
        browser.wait_for('document.getElementById("count").textContent.includes(" of ")', 5)
        rows = [r["row"] for r in rows_shown(browser)]
        check(set(with_it) <= set(rows) and len(rows) < len(steps),
              f'searching "{needle}" lists the steps with it as payload ({with_it}) among fewer', rows)
        check(browser.evaluate('document.querySelector(`#rows .row[data-row="${%d}"] mark`)?.textContent'
                               % with_it[0]) == needle, "and marks it there")
        browser.press("Escape", key_code=27)
        check(len(rows_shown(browser)) == len(steps), "Esc clears the search")
        browser.click(f'#rows .row[data-row="{k}"]')
        browser.click("#detail .change .diff .path")
        path = browser.evaluate('document.getElementById("search").value')
        changed = [i for i, s in enumerate(steps) if any(line.startswith(path + ":")
                                                         for c in s.get("changes", []) for line in c["diff"])]
        rows = [r["row"] for r in rows_shown(browser)]
        check(k in rows and set(changed) <= set(rows), f"a path in a diff ({path}) lists the steps that changed it",
              rows)
        browser.press("Escape", key_code=27)

        # The page opens a journal the user picks.
        picker = browser.send("Runtime.evaluate", {"expression": 'document.getElementById("picker")'},
                              session=True)["result"]["objectId"]
        browser.send("DOM.enable", session=True)
        browser.evaluate('document.body.dataset.state = "picking"')
        browser.send("DOM.setFileInputFiles", {"files": [os.path.abspath(session)], "objectId": picker},
                     session=True)
        browser.wait_for(READY, 10)
        check(len(rows_shown(browser)) == len(steps) and browser.evaluate(
            'document.getElementById("file").textContent') == os.path.basename(session),
              "Open journal… reads the file picked")

        if screenshot:
            # The step an effect dispatched: its cause, its diff, the states; in light and dark.
            shown = next((i for i, s in enumerate(steps) if s.get("cause", {}).get("effect")), k)
            browser.click(f'#rows .row[data-row="{shown}"]')
            browser.screenshot(screenshot)
            dark = screenshot.replace(".png", "~dark.png")
            browser.send("Emulation.setEmulatedMedia",
                         {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}, session=True)
            browser.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            browser.screenshot(dark)
            print(f"  saved {screenshot} and {dark}")
        check(not browser.errors, "no console errors", browser.errors)

        browser.navigate(pathlib.Path(empty).resolve().as_uri(), READY)
        check(browser.evaluate('document.querySelector("#detail h1")?.textContent') == "No steps recorded"
              and not rows_shown(browser), "a journal with no step shows that it has none")
        check(not browser.errors, "no console errors there either", browser.errors)


def check_large(page):
    with Browser() as browser:
        started = time.monotonic()
        browser.navigate(pathlib.Path(page).resolve().as_uri(), READY, timeout=90)
        loaded = time.monotonic() - started
        script_ms = int(browser.evaluate("document.body.dataset.loadMs"))
        size = os.path.getsize(page) / 1e6
        print(f"large journal: {page} ({size:.0f} MB) loaded in {loaded:.2f} s "
              f"(of which reading the lines {script_ms / 1000:.2f} s)")
        count = browser.evaluate('document.getElementById("count").textContent')
        check(count == "100,000 steps", "it holds 100,000 steps", count)
        check(loaded < 30, "it loads in under 30 s", f"{loaded:.1f} s")
        frames = browser.evaluate("""(async () => {
            const list = document.getElementById("list");
            const times = [];
            let wrong = 0;
            for (let k = 0; k <= 60; k++) {
              const t = performance.now();
              list.scrollTop = (k % 2 ? k / 60 : 1 - k / 60) * (list.scrollHeight - list.clientHeight);
              await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
              times.push(performance.now() - t);
              const first = Math.floor(list.scrollTop / 26);
              const row = [...document.querySelectorAll("#rows .row")].find((r) => Number(r.dataset.row) === first);
              if (!row) wrong++;
            }
            return {max: Math.max(...times), mean: times.reduce((a, b) => a + b) / times.length, wrong,
                    rows: document.querySelectorAll("#rows .row").length};
        })()""")
        print(f"  scrolling: {frames['mean']:.1f} ms a jump on average, {frames['max']:.1f} ms at most, "
              f"{frames['rows']} rows in the page")
        check(frames["wrong"] == 0, "every jump shows the rows in sight", frames)
        check(frames["rows"] < 200, "only the rows in sight are in the page", frames["rows"])
        check(frames["max"] < 1000, "no jump takes a second", f"{frames['max']:.0f} ms")
        started = time.monotonic()
        browser.press("End", key_code=35)
        browser.wait_for('document.querySelector("#detail h1 .seqno")?.textContent === "#100000"', 10)
        print(f"  End to the last step: {time.monotonic() - started:.2f} s")
        started = time.monotonic()
        browser.click("#search")
        browser.type_text("Task 99")
        browser.wait_for('document.getElementById("count").textContent.includes(" of 100,000")', 20)
        found = browser.evaluate('document.getElementById("count").textContent')
        print(f"  search over 100,000 steps: {time.monotonic() - started:.2f} s ({found})")
        check(not browser.errors, "no console errors", browser.errors)


def main():
    started = time.monotonic()
    command, arguments = sys.argv[1], sys.argv[2:]
    try:
        if command == "viewer":
            check_viewer(arguments[0], arguments[1], arguments[2], arguments[3] if len(arguments) > 3 else None)
        elif command == "large":
            check_large(arguments[0])
        elif command == "docs":
            every_symbol = [m for flag, m in zip(arguments, arguments[1:]) if flag == "--every-symbol"]
            modules = [m for m in arguments[2:] if m != "--every-symbol" and m not in every_symbol] + every_symbol
            check_docs(arguments[0], arguments[1], sorted(set(modules), key=modules.index), every_symbol, check)
        else:
            raise SystemExit(__doc__)
    except CheckFailed as failure:
        print(f"FAILED {failure}")
        print(f"{command}: {passed} passed, 1 failed")
        sys.exit(1)
    print(f"({time.monotonic() - started:.1f} s)")
    print(f"{command}: {passed} passed, 0 failed")


if __name__ == "__main__":
    main()
