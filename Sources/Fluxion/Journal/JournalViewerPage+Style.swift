// The journal viewer's style sheet: one part of `JournalViewerPage.template`.
extension JournalViewerPage {
    /// The style sheet, light and dark.
    static let style = #"""
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
        """#
}
