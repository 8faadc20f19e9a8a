// The journal viewer's script, part 3: the list of steps, the selection and time travel.
// FluxionInspector inlines the viewer-*.js files, in the order of `JournalViewerPage.scripts`, in one
// function of viewer.html's <script>: they share its scope.
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
    (row.resume ? " resume" : "") + (row.refused ? " refused" : "");
  node.setAttribute("aria-selected", row.i === sel ? "true" : "false");
  const [seq, time, name, tags] = node.children;
  seq.textContent = row.resume ? "⟲" : row.refused ? "✗" : `#${row.seq}`;
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
  node.title = `${row.desc}${row.refused ? ` refused: ${row.refused.error}` : ""}` +
    `${row.dropped ? " (dropped by time travel)" : ""}`;
  tags.textContent = "";
  if (row.refused) tags.append(el("span", "chip refused", "✗ refused"));
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
  const label = row.resume ? "⟲" : row.refused ? `✗ after #${row.seq}` : `#${row.seq}`;
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
