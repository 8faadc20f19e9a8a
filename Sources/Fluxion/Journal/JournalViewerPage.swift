// The journal viewer: one HTML page with its styles and script inline, and a journal's lines embedded.
//
// The page asks for nothing over the network (its Content-Security-Policy forbids it), so that it works from
// `file://` and offline. Its script reads the embedded lines from `<script id="journal">`, and a file the user
// opens, the same way: JSON Lines as a `Journal` writes them.

import Foundation

enum JournalViewerPage {
    /// What every page holds in its head: writing a page replaces only a file that holds it.
    static let generatorMark = #"<meta name="generator" content="Fluxion journal viewer">"#

    /// The page with `journal`, a journal file's text, embedded, titled `name`.
    static func html(embedding journal: Data, name: String) -> String {
        // NB: in JSON text `<` stands only inside strings, where `\u003c` reads the same: no `</script>` or
        // `<!--` is left to end the element early, whatever the payloads hold.
        let lines = String(decoding: journal, as: UTF8.self).replacingOccurrences(of: "<", with: #"\u003c"#)
        let name = escapingHTML(name)
        let parts = template.components(separatedBy: "{{JOURNAL}}").map { part in
            part.replacingOccurrences(of: "{{TITLE}}", with: name).replacingOccurrences(of: "{{NAME}}", with: name)
        }
        return parts.joined(separator: lines)
    }

    /// `text` as HTML text or an attribute's value.
    static func escapingHTML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The page: `{{TITLE}}` and `{{NAME}}` stand for the journal's name, escaped for HTML, and `{{JOURNAL}}`
    /// for its lines, escaped for a script element.
    static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy"
          content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
        <meta name="generator" content="Fluxion journal viewer">
        <link rel="icon" href="data:,">
        <title>{{TITLE}} · Fluxion journal</title>
        <style>
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --panel: #f5f6f8; --line: #e1e4e9; --text: #1c2028; --dim: #687182; --faint: #9aa2b1;
          --accent: #2458d3; --sel: #dce7ff; --hover: #eef1f6; --add: #0b7a3b; --add-bg: #e3f5ea;
          --del: #b42318; --del-bg: #fde9e7; --warn: #a44c00; --warn-bg: #fff3e0; --str: #0b7a3b; --num: #1f55c0;
          --kw: #8a3ab9; --key: #7a4a00;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
          --row: 26px;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #15171c; --panel: #1c1f26; --line: #2c313b; --text: #e4e7ec; --dim: #98a1b2; --faint: #6b7385;
            --accent: #7aa7ff; --sel: #233a66; --hover: #222733; --add: #62d28f; --add-bg: #16301f;
            --del: #ff8f85; --del-bg: #3a1c1c; --warn: #f4b555; --warn-bg: #352612; --str: #8fd6a4; --num: #8fb8ff;
            --kw: #d1a3ff; --key: #e8c07d;
          }
        }
        * { box-sizing: border-box; }
        html, body { height: 100%; }
        body {
          margin: 0; display: flex; flex-direction: column; background: var(--bg);
          color: var(--text); font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
        }
        button, input, select { font: inherit; color: inherit; }
        button {
          background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 3px 10px; cursor: pointer;
        }
        button:hover { background: var(--hover); }
        button:focus-visible, input:focus-visible, select:focus-visible {
          outline: 2px solid var(--accent); outline-offset: -2px;
        }
        #list:focus .row.selected { box-shadow: inset 3px 0 0 var(--accent); }
        code, .mono { font-family: var(--mono); font-size: 12px; }
        .bar {
          display: flex; align-items: center; gap: 12px; padding: 8px 14px; border-bottom: 1px solid var(--line);
          background: var(--panel);
        }
        .brand { font-weight: 650; letter-spacing: .2px; }
        .brand span { color: var(--accent); }
        #file { color: var(--dim); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
        #summary { color: var(--dim); white-space: nowrap; }
        .spacer { flex: 1; }
        .tools {
          display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 7px 14px;
          border-bottom: 1px solid var(--line);
        }
        .tools input[type=search] {
          width: min(340px, 40vw); padding: 4px 9px; border: 1px solid var(--line); border-radius: 6px;
          background: var(--bg);
        }
        .tools select { padding: 3px 6px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
        .tools label { display: inline-flex; align-items: center; gap: 4px; color: var(--dim); }
        #count { color: var(--dim); margin-left: auto; white-space: nowrap; }
        #axis-wrap { position: relative; border-bottom: 1px solid var(--line); height: 92px; }
        #axis { display: block; width: 100%; height: 100%; cursor: crosshair; }
        #axis-tip {
          position: absolute; pointer-events: none; background: var(--text); color: var(--bg); padding: 3px 7px;
          border-radius: 5px; font-size: 12px; white-space: nowrap; display: none; z-index: 2;
        }
        #axis-mode { position: absolute; right: 8px; top: 16px; font-size: 11px; padding: 1px 8px; opacity: .85; }
        #axis-hint {
          position: absolute; right: 10px; bottom: 2px; font-size: 11px; color: var(--faint); pointer-events: none;
        }
        body > * { flex: none; }
        body > main { flex: 1 1 auto; }
        main { display: grid; grid-template-columns: minmax(340px, 44%) minmax(0, 1fr); min-height: 0; }
        #list-pane {
          display: grid; grid-template-rows: auto minmax(0, 1fr); border-right: 1px solid var(--line); min-height: 0;
        }
        .list-head, .row {
          display: grid; grid-template-columns: 54px 96px minmax(0, 1fr) auto; gap: 8px; align-items: center;
          padding: 0 10px;
        }
        .list-head {
          height: 24px; font-size: 11px; text-transform: uppercase; letter-spacing: .5px; color: var(--faint);
          border-bottom: 1px solid var(--line);
        }
        #list { overflow-y: auto; position: relative; outline: none; }
        #rows { position: relative; }
        .row {
          position: absolute; left: 0; right: 0; height: var(--row); cursor: pointer; white-space: nowrap;
          border-bottom: 1px solid color-mix(in srgb, var(--line) 55%, transparent);
        }
        .row:hover { background: var(--hover); }
        .row.selected { background: var(--sel); }
        .row.dropped { opacity: .5; }
        .row.dropped .name { text-decoration: line-through; text-decoration-color: var(--faint); }
        .row.resume { background: color-mix(in srgb, var(--warn-bg) 70%, transparent); }
        .row.resume.selected { background: var(--sel); }
        .seq { color: var(--dim); font-family: var(--mono); font-size: 12px; text-align: right; }
        .time { color: var(--dim); font-family: var(--mono); font-size: 12px; }
        .name { overflow: hidden; text-overflow: ellipsis; }
        .name b { font-weight: 600; }
        .name .pl { color: var(--dim); font-family: var(--mono); font-size: 12px; margin-left: 6px; }
        mark { background: #ffe066; color: #111; border-radius: 2px; }
        .tags { display: flex; gap: 4px; align-items: center; justify-content: flex-end; overflow: hidden; }
        .chip {
          display: inline-flex; align-items: center; gap: 4px; font-size: 11px; padding: 0 6px; border-radius: 9px;
          border: 1px solid var(--line); color: var(--dim); line-height: 17px; white-space: nowrap;
        }
        .chip i { width: 7px; height: 7px; border-radius: 50%; display: inline-block; }
        .chip.err {
          color: var(--del); border-color: color-mix(in srgb, var(--del) 45%, transparent); background: var(--del-bg);
        }
        .chip.cause { color: var(--accent); }
        .chip.fx { color: var(--kw); }
        #detail { overflow: auto; padding: 14px 18px 40px; min-width: 0; }
        #detail h1 { font-size: 18px; margin: 0 0 2px; font-weight: 650; word-break: break-word; }
        #detail h1 .seqno { color: var(--dim); font-weight: 500; margin-right: 6px; }
        #detail h2 {
          font-size: 11px; text-transform: uppercase; letter-spacing: .6px; color: var(--faint); margin: 20px 0 6px;
          font-weight: 600;
        }
        .meta { color: var(--dim); display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 4px; }
        .meta a, .link { color: var(--accent); cursor: pointer; text-decoration: none; }
        .meta a:hover, .link:hover { text-decoration: underline; }
        .callout { border-radius: 8px; padding: 8px 12px; margin-top: 12px; }
        .callout.error { background: var(--del-bg); color: var(--del); }
        .callout.note { background: var(--warn-bg); color: var(--warn); }
        .card { border: 1px solid var(--line); border-radius: 8px; margin-bottom: 10px; overflow: hidden; }
        .card > .card-head {
          display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: var(--panel);
          border-bottom: 1px solid var(--line); font-weight: 600;
        }
        .card > .card-head .dim { font-weight: 400; color: var(--dim); }
        .card > .card-body { padding: 6px 10px; }
        .diff { font-family: var(--mono); font-size: 12px; }
        .diff div { padding: 1px 6px; border-radius: 4px; white-space: pre-wrap; word-break: break-word; }
        .diff .path { color: var(--key); cursor: pointer; }
        .diff .path:hover { text-decoration: underline; }
        .diff .old { color: var(--del); background: var(--del-bg); border-radius: 3px; padding: 0 3px; }
        .diff .new { color: var(--add); background: var(--add-bg); border-radius: 3px; padding: 0 3px; }
        .diff .added { background: var(--add-bg); }
        .diff .removed { background: var(--del-bg); }
        .empty-note { color: var(--dim); font-style: italic; }
        #nothing { padding: 16px; }
        table.fx { border-collapse: collapse; width: 100%; font-size: 12px; }
        table.fx td, table.fx th { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); }
        table.fx th { color: var(--faint); font-weight: 500; }
        .outcome-finished { color: var(--add); }
        .outcome-failed { color: var(--del); }
        .outcome-cancelled { color: var(--dim); }
        .outcome-running { color: var(--accent); }
        .tree { font-family: var(--mono); font-size: 12px; line-height: 1.6; }
        .tree details { padding-left: 14px; }
        .tree details > summary { margin-left: -14px; cursor: pointer; list-style: none; white-space: nowrap; }
        .tree details > summary::before { content: "▸"; display: inline-block; width: 14px; color: var(--faint); }
        .tree details[open] > summary::before { content: "▾"; }
        .tree .leaf { padding-left: 14px; white-space: pre-wrap; word-break: break-word; }
        .tree .k { color: var(--key); }
        .tree .s { color: var(--str); }
        .tree .n { color: var(--num); }
        .tree .b, .tree .z { color: var(--kw); }
        .tree .sum { color: var(--faint); }
        .tree details[open] > summary > .when-closed,
        .tree details:not([open]) > summary > .when-open { display: none; }
        .tree .chg { background: var(--add-bg); border-radius: 3px; }
        .tree .was { color: var(--del); text-decoration: line-through; margin-right: 6px; }
        .tree .gone { background: var(--del-bg); text-decoration: line-through; }
        .tree .dot::after { content: " ●"; color: var(--accent); font-size: 9px; }
        details.store { border: 1px solid var(--line); border-radius: 8px; margin-bottom: 8px; }
        details.store > summary {
          padding: 6px 10px; cursor: pointer; background: var(--panel); border-radius: 8px; font-weight: 600;
          display: flex; gap: 8px; align-items: center;
        }
        details.store[open] > summary { border-bottom: 1px solid var(--line); border-radius: 8px 8px 0 0; }
        details.store > .tree { padding: 6px 10px; overflow-x: auto; }
        details.raw > summary { cursor: pointer; color: var(--dim); }
        pre.raw {
          font-family: var(--mono); font-size: 11px; white-space: pre-wrap; word-break: break-all; color: var(--dim);
        }
        footer {
          display: flex; align-items: center; gap: 8px; padding: 6px 14px; border-top: 1px solid var(--line);
          background: var(--panel);
        }
        #scrub { flex: 1; accent-color: var(--accent); }
        #where { font-family: var(--mono); font-size: 12px; color: var(--dim); min-width: 190px; text-align: right; }
        .keys { color: var(--faint); font-size: 12px; }
        kbd {
          font-family: var(--mono); font-size: 11px; border: 1px solid var(--line); border-bottom-width: 2px;
          border-radius: 4px; padding: 0 4px; background: var(--bg); color: var(--dim);
        }
        #banner {
          display: none; padding: 6px 14px; background: var(--warn-bg); color: var(--warn);
          border-bottom: 1px solid var(--line);
        }
        #banner.error { background: var(--del-bg); color: var(--del); }
        #overlay {
          position: fixed; inset: 0; display: none; align-items: center; justify-content: center;
          background: color-mix(in srgb, var(--bg) 80%, transparent); z-index: 5;
        }
        #overlay .box {
          background: var(--bg); border: 1px solid var(--line); border-radius: 12px; padding: 18px 22px;
          box-shadow: 0 10px 40px rgba(0, 0, 0, .18); max-width: 560px;
        }
        #overlay.show { display: flex; }
        #help table td { padding: 2px 10px 2px 0; }
        #progress {
          width: 320px; height: 6px; background: var(--line); border-radius: 3px; overflow: hidden; margin-top: 10px;
        }
        #progress div { height: 100%; width: 0; background: var(--accent); }
        .welcome { padding: 40px; color: var(--dim); max-width: 560px; }
        .welcome h1 { color: var(--text); }
        body.dragging::after {
          content: "Drop a .jsonl journal to open it"; position: fixed; inset: 12px; border: 3px dashed var(--accent);
          border-radius: 14px; display: flex; align-items: center; justify-content: center; font-size: 20px;
          background: color-mix(in srgb, var(--bg) 85%, transparent); z-index: 9;
        }
        @media (max-width: 820px) {
          main { grid-template-columns: 1fr; grid-template-rows: minmax(0, 45%) minmax(0, 55%); }
          #list-pane { border-right: 0; border-bottom: 1px solid var(--line); }
          .keys { display: none; }
        }
        </style>
        </head>
        <body>
        <header class="bar">
          <div class="brand">Fluxion <span>journal</span></div>
          <div id="file"></div>
          <div id="summary"></div>
          <div class="spacer"></div>
          <button id="open" title="Open a .jsonl journal file (or drop one on the page)">Open journal…</button>
          <input id="picker" type="file" accept=".jsonl,.json,.txt,.log,application/json,text/plain" hidden>
          <button id="help-button" title="Keyboard shortcuts (?)">?</button>
        </header>
        <div id="banner" role="status"></div>
        <div class="tools">
          <input id="search" type="search" placeholder="Search actions, payloads, errors, diffs  ( / )"
            autocomplete="off"
            spellcheck="false" aria-label="Search">
          <label>Action <select id="action-filter" aria-label="Action"><option value="">all</option></select></label>
          <label>Store <select id="store-filter" aria-label="Store"><option value="">all</option></select></label>
          <label><input id="errors-only" type="checkbox"> with errors</label>
          <label><input id="hide-dropped" type="checkbox"> hide dropped</label>
          <span id="count"></span>
        </div>
        <div id="axis-wrap">
          <canvas id="axis" aria-label="Steps and effects on a time axis"></canvas>
          <div id="axis-tip"></div>
          <div id="axis-hint">wheel: zoom · drag: pan · double-click: fit</div>
          <button id="axis-mode" title="Show the steps and effects on a time axis, or in the order they were recorded">
            axis: time</button>
        </div>
        <main>
          <section id="list-pane" aria-label="Steps">
            <div class="list-head"><span style="text-align:right">step</span><span>time</span><span>action</span>
              <span>changes · cause</span></div>
            <div id="list" tabindex="0" role="listbox" aria-label="Steps"><div id="rows"></div>
              <div id="nothing" class="empty-note" hidden>No step matches the filters.</div></div>
          </section>
          <section id="detail" aria-live="polite"></section>
        </main>
        <footer>
          <button id="first" title="First step (Home)">⇤</button>
          <button id="prev" title="Step back (←)">◀</button>
          <button id="play" title="Play the session (Space)">Play</button>
          <button id="next" title="Step forward (→)">▶</button>
          <button id="last" title="Last step (End)">⇥</button>
          <input id="scrub" type="range" min="0" max="0" value="0" aria-label="Time travel">
          <span id="where"></span>
          <span class="keys"><kbd>←</kbd><kbd>→</kbd> time travel · <kbd>↑</kbd><kbd>↓</kbd> list · <kbd>c</kbd> cause ·
            <kbd>/</kbd> search · <kbd>?</kbd> help</span>
        </footer>
        <div id="overlay"><div class="box" id="overlay-box"></div></div>
        <script type="application/x-ndjson" id="journal" data-name="{{NAME}}">{{JOURNAL}}</script>
        <script>
        "use strict";
        (() => {
        const $ = (id) => document.getElementById(id);
        const ROW = 26;
        const BATCH = "Fluxion.batch";
        const el = (tag, cls, text) => {
          const e = document.createElement(tag);
          if (cls) e.className = cls;
          if (text !== undefined) e.textContent = text;
          return e;
        };

        // ---- The journal, as the viewer holds it --------------------------------------------------------------
        let J = emptyJournal();
        let view = new Int32Array(0);     // the rows the filters let through, as indexes into J.rows
        let sel = -1;                     // the selected row
        let blobs = null;                 // lower-cased search text of each row, made on the first search
        let playing = null;

        function emptyJournal() {
          return { name: "", rows: [], stores: [], storeIndex: new Map(), actions: new Map(), effects: [], lanes: 0,
            t0: 0, t1: 0, problems: [], version: 0, header: null, caused: new Map() };
        }

        function toTime(s) {
          const t = typeof s === "string" ? Date.parse(s) : NaN;
          return Number.isFinite(t) ? t : NaN;
        }

        // Parses a journal's text (JSON Lines) into rows, in chunks so that a large file keeps the page alive.
        async function parse(text, name, progress) {
          const j = emptyJournal();
          j.name = name;
          const lines = text.split("\n");
          const bySeq = new Map();        // a step number's newest row: causes and effects name steps by number
          let budget = performance.now();
          for (let n = 0; n < lines.length; n++) {
            if (performance.now() - budget > 40) {
              progress(n / lines.length);
              await new Promise((r) => setTimeout(r, 0));
              budget = performance.now();
            }
            const text = lines[n];
            if (!text.trim()) continue;
            let line;
            try {
              line = JSON.parse(text);
            } catch (e) {
              const cut = n === lines.length - 1;
              j.problems.push(`line ${n + 1} ${cut ? "is cut short" : "is not JSON"}: ${e.message}`);
              continue;
            }
            if (!line || typeof line !== "object") { j.problems.push(`line ${n + 1} is not a journal line`); continue; }
            if (line.kind === "header") {
              if (j.header) j.problems.push(`line ${n + 1} is a second header`);
              j.header = line;
              j.version = line.version || 0;
              continue;
            }
            if (!j.header && j.rows.length === 0 && j.problems.length === 0) {
              j.problems.push("the first line is not a Fluxion journal header");
            }
            if (line.kind === "action" || line.kind === "resume") {
              addRow(j, line, n + 1, bySeq);
            } else if (line.kind === "effect") {
              addEffect(j, line, n + 1, bySeq);
            } else {
              j.problems.push(`line ${n + 1} has an unknown kind "${line.kind}"`);
            }
          }
          if (j.header && j.header.format !== "fluxion-journal") {
            j.problems.unshift("the header is not a Fluxion journal's");
          }
          if (j.version > 2) j.problems.unshift(`the journal has version ${j.version}; this viewer knows version 2`);
          finish(j);
          return j;
        }

        function storeId(j, name) {
          let id = j.storeIndex.get(name);
          if (id === undefined) {
            id = j.stores.length;
            j.storeIndex.set(name, id);
            j.stores.push({ name, short: name.replace(/Store$/, "") || name, hue: hue(name), initial: undefined,
              hasInitial: false, rows: [], count: 0 });
          }
          return id;
        }

        function hue(name) {
          let h = 0;
          for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
          return h % 360;
        }

        function addRow(j, line, number, bySeq) {
          const i = j.rows.length;
          const resume = line.kind === "resume";
          const action = line.action || {};
          const row = {
            i, line: number, seq: line.sequence || 0, t: toTime(line.time), resume,
            name: resume ? "Fluxion.travel" : String(action.name ?? "?"),
            desc: resume ? `resumed from step ${line.sequence}` : String(action.description ?? action.name ?? ""),
            hasPayload: Object.prototype.hasOwnProperty.call(action, "payload"), payload: action.payload,
            error: action.error ?? null, actions: Array.isArray(line.actions) ? line.actions : null,
            replayable: line.replayable === true, redacted: action.redacted === true || (line.actions || []).some(
              (a) => a && a.redacted),
            changes: [], cause: null, effects: null, dropped: false,
          };
          for (const change of Array.isArray(line.changes) ? line.changes : []) {
            if (!change || typeof change.store !== "string") continue;
            const id = storeId(j, change.store);
            const store = j.stores[id];
            if (!store.hasInitial && Object.prototype.hasOwnProperty.call(change, "before")) {
              store.initial = change.before;
              store.hasInitial = true;
            }
            store.rows.push(i);
            if (!resume) store.count++;
            row.changes.push({ id, diff: Array.isArray(change.diff) ? change.diff.map(String) : [], after: change.after,
              hasAfter: Object.prototype.hasOwnProperty.call(change, "after") });
          }
          const cause = line.cause;
          if (cause && typeof cause === "object") {
            const step = cause.effect !== undefined ? cause.step : cause.queued;
            const target = step > 0 && bySeq.has(step) ? bySeq.get(step) : -1;
            const effect = cause.effect === undefined ? null : String(cause.effect);
            row.cause = { effect, step: step || 0, row: target };
            if (target >= 0) {
              if (!j.caused.has(target)) j.caused.set(target, []);
              j.caused.get(target).push(i);
            }
          }
          if (resume) {
            // The steps after the one resumed from were dropped: their rows stay, marked, as the abandoned branch.
            for (let k = i - 1; k >= 0 && !(j.rows[k].resume && j.rows[k].seq <= row.seq); k--) {
              if (!j.rows[k].resume && j.rows[k].seq > row.seq) j.rows[k].dropped = true;
            }
          } else {
            bySeq.set(row.seq, i);
            j.actions.set(row.name, (j.actions.get(row.name) || 0) + 1);
          }
          j.rows.push(row);
        }

        function addEffect(j, line, number, bySeq) {
          const e = line.effect;
          const at = bySeq.get(line.sequence);
          if (!e || at === undefined) {
            j.problems.push(`line ${number}: an effect of step ${line.sequence}, which is not recorded`);
            return;
          }
          const row = j.rows[at];
          row.effects = row.effects || [];
          const t = toTime(line.time);
          if (e.event === "started") {
            const fx = { row: at, name: String(e.name), index: e.index, start: t, end: NaN, outcome: "running",
              error: null, lane: 0, s0: at, s1: NaN, laneS: 0 };
            row.effects.push(fx);
            j.effects.push(fx);
          } else {
            const fx = row.effects.find((f) => f.index === e.index && f.outcome === "running");
            if (!fx) return;
            fx.end = t;
            fx.s1 = Math.max(fx.s0 + 0.35, j.rows.length - 1 + 0.45);  // ended after the rows recorded so far
            fx.outcome = String(e.event);
            fx.error = e.error ?? null;
          }
        }

        function finish(j) {
          let t0 = Infinity, t1 = -Infinity;
          for (const r of j.rows) if (Number.isFinite(r.t)) { t0 = Math.min(t0, r.t); t1 = Math.max(t1, r.t); }
          for (const f of j.effects) {
            if (Number.isFinite(f.start)) { t0 = Math.min(t0, f.start); t1 = Math.max(t1, f.start); }
            if (Number.isFinite(f.end)) t1 = Math.max(t1, f.end);
          }
          if (!Number.isFinite(t0)) { t0 = 0; t1 = 1000; }
          j.t0 = t0;
          j.t1 = t1;
          const times = j.rows.map((r) => r.t).concat(j.effects.flatMap((f) => [f.start, f.end]))
            .filter(Number.isFinite);
          j.coarse = times.length > 1 && times.every((t) => t % 1000 === 0);
          for (const f of j.effects) if (!Number.isFinite(f.s1)) f.s1 = j.rows.length - 0.5;
          // Effects on lanes: each takes the first lane free at its start, on either axis.
          j.lanes = lanes(j.effects, (f) => f.start, (f) => (Number.isFinite(f.end) ? f.end : t1), "lane");
          j.lanesS = lanes(j.effects, (f) => f.s0, (f) => f.s1, "laneS");
        }

        function lanes(effects, start, end, key) {
          const ends = [];
          for (const f of effects.slice().sort((a, b) => start(a) - start(b))) {
            let lane = ends.findIndex((e) => e < start(f));
            if (lane < 0) { lane = ends.length; ends.push(end(f)); } else ends[lane] = end(f);
            f[key] = lane;
          }
          return ends.length;
        }

        // The state of store `id` once row `i` has run (row -1: before the first).
        function stateAt(id, i) {
          const store = J.stores[id];
          const rows = store.rows;
          let lo = 0, hi = rows.length - 1, found = -1;
          while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            if (rows[mid] <= i) { found = mid; lo = mid + 1; } else hi = mid - 1;
          }
          if (found < 0) return { known: store.hasInitial, value: store.initial, since: -1 };
          const row = J.rows[rows[found]];
          const change = row.changes.find((c) => c.id === id);
          return { known: change.hasAfter, value: change.after, since: rows[found] };
        }

        // ---- Formatting -------------------------------------------------------------------------------------------
        const pad = (n, w = 2) => String(n).padStart(w, "0");
        function clock(t) {
          if (!Number.isFinite(t)) return "—";
          const d = new Date(t);
          const ms = d.getMilliseconds();
          const fraction = J.coarse && !ms ? "" : `.${pad(ms, 3)}`;
          return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${fraction}`;
        }
        function span(ms) {
          if (!Number.isFinite(ms)) return "—";
          const a = Math.abs(ms);
          if (a < 1) return `${ms.toFixed(2)} ms`;
          if (a < 1000) return `${Math.round(ms)} ms`;
          if (a < 60000) return `${(ms / 1000).toFixed(a < 10000 ? 2 : 1)} s`;
          const m = Math.floor(a / 60000);
          return `${ms < 0 ? "-" : ""}${m} min ${Math.round((a % 60000) / 1000)} s`;
        }
        // A time between two recorded times: a journal file that keeps whole seconds cannot tell less.
        function between(ms) {
          if (!J.coarse || !Number.isFinite(ms)) return span(ms);
          return Math.abs(ms) < 1000 ? "< 1 s" : `≈ ${span(ms)}`;
        }
        function preview(value, max = 90) {
          if (value === undefined) return "";
          let s;
          try { s = JSON.stringify(value); } catch (e) { s = String(value); }
          if (s === undefined) return "";
          return s.length > max ? s.slice(0, max - 1) + "…" : s;
        }
        function causeText(row) {
          const c = row.cause;
          if (!c) return "outside";
          const step = c.step > 0 ? `#${c.step}` : "an unrecorded step";
          return c.effect !== null ? `effect ${c.effect} of ${step}` : `queued by ${step}`;
        }
        function highlight(target, text, query) {
          if (!query) { target.textContent = text; return; }
          const at = text.toLowerCase().indexOf(query);
          if (at < 0) { target.textContent = text; return; }
          target.textContent = "";
          const end = at + query.length;
          target.append(text.slice(0, at), el("mark", null, text.slice(at, end)), text.slice(end));
        }

        // ---- Filters ------------------------------------------------------------------------------------------------
        function searchText(row) {
          const parts = [row.name, row.desc, row.error || "", causeText(row)];
          if (row.hasPayload) parts.push(preview(row.payload, 4000));
          for (const a of row.actions || []) parts.push(a.name, a.description || "", preview(a.payload, 2000));
          for (const c of row.changes) parts.push(J.stores[c.id].name, ...c.diff);
          if (row.effects) for (const f of row.effects) parts.push(f.name, f.error || "");
          return parts.join("\n").toLowerCase();
        }

        function applyFilters(keepSelection = true) {
          const query = $("search").value.trim().toLowerCase();
          const action = $("action-filter").value;
          const store = $("store-filter").value === "" ? -1 : Number($("store-filter").value);
          const errors = $("errors-only").checked;
          const hideDropped = $("hide-dropped").checked;
          if (query && !blobs) blobs = J.rows.map(searchText);
          const out = new Int32Array(J.rows.length);
          let n = 0;
          for (const row of J.rows) {
            if (action && row.name !== action) continue;
            if (store >= 0 && !row.changes.some((c) => c.id === store)) continue;
            if (errors && !row.error && !(row.effects && row.effects.some((f) => f.outcome === "failed"))) continue;
            if (hideDropped && row.dropped) continue;
            if (query && !blobs[row.i].includes(query)) continue;
            out[n++] = row.i;
          }
          view = out.subarray(0, n);
          const total = J.rows.length;
          $("count").textContent = n === total ? `${total.toLocaleString()} steps` :
            `${n.toLocaleString()} of ${total.toLocaleString()} steps`;
          $("rows").style.height = `${n * ROW}px`;
          $("nothing").hidden = n > 0 || total === 0;
          renderRows(true);
          if (keepSelection && sel >= 0) scrollToRow(sel, false);
          drawAxis();
        }

        // ---- The list: only the rows in sight are in the page ------------------------------------------------
        const pool = [];
        let rendered = { from: -1, to: -1, query: null };
        function viewIndexOf(i) {
          let lo = 0, hi = view.length - 1;
          while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            if (view[mid] === i) return mid;
            if (view[mid] < i) lo = mid + 1; else hi = mid - 1;
          }
          return -1;
        }

        function renderRows(force = false) {
          const list = $("list");
          const from = Math.max(0, Math.floor(list.scrollTop / ROW) - 8);
          const to = Math.min(view.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + 8);
          const query = $("search").value.trim().toLowerCase();
          if (!force && from === rendered.from && to === rendered.to) return;
          rendered = { from, to };
          const rows = $("rows");
          while (pool.length < to - from) {
            const r = el("div", "row");
            r.setAttribute("role", "option");
            r.append(el("span", "seq"), el("span", "time"), el("span", "name"), el("span", "tags"));
            pool.push(r);
          }
          for (let k = 0; k < pool.length; k++) {
            const node = pool[k];
            const v = from + k;
            if (v >= to) { if (node.parentNode) node.remove(); continue; }
            fillRow(node, J.rows[view[v]], v, query);
            if (!node.parentNode) rows.append(node);
          }
        }

        function fillRow(node, row, v, query) {
          node.style.top = `${v * ROW}px`;
          node.dataset.row = row.i;
          node.dataset.seq = row.seq;
          node.className = "row" + (row.i === sel ? " selected" : "") + (row.dropped ? " dropped" : "") +
            (row.resume ? " resume" : "");
          node.setAttribute("aria-selected", row.i === sel ? "true" : "false");
          const [seq, time, name, tags] = node.children;
          seq.textContent = row.resume ? "⟲" : `#${row.seq}`;
          time.textContent = clock(row.t);
          name.textContent = "";
          const b = el("b");
          highlight(b, row.resume ? `resumed from #${row.seq}` : row.name, query);
          name.append(b);
          const pl = row.actions ? `${row.actions.length} actions: ${row.actions.map((a) => a.name).join(", ")}` :
            row.hasPayload ? (row.payload === null ? "" : shortPreview(row.payload, 90)) :
            row.resume ? "later steps dropped" :
            row.desc;
          if (pl) {
            const s = el("span", "pl");
            highlight(s, pl, query);
            name.append(s);
          }
          node.title = `${row.desc}${row.dropped ? " (dropped by time travel)" : ""}`;
          tags.textContent = "";
          if (row.error) tags.append(el("span", "chip err", "⚠ error"));
          if (row.cause) {
            const step = row.cause.step || "?";
            const text = row.cause.effect !== null ? `↳ ${row.cause.effect} #${step}` : `↩ #${step}`;
            const c = el("span", "chip cause", text);
            c.title = causeText(row);
            tags.append(c);
          }
          if (row.effects) {
            const failed = row.effects.some((f) => f.outcome === "failed");
            const f = el("span", "chip fx" + (failed ? " err" : ""), `⇢ ${row.effects.length}`);
            f.title = row.effects.map((e) => `${e.name}: ${e.outcome}`).join("\n");
            tags.append(f);
          }
          const shown = row.changes.slice(0, 3);
          for (const c of shown) tags.append(storeChip(c.id));
          if (row.changes.length > 3) tags.append(el("span", "chip", `+${row.changes.length - 3}`));
        }

        function storeChip(id) {
          const s = J.stores[id];
          const c = el("span", "chip");
          const dot = el("i");
          dot.style.background = `hsl(${s.hue} 65% 50%)`;
          c.append(dot, s.short);
          c.title = s.name;
          return c;
        }

        function scrollToRow(i, center = true) {
          const v = viewIndexOf(i);
          if (v < 0) return;
          const list = $("list");
          const top = v * ROW;
          if (center) {
            if (top < list.scrollTop || top + ROW > list.scrollTop + list.clientHeight) {
              list.scrollTop = top - list.clientHeight / 2 + ROW / 2;
            }
          } else if (top < list.scrollTop) {
            list.scrollTop = top;
          } else if (top + ROW > list.scrollTop + list.clientHeight) {
            list.scrollTop = top + ROW - list.clientHeight;
          }
          renderRows(true);
        }

        // ---- Selection and time travel ---------------------------------------------------------------------------
        function select(i, { scroll = true, hash = true } = {}) {
          if (J.rows.length === 0) return;
          i = Math.max(0, Math.min(J.rows.length - 1, i));
          sel = i;
          for (const node of pool) {
            if (!node.parentNode) continue;
            const on = Number(node.dataset.row) === i;
            node.classList.toggle("selected", on);
            node.setAttribute("aria-selected", on ? "true" : "false");
          }
          if (scroll) scrollToRow(i);
          renderDetail(J.rows[i]);
          $("scrub").value = String(i);
          const row = J.rows[i];
          const label = row.resume ? "⟲" : `#${row.seq}`;
          $("where").textContent = `${label} · ${(i + 1).toLocaleString()} of ${J.rows.length.toLocaleString()} · ` +
            clock(row.t);
          drawAxis();
          if (hash) {
            try {
              history.replaceState(null, "", `#step-${i + 1}`);
            } catch (e) {
              // a sandboxed page has no history
            }
          }
        }

        function moveInList(delta) {
          if (view.length === 0) return;
          let v = viewIndexOf(sel);
          if (v < 0) {
            // The selected step is filtered out: go to the nearest shown one in the direction asked.
            let lo = 0, hi = view.length;
            while (lo < hi) { const mid = (lo + hi) >> 1; if (view[mid] < sel) lo = mid + 1; else hi = mid; }
            v = delta > 0 ? lo - 1 : lo;
          }
          select(view[Math.max(0, Math.min(view.length - 1, v + delta))]);
        }

        function togglePlay(force) {
          const on = force === undefined ? !playing : force;
          if (playing) { clearInterval(playing); playing = null; }
          if (on && J.rows.length) {
            if (sel >= J.rows.length - 1) select(0);
            playing = setInterval(() => {
              if (sel >= J.rows.length - 1) return togglePlay(false);
              select(sel + 1);
            }, 450);
          }
          $("play").textContent = playing ? "Pause" : "Play";
        }

        // ---- The selected step --------------------------------------------------------------------------------------
        function renderDetail(row) {
          const d = $("detail");
          d.textContent = "";
          if (!row) return;
          const h = el("h1");
          h.append(el("span", "seqno", row.resume ? "⟲" : `#${row.seq}`));
          h.append(row.resume ? "Resumed after time travel" : row.name);
          d.append(h);
          const meta = el("div", "meta");
          const prev = row.i > 0 ? J.rows[row.i - 1] : null;
          meta.append(el("span", null, `${clock(row.t)} · ${between(row.t - J.t0)} into the session` +
            (prev ? ` · ${between(row.t - prev.t)} after the step before` : "")));
          const cause = el("span");
          if (row.cause && row.cause.row >= 0) {
            cause.append(row.cause.effect !== null ? `caused by effect ${row.cause.effect} of ` : "queued by ");
            cause.append(stepLink(row.cause.row));
          } else {
            cause.textContent = row.resume ? "" : `cause: ${causeText(row)}`;
          }
          meta.append(cause);
          const caused = J.caused.get(row.i);
          if (caused) {
            const c = el("span", null, "led to ");
            caused.slice(0, 12).forEach((k, n) => { if (n) c.append(", "); c.append(stepLink(k)); });
            if (caused.length > 12) c.append(` and ${caused.length - 12} more`);
            meta.append(c);
          }
          if (!row.resume) meta.append(el("span", null, row.replayable ? "replayable" : "not replayable"));
          if (row.redacted) meta.append(el("span", null, "payload redacted"));
          meta.append(el("span", null, `line ${row.line}`));
          d.append(meta);
          if (row.dropped) {
            d.append(el("div", "callout note",
              "Time travel dropped this step: recording resumed from an earlier step."));
          }
          if (row.resume) {
            d.append(el("div", "callout note", `Time travel resumed here from step ${row.seq}: the stores were set ` +
              "to its states, and the steps recorded after it were dropped."));
          }
          if (row.error) d.append(el("div", "callout error", `Error: ${row.error}`));

          if (!row.resume) {
            d.append(el("h2", null, row.actions ? `Batch of ${row.actions.length} actions` : "Payload"));
            if (row.actions) {
              for (const a of row.actions) {
                const card = el("div", "card");
                const head = el("div", "card-head", a.name);
                if (a.store) head.append(el("span", "dim", `inline mutation of ${a.store}`));
                if (a.error) head.append(el("span", "chip err", `⚠ ${a.error}`));
                const body = el("div", "card-body tree");
                if (Object.prototype.hasOwnProperty.call(a, "payload")) body.append(treeRoot(a.payload, null, 2));
                else body.append(el("span", "empty-note", a.description || "not recorded as JSON"));
                card.append(head, body);
                d.append(card);
              }
            } else if (!row.hasPayload) {
              d.append(el("div", "empty-note", `not recorded as JSON; as it prints: ${row.desc}`));
            } else if (row.payload === null) {
              d.append(el("div", "empty-note", "no payload"));
            } else {
              const t = el("div", "tree");
              t.append(treeRoot(row.payload, null, 3));
              d.append(t);
            }
          }

          d.append(el("h2", null, row.resume ? "States set" : "Changes"));
          if (row.changes.length === 0) d.append(el("div", "empty-note", "No store changed."));
          for (const c of row.changes) d.append(changeCard(row, c));

          if (row.effects && row.effects.length) {
            d.append(el("h2", null, "Effects started"));
            const table = el("table", "fx");
            const head = el("tr");
            for (const t of ["effect", "started after the step", "ran for", "outcome"]) head.append(el("th", null, t));
            table.append(head);
            for (const f of row.effects) {
              const tr = el("tr");
              tr.append(el("td", "mono", f.name), el("td", null, between(f.start - row.t)),
                el("td", null, Number.isFinite(f.end) ? between(f.end - f.start) : "still running"),
                el("td", `outcome-${f.outcome}`, f.outcome + (f.error ? `: ${f.error}` : "")));
              table.append(tr);
            }
            d.append(table);
          }

          const stores = `${J.stores.length} ${J.stores.length === 1 ? "store" : "stores"}`;
          d.append(el("h2", null, `State after this step (${stores})`));
          const changed = new Set(row.changes.map((c) => c.id));
          const order = J.stores.map((s, id) => id).sort((a, b) => (changed.has(b) ? 1 : 0) - (changed.has(a) ? 1 : 0));
          for (const id of order) d.append(storeState(row, id, changed.has(id)));

          const raw = el("details", "raw");
          raw.append(el("summary", null, "The line as recorded"));
          raw.addEventListener("toggle", () => {
            if (raw.open && raw.children.length === 1) raw.append(el("pre", "raw", rawLine(row)));
          });
          d.append(raw);
          d.scrollTop = 0;
        }

        function rawLine(row) {
          const time = Number.isFinite(row.t) ? new Date(row.t).toISOString() : undefined;
          const line = { kind: row.resume ? "resume" : "action", sequence: row.seq, time };
          if (!row.resume) line.action = { name: row.name, description: row.desc };
          if (row.hasPayload) line.action.payload = row.payload;
          if (row.error) line.action.error = row.error;
          if (row.actions) line.actions = row.actions;
          if (row.cause) line.cause = row.cause.effect !== null ? { effect: row.cause.effect, step: row.cause.step } :
            { queued: row.cause.step };
          line.changes = row.changes.map((c) => ({ store: J.stores[c.id].name, diff: c.diff, after: c.after }));
          return JSON.stringify(line, null, 2);
        }

        function stepLink(i) {
          const r = J.rows[i];
          const a = el("a", null, `#${r.seq} ${r.name}`);
          a.href = `#step-${i + 1}`;
          a.addEventListener("click", (e) => { e.preventDefault(); select(i); });
          return a;
        }

        function changeCard(row, c) {
          const store = J.stores[c.id];
          const card = el("div", "card change");
          card.dataset.store = store.name;
          const head = el("div", "card-head");
          head.append(storeChip(c.id), store.name);
          const body = el("div", "card-body diff");
          const lines = c.diff.length ? c.diff : computedDiff(c.id, row.i);
          if (!c.diff.length && lines.length) head.append(el("span", "dim", "worked out from the states"));
          for (const line of lines) body.append(diffLine(line));
          if (!lines.length) body.append(el("span", "empty-note", "no field changed"));
          card.append(head, body);
          return card;
        }

        // A diff line of the journal: `path: old → new`, `path: + added`, `path: - removed`.
        function diffLine(text) {
          const div = el("div");
          const colon = text.indexOf(": ");
          if (colon < 0) { div.textContent = text; return div; }
          const path = text.slice(0, colon);
          const rest = text.slice(colon + 2);
          const p = el("span", "path", path);
          p.title = "Show every step that changed this path";
          p.addEventListener("click", () => {
            $("search").value = path;
            applyFilters();
          });
          div.append(p, ": ");
          if (rest.startsWith("+ ")) {
            div.className = "added";
            div.append(el("span", "new", rest));
          } else if (rest.startsWith("- ")) {
            div.className = "removed";
            div.append(el("span", "old", rest));
          } else {
            const arrow = rest.indexOf(" → ");
            if (arrow < 0) div.append(rest);
            else div.append(el("span", "old", rest.slice(0, arrow)), " → ", el("span", "new", rest.slice(arrow + 3)));
          }
          return div;
        }

        // The changed paths between two JSON values, as `path: old → new` lines and a map for the state tree.
        function jsonDiff(a, b, path = "", out = new Map(), limit = 400) {
          if (out.size >= limit) return out;
          const isObj = (v) => v !== null && typeof v === "object";
          if (isObj(a) && isObj(b) && Array.isArray(a) === Array.isArray(b)) {
            const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
            for (const k of keys) {
              const p = Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
              if (!(k in a)) out.set(p, { kind: "added", value: b[k] });
              else if (!(k in b)) out.set(p, { kind: "removed", value: a[k] });
              else jsonDiff(a[k], b[k], p, out, limit);
            }
          } else if (JSON.stringify(a) !== JSON.stringify(b)) {
            out.set(path || "state", { kind: "changed", old: a, value: b });
          }
          return out;
        }

        function computedDiff(id, i) {
          const before = stateAt(id, i - 1);
          const after = stateAt(id, i);
          if (!before.known || !after.known) return [];
          return [...jsonDiff(before.value, after.value)].map(([p, d]) =>
            d.kind === "added" ? `${p}: + ${preview(d.value)}` : d.kind === "removed" ? `${p}: - ${preview(d.value)}` :
            `${p}: ${preview(d.old)} → ${preview(d.value)}`);
        }

        function storeState(row, id, changed) {
          const store = J.stores[id];
          const box = el("details", "store");
          box.dataset.store = store.name;
          box.open = changed || J.stores.length <= 6;
          const summary = el("summary");
          summary.append(storeChip(id), store.name);
          const now = stateAt(id, row.i);
          if (changed) summary.append(el("span", "chip", "changed here"));
          else if (now.since >= 0) summary.append(el("span", "chip", `last changed by #${J.rows[now.since].seq}`));
          box.append(summary);
          const build = () => {
            const t = el("div", "tree");
            if (!now.known) {
              t.append(el("span", "empty-note", "not recorded as JSON"));
            } else {
              const before = changed ? stateAt(id, row.i - 1) : null;
              const diff = before && before.known ? jsonDiff(before.value, now.value) : null;
              t.append(treeRoot(now.value, diff, 2));
            }
            box.append(t);
          };
          if (box.open) build();
          else box.addEventListener("toggle", () => { if (box.open && box.children.length === 1) build(); });
          return box;
        }

        // A collapsible JSON tree; children are made when their node is first opened.
        function tree(value, path, diff, depth, key) {
          const isObj = value !== null && typeof value === "object";
          const keyNode = () => {
            if (key === undefined) return null;
            return el("span", "k", Array.isArray(value) && false ? key : `${key}: `);
          };
          const touched = diff && path !== "" && [...diff.keys()].some((p) => p === path || p.startsWith(path + ".") ||
            p.startsWith(path + "["));
          const rootTouched = diff && path === "" && diff.size > 0;
          if (!isObj) {
            const leaf = el("div", "leaf");
            const k = keyNode();
            if (k) leaf.append(k);
            const change = diff && diff.get(path || "state");
            if (change && change.kind === "changed") leaf.append(el("span", "was", literal(change.old)), "→ ");
            const v = literalNode(value);
            if (change) v.classList.add("chg");
            leaf.append(v);
            return leaf;
          }
          const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
          const node = el("details");
          const summary = el("summary");
          const k = keyNode();
          if (k) summary.append(k);
          const add = diff && diff.get(path);
          summary.append(el("span", "sum when-open", Array.isArray(value) ? `[${entries.length}]` :
            `{${entries.length} ${entries.length === 1 ? "key" : "keys"}}`));
          summary.append(el("span", "sum when-closed", shortPreview(value)));
          if (add && add.kind === "added") summary.classList.add("chg");
          if (touched || rootTouched) summary.classList.add("dot");
          node.append(summary);
          const fill = () => {
            for (const [k2, v] of entries.slice(0, 2000)) {
              const p = Array.isArray(value) ? `${path}[${k2}]` : path ? `${path}.${k2}` : k2;
              const child = tree(v, p, diff, depth - 1, k2);
              if (diff && diff.has(p) && diff.get(p).kind === "added") child.classList.add("chg");
              node.append(child);
            }
            if (entries.length > 2000) node.append(el("div", "leaf sum", `… ${entries.length - 2000} more`));
            if (diff) appendRemoved(node, path, diff);
          };
          if (depth > 0 || touched || rootTouched) { node.open = true; fill(); }
          else node.addEventListener("toggle", () => { if (node.open && node.children.length === 1) fill(); });
          return node;
        }

        // A value in one short line, as a console shows a collapsed object: `{isDone: false, title: "Buy milk"}`.
        function shortPreview(value, max = 80) {
          let text = "";
          const put = (v, depth) => {
            if (text.length > max) return;
            if (v === null || typeof v !== "object") { text += literal(v); return; }
            const array = Array.isArray(v);
            if (depth > 1) { text += array ? `[${v.length}]` : "{…}"; return; }
            text += array ? "[" : "{";
            const keys = Object.keys(v);
            keys.forEach((k, n) => {
              if (text.length > max) return;
              if (n) text += ", ";
              if (!array) text += `${k}: `;
              put(v[k], depth + 1);
            });
            text += array ? "]" : "}";
          };
          put(value, 0);
          return text.length > max ? text.slice(0, max - 1) + "…" : text;
        }

        // A value's tree without a line for the value itself: an object's entries, or a single leaf.
        function treeRoot(value, diff, depth) {
          const box = document.createDocumentFragment();
          if (value === null || typeof value !== "object") {
            box.append(tree(value, "", diff, depth));
            return box;
          }
          const array = Array.isArray(value);
          const entries = array ? value.map((v, i) => [String(i), v]) : Object.entries(value);
          if (entries.length === 0) box.append(el("div", "leaf sum", array ? "[] (empty)" : "{} (empty)"));
          for (const [k, v] of entries) {
            const p = array ? `[${k}]` : k;
            const child = tree(v, p, diff, depth - 1, k);
            if (diff && diff.has(p) && diff.get(p).kind === "added") child.classList.add("chg");
            box.append(child);
          }
          if (diff) appendRemoved(box, "", diff);
          return box;
        }

        function appendRemoved(node, path, diff) {
          for (const [p, d] of diff) {
            if (d.kind !== "removed") continue;
            const parent = p.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
            if (parent === p ? path !== "" : parent !== path) continue;
            const gone = el("div", "leaf gone");
            gone.append(el("span", "k", `${p.slice(parent.length).replace(/^\./, "").replace(/^\[|\]$/g, "")}: `),
              literal(d.value));
            gone.title = "removed by this step";
            node.append(gone);
          }
        }

        function literal(v) {
          if (v !== null && typeof v === "object") return preview(v, 200);
          return typeof v === "string" ? JSON.stringify(v) : String(v);
        }
        function literalNode(v) {
          const cls = typeof v === "string" ? "s" : typeof v === "number" ? "n" : typeof v === "boolean" ? "b" : "z";
          return el("span", cls, literal(v));
        }

        // ---- The axis: every step as a tick, every effect as a bar, on a time axis or in step order -----------------
        // On the time axis a bar spans an effect's start and end; in step order, the steps recorded meanwhile
        // (a journal file that keeps whole seconds shows more there).
        let axisMode = "time";
        let win = null; // the part of the axis in sight: ms on the time axis, row positions in step order
        const AXIS_TOP = 18, STRIP = 16;
        const axis = {
          rowAt: (r) => (axisMode === "time" ? r.t : r.i),
          start: (f) => (axisMode === "time" ? f.start : f.s0),
          end: (f) => (axisMode === "time" ? (Number.isFinite(f.end) ? f.end : J.t1) : f.s1),
          lane: (f) => (axisMode === "time" ? f.lane : f.laneS),
          lanes: () => Math.max(1, axisMode === "time" ? J.lanes : J.lanesS),
        };

        function fitAxis() {
          if (axisMode === "steps") {
            win = [-0.5, Math.max(J.rows.length, 1) - 0.5];
            return;
          }
          const spanMs = Math.max(J.t1 - J.t0, 1000);
          const padMs = spanMs * 0.03;
          win = [J.t0 - padMs, J.t0 + spanMs + padMs];
        }

        function setAxisMode(mode) {
          axisMode = mode;
          $("axis-mode").textContent = mode === "time" ? "axis: time" : "axis: step order";
          fitAxis();
          drawAxis();
        }

        function laneGeometry(h) {
          const top = AXIS_TOP + STRIP + 8;
          return { top, height: Math.max(4, Math.min(12, (h - top - 4) / axis.lanes())) };
        }

        function drawAxis() {
          const canvas = $("axis");
          const w = canvas.clientWidth, h = canvas.clientHeight;
          if (!w || !h) return;
          const dpr = window.devicePixelRatio || 1;
          if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
            canvas.width = Math.round(w * dpr);
            canvas.height = Math.round(h * dpr);
          }
          const g = canvas.getContext("2d");
          g.setTransform(dpr, 0, 0, dpr, 0, 0);
          g.clearRect(0, 0, w, h);
          const css = getComputedStyle(document.documentElement);
          const color = (name) => css.getPropertyValue(name).trim();
          if (!win) fitAxis();
          const [a, b] = win;
          const x = (v) => ((v - a) / (b - a)) * w;
          // The scale.
          const units = axisMode === "time" ?
            [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 3e4, 6e4, 3e5, 6e5, 18e5, 36e5, 108e5, 864e5] :
            [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];
          const unit = units.find((s) => (s / (b - a)) * w >= 90) || units[units.length - 1];
          g.font = "11px system-ui, sans-serif";
          g.fillStyle = color("--faint");
          g.strokeStyle = color("--line");
          g.lineWidth = 1;
          for (let v = Math.ceil(a / unit) * unit; v <= b; v += unit) {
            const px = Math.round(x(v)) + 0.5;
            g.beginPath(); g.moveTo(px, 14); g.lineTo(px, h); g.stroke();
            let label;
            if (axisMode === "steps") {
              const r = J.rows[v];
              if (!r) continue;
              label = `#${r.seq}`;
            } else {
              const d = new Date(v);
              label = unit < 1000 ? clock(v) : unit < 6e4 ? `${pad(d.getHours())}:${pad(d.getMinutes())}:` +
                `${pad(d.getSeconds())}` : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
            }
            g.fillText(label, px + 3, 11);
          }
          // Steps: a density strip; the ones the filters let through in the accent colour.
          const all = new Uint32Array(Math.ceil(w) + 1), shown = new Uint32Array(Math.ceil(w) + 1);
          for (const r of J.rows) {
            const px = Math.floor(x(axis.rowAt(r)));
            if (px >= 0 && px <= w) all[px]++;
          }
          for (let k = 0; k < view.length; k++) {
            const px = Math.floor(x(axis.rowAt(J.rows[view[k]])));
            if (px >= 0 && px <= w) shown[px]++;
          }
          let max = 1;
          for (let px = 0; px < shown.length; px++) if (shown[px] > max) max = shown[px];
          const wide = (w / (b - a)) >= 6;
          g.fillStyle = color("--faint");
          for (let px = 0; px < all.length; px++) if (all[px] && !shown[px]) g.fillRect(px, AXIS_TOP + STRIP - 4, 1, 4);
          g.fillStyle = color("--accent");
          for (let px = 0; px < shown.length; px++) {
            if (!shown[px]) continue;
            const hh = 4 + Math.round((STRIP - 4) * Math.log(1 + shown[px]) / Math.log(1 + max));
            g.fillRect(px, AXIS_TOP + STRIP - hh, wide ? 2 : 1, hh);
          }
          g.fillStyle = color("--faint");
          g.fillText("steps", 4, AXIS_TOP + 12);
          // Effects, one lane each while they overlap.
          const lane = laneGeometry(h);
          const now = sel >= 0 ? J.rows[sel] : null;
          for (const f of J.effects) {
            let x0 = x(axis.start(f)), x1 = x(axis.end(f));
            if (x1 < 0 || x0 > w) continue;
            if (x1 - x0 < 3) x1 = x0 + 3;
            const y = lane.top + axis.lane(f) * lane.height;
            g.fillStyle = f.outcome === "failed" ? color("--del") : f.outcome === "cancelled" ? color("--faint") :
              f.outcome === "running" ? color("--accent") : color("--add");
            const mine = now && f.row === now.i;
            g.globalAlpha = mine ? 1 : 0.72;
            g.fillRect(x0, y, x1 - x0, lane.height - 2);
            if (mine) {
              g.strokeStyle = color("--text");
              g.strokeRect(x0 + 0.5, y + 0.5, x1 - x0 - 1, lane.height - 3);
            }
            if (x1 - x0 > 40 && lane.height >= 10) {
              g.globalAlpha = 1;
              g.fillStyle = color("--bg");
              g.fillText(f.name, x0 + 3, y + lane.height - 3, x1 - x0 - 6);
            }
          }
          g.globalAlpha = 1;
          g.fillStyle = color("--faint");
          g.fillText(J.effects.length ? "effects" : "no effects recorded", 4, lane.top + 10);
          if (now) {
            const px = Math.round(x(axis.rowAt(now))) + 0.5;
            g.strokeStyle = color("--accent");
            g.lineWidth = 2;
            g.beginPath(); g.moveTo(px, 14); g.lineTo(px, h); g.stroke();
          }
        }

        function effectAt(px, py) {
          const canvas = $("axis");
          const w = canvas.clientWidth;
          const [a, b] = win;
          const v = a + (px / w) * (b - a);
          const lane = laneGeometry(canvas.clientHeight);
          const k = Math.floor((py - lane.top) / lane.height);
          const slack = (3 / w) * (b - a);
          const hit = (f) => axis.lane(f) === k && axis.start(f) - slack <= v && v <= axis.end(f) + slack;
          return J.effects.find(hit) || null;
        }

        function nearestRow(v) {
          const rows = J.rows;
          if (!rows.length) return -1;
          if (axisMode === "steps") return Math.max(0, Math.min(rows.length - 1, Math.round(v)));
          let lo = 0, hi = rows.length - 1;
          while (lo < hi) { const mid = (lo + hi) >> 1; if (rows[mid].t < v) lo = mid + 1; else hi = mid; }
          if (lo > 0 && Math.abs(rows[lo - 1].t - v) <= Math.abs(rows[lo].t - v)) lo--;
          return lo;
        }

        function setupAxis() {
          const canvas = $("axis");
          let drag = null;
          $("axis-mode").addEventListener("click", () => setAxisMode(axisMode === "time" ? "steps" : "time"));
          canvas.addEventListener("wheel", (e) => {
            e.preventDefault();
            const rect = canvas.getBoundingClientRect();
            const f = (e.clientX - rect.left) / rect.width;
            const [a, b] = win;
            const at = a + f * (b - a);
            const width = Math.max(axisMode === "time" ? 2 : 4, (b - a) * Math.exp(e.deltaY * 0.0015));
            win = [at - f * width, at - f * width + width];
            drawAxis();
          }, { passive: false });
          canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, win: win.slice(), moved: false }; });
          window.addEventListener("mousemove", (e) => {
            const rect = canvas.getBoundingClientRect();
            if (drag) {
              const dx = e.clientX - drag.x;
              if (Math.abs(dx) > 3) drag.moved = true;
              const dv = (dx / rect.width) * (drag.win[1] - drag.win[0]);
              win = [drag.win[0] - dv, drag.win[1] - dv];
              drawAxis();
              return;
            }
            const tip = $("axis-tip");
            const fx = e.target === canvas ? effectAt(e.clientX - rect.left, e.clientY - rect.top) : null;
            if (!fx) { tip.style.display = "none"; return; }
            const r = J.rows[fx.row];
            tip.textContent = `effect ${fx.name} of #${r.seq} ${r.name} · ` +
              `${Number.isFinite(fx.end) ? between(fx.end - fx.start) : "still running"} · ${fx.outcome}` +
              (fx.error ? `: ${fx.error}` : "");
            tip.style.display = "block";
            tip.style.left = `${Math.max(0, Math.min(e.clientX - rect.left + 12, rect.width - tip.offsetWidth - 4))}px`;
            tip.style.top = `${e.clientY - rect.top + 12}px`;
          });
          window.addEventListener("mouseup", (e) => {
            if (!drag) return;
            const wasDrag = drag.moved;
            drag = null;
            if (wasDrag) return;
            const rect = canvas.getBoundingClientRect();
            const px = e.clientX - rect.left, py = e.clientY - rect.top;
            const fx = effectAt(px, py);
            if (fx) return select(fx.row);
            const i = nearestRow(win[0] + (px / rect.width) * (win[1] - win[0]));
            if (i >= 0) select(i);
          });
          canvas.addEventListener("dblclick", () => { fitAxis(); drawAxis(); });
        }

        // ---- Loading ----------------------------------------------------------------------------------------
        function banner(text, error = false) {
          const b = $("banner");
          b.textContent = text;
          b.className = error ? "error" : "";
          b.style.display = text ? "block" : "none";
        }

        function showOverlay(content) {
          const box = $("overlay-box");
          box.textContent = "";
          if (content) box.append(content);
          $("overlay").classList.toggle("show", !!content);
        }

        async function load(text, name) {
          const started = performance.now();
          document.body.dataset.state = "loading";
          const box = el("div");
          box.append(el("div", null, `Reading ${name || "the journal"}…`));
          const bar = el("div");
          bar.id = "progress";
          const fill = el("div");
          bar.append(fill);
          box.append(bar);
          showOverlay(box);
          togglePlay(false);
          J = await parse(text, name, (f) => { fill.style.width = `${Math.round(f * 100)}%`; });
          blobs = null;
          axisMode = J.coarse ? "steps" : "time";
          $("axis-mode").textContent = axisMode === "time" ? "axis: time" : "axis: step order";
          win = null;
          sel = -1;
          showOverlay(null);
          $("file").textContent = name || "";
          $("file").title = name || "";
          const minutes = J.rows.length ? between(J.t1 - J.t0) : "";
          $("summary").textContent = J.rows.length ? `· ${J.rows.length.toLocaleString()} steps` +
            ` · ${J.stores.length} stores · ${J.effects.length} effects · ${minutes}` : "";
          fillSelect($("action-filter"), [...J.actions.entries()].sort((a, b) => a[0].localeCompare(b[0]))
            .map(([n, c]) => [n, `${n} (${c.toLocaleString()})`]));
          fillSelect($("store-filter"),
            J.stores.map((s, id) => [String(id), `${s.name} (${s.count.toLocaleString()})`]));
          $("scrub").max = String(Math.max(0, J.rows.length - 1));
          const problems = J.problems;
          const lines = problems.length === 1 ? "A line" : `${problems.length} lines`;
          banner(problems.length ? `${lines} could not be read: ` +
            problems.slice(0, 3).join("; ") + (problems.length > 3 ? "; …" : "") : "",
            problems.length > 0 && J.rows.length === 0);
          applyFilters(false);
          if (J.rows.length === 0) {
            welcome();
          } else {
            const m = /^#step-(\d+)$/.exec(location.hash);
            const want = m ? Number(m[1]) - 1 : J.rows.length - 1;
            select(want >= 0 && want < J.rows.length ? want : J.rows.length - 1, { hash: false });
            $("list").focus({ preventScroll: true });
          }
          const ms = performance.now() - started;
          document.body.dataset.loadMs = String(Math.round(ms));
          document.body.dataset.state = "ready";
        }

        function fillSelect(select, options) {
          const keep = select.value;
          while (select.options.length > 1) select.remove(1);
          for (const [value, label] of options) select.add(new Option(label, value));
          select.value = options.some(([v]) => v === keep) ? keep : "";
        }

        function welcome() {
          const d = $("detail");
          d.textContent = "";
          const w = el("div", "welcome");
          w.append(el("h1", null, J.header ? "No steps recorded" : "Fluxion journal viewer"));
          w.append(el("p", null, J.header ? "This journal holds no action yet." :
            "Open a journal file (.jsonl) that a Fluxion Journal wrote, or drop one on this page."));
          const p = el("p");
          const b = el("button", null, "Open journal…");
          b.addEventListener("click", () => $("picker").click());
          p.append(b);
          w.append(p);
          d.append(w);
          $("where").textContent = "no steps";
        }

        async function openFile(file) {
          if (!file) return;
          try {
            await load(await file.text(), file.name);
          } catch (e) {
            showOverlay(null);
            banner(`${file.name} could not be read: ${e.message}`, true);
          }
        }

        // ---- Keys and controls -------------------------------------------------------------------------------------
        function helpBox() {
          const box = el("div");
          box.id = "help";
          box.append(el("h3", null, "Keyboard"));
          const table = el("table");
          for (const [keys, what] of [["← →  or  h l", "step back and forth in time (every step)"],
            ["↑ ↓  or  k j", "previous and next step in the list (as filtered)"], ["PgUp PgDn", "a page of the list"],
            ["Home End", "first and last step"], ["c", "go to the step that caused this one"],
            ["Space", "play the session step by step"], ["/", "search"], ["Esc", "clear the search, close this"],
            ["?", "this help"]]) {
            const tr = el("tr");
            tr.append(el("td", null, keys), el("td", null, what));
            table.append(tr);
          }
          box.append(table);
          box.append(el("p", "empty-note", "Each row is one step: an action (or a batch) that committed, the " +
            "stores it changed, and its cause: ↩ #n queued by step n, ↳ name #n an effect of step n. The axis " +
            "above shows when each step ran and how long each effect lived."));
          return box;
        }

        function setup() {
          const list = $("list");
          list.addEventListener("scroll", () => renderRows());
          list.addEventListener("click", (e) => {
            const node = e.target.closest(".row");
            if (node) select(Number(node.dataset.row), { scroll: false });
            list.focus({ preventScroll: true });
          });
          let timer = 0;
          $("search").addEventListener("input", () => {
            clearTimeout(timer);
            timer = setTimeout(() => applyFilters(), J.rows.length > 20000 ? 200 : 60);
          });
          $("search").addEventListener("keydown", (e) => {
            if (e.key === "Enter") { clearTimeout(timer); applyFilters(); if (view.length) select(view[0]); }
            if (e.key === "Escape") { $("search").value = ""; applyFilters(); list.focus(); }
            if (e.key === "ArrowDown") { e.preventDefault(); list.focus(); moveInList(1); }
          });
          for (const id of ["action-filter", "store-filter", "errors-only", "hide-dropped"]) {
            $(id).addEventListener("change", () => applyFilters());
          }
          $("open").addEventListener("click", () => $("picker").click());
          $("picker").addEventListener("change", (e) => openFile(e.target.files[0]));
          $("help-button").addEventListener("click", () => showOverlay($("overlay").classList.contains("show") ? null :
            helpBox()));
          $("overlay").addEventListener("click", (e) => { if (e.target === $("overlay")) showOverlay(null); });
          $("first").addEventListener("click", () => select(0));
          $("last").addEventListener("click", () => select(J.rows.length - 1));
          $("prev").addEventListener("click", () => select(sel - 1));
          $("next").addEventListener("click", () => select(sel + 1));
          $("play").addEventListener("click", () => togglePlay());
          $("scrub").addEventListener("input", () => select(Number($("scrub").value), { hash: false }));
          document.addEventListener("dragover", (e) => {
            e.preventDefault();
            document.body.classList.add("dragging");
          });
          document.addEventListener("dragleave", (e) => {
            if (e.relatedTarget === null) document.body.classList.remove("dragging");
          });
          document.addEventListener("drop", (e) => {
            e.preventDefault();
            document.body.classList.remove("dragging");
            openFile(e.dataTransfer.files[0]);
          });
          document.addEventListener("keydown", (e) => {
            const t = e.target;
            const typing = t instanceof HTMLInputElement && t.type !== "checkbox" && t.type !== "range";
            if (typing || t instanceof HTMLSelectElement) {
              return;
            }
            if (e.metaKey || e.ctrlKey || e.altKey) return;
            const page = Math.max(1, Math.floor(list.clientHeight / ROW) - 1);
            const keys = {
              ArrowLeft: () => select(sel - 1), h: () => select(sel - 1), ArrowRight: () => select(sel + 1),
              l: () => select(sel + 1), ArrowUp: () => moveInList(-1), k: () => moveInList(-1),
              ArrowDown: () => moveInList(1), j: () => moveInList(1), PageUp: () => moveInList(-page),
              PageDown: () => moveInList(page), Home: () => view.length && select(view[0]),
              End: () => view.length && select(view[view.length - 1]), " ": () => togglePlay(),
              c: () => { const r = J.rows[sel]; if (r && r.cause && r.cause.row >= 0) select(r.cause.row); },
              "/": () => $("search").focus(), "?": () => showOverlay($("overlay").classList.contains("show") ? null :
                helpBox()),
              Escape: () => {
                if ($("overlay").classList.contains("show")) return showOverlay(null);
                if ($("search").value) { $("search").value = ""; applyFilters(); }
              },
            };
            const act = keys[e.key];
            if (!act || (t instanceof HTMLButtonElement && e.key === " ")) return;
            e.preventDefault();
            act();
          });
          window.addEventListener("resize", () => { renderRows(true); drawAxis(); });
          matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => drawAxis());
          setupAxis();
        }

        setup();
        const data = $("journal");
        const name = data.dataset.name || "";
        const text = data.textContent;
        if (text.trim()) {
          load(text, name);
        } else {
          applyFilters(false);
          welcome();
          document.body.dataset.loadMs = "0";
          document.body.dataset.state = "ready";
        }
        window.fluxionViewer = { load, select, get journal() { return J; }, get selected() { return sel; } };
        })();
        </script>
        </body>
        </html>
        """#
}
