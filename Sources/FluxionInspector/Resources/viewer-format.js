// The journal viewer's script, part 2: formatting values and times, and the filters.
// FluxionInspector inlines the viewer-*.js files, in the order of `JournalViewerPage.scripts`, in one
// function of viewer.html's <script>: they share its scope.
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
// A time between two recorded times: a file of whole seconds (before version 3) cannot tell less.
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
  const parts = [row.name, row.desc, row.error || "", row.refused ? row.refused.error : "", causeText(row)];
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
  const refusedOnly = $("refused-only").checked;
  if (query && !blobs) blobs = J.rows.map(searchText);
  const out = new Int32Array(J.rows.length);
  let n = 0;
  for (const row of J.rows) {
    if (action && row.name !== action) continue;
    if (store >= 0 && !row.changes.some((c) => c.id === store)) continue;
    if (errors && !row.error && !(row.effects && row.effects.some((f) => f.outcome === "failed"))) continue;
    if (hideDropped && row.dropped) continue;
    if (refusedOnly && !row.refused) continue;
    if (query && !blobs[row.i].includes(query)) continue;
    out[n++] = row.i;
  }
  view = out.subarray(0, n);
  const total = J.rows.length;
  const refused = J.rows.filter((r) => r.refused).length;
  $("count").textContent = n < total ? `${n.toLocaleString()} of ${total.toLocaleString()} rows` :
    `${(total - refused).toLocaleString()} steps` + (refused ? ` · ${refused.toLocaleString()} refused` : "");
  $("rows").style.height = `${n * ROW}px`;
  $("nothing").hidden = n > 0 || total === 0;
  renderRows(true);
  if (keepSelection && sel >= 0) scrollToRow(sel, false);
  drawAxis();
}
