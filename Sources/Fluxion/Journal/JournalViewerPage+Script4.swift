// The journal viewer's script, part 4 of 4: one part of `JournalViewerPage.template`.
extension JournalViewerPage {
    /// The script, part 4 of 4.
    static let script4 = #"""
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
