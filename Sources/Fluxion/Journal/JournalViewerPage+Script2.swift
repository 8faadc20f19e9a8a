// The journal viewer's script, part 2 of 4: one part of `JournalViewerPage.template`.
extension JournalViewerPage {
    /// The script, part 2 of 4.
    static let script2 = #"""
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

        """#
}
