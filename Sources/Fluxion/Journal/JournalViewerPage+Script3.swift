// The journal viewer's script, part 3 of 4: one part of `JournalViewerPage.template`.
extension JournalViewerPage {
    /// The script, part 3 of 4.
    static let script3 = #"""
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
        // (a file of whole seconds, written before times were to the microsecond, shows more there).
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
          // Times to the microsecond: a session of a few milliseconds fills the axis.
          const spanMs = Math.max(J.t1 - J.t0, J.coarse ? 1000 : 1);
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

        """#
}
