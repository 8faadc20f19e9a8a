// The journal viewer's script, part 4: the selected step: its changes, diffs and the stores' state.
// FluxionInspector inlines the viewer-*.js files, in the order of `JournalViewerPage.scripts`, in one
// function of viewer.html's <script>: they share its scope.
// ---- The selected step --------------------------------------------------------------------------------------
function renderDetail(row) {
  const d = $("detail");
  d.textContent = "";
  if (!row) return;
  const h = el("h1");
  h.append(el("span", "seqno", row.resume ? "⟲" : row.refused ? "✗" : `#${row.seq}`));
  h.append(row.resume ? "Resumed after time travel" : row.refused ? `${row.name} (refused)` : row.name);
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
  if (row.refused) {
    d.append(el("div", "callout error", `Refused (${row.refused.reason}): ${row.refused.error}. It changed ` +
      `nothing and is not a step: the stores are as step #${row.seq} left them.`));
  }

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
  const line = { kind: row.resume ? "resume" : row.refused ? "refusal" : "action", sequence: row.seq, time };
  if (!row.resume) line.action = { name: row.name, description: row.desc };
  if (row.hasPayload) line.action.payload = row.payload;
  if (row.error) line.action.error = row.error;
  if (row.actions) line.actions = row.actions;
  if (row.refused) line.refusal = row.refused;
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
