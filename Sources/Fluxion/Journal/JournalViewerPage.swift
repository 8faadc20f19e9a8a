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
    static let template = [page, style, markup, script1, script2, script3, script4].joined(separator: "\n")

    /// The page up to its style sheet.
    static let page = #"""
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
        """#

    /// The page between its style sheet and its script.
    static let markup = #"""
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
        """#
}
