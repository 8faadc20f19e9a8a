// The journal viewer's script, part 1: the journal's lines parsed into rows, stores, actions and effects.
// FluxionInspector inlines the viewer-*.js files, in the order of `JournalViewerPage.scripts`, in one
// function of viewer.html's <script>: they share its scope.
const $ = (id) => document.getElementById(id);
const ROW = 26;
const BATCH = "Fluxion.batch";
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
// The newest journal version this viewer reads: FluxionInspector writes it on the journal's element.
const KNOWN_VERSION = Number($("journal").dataset.version);

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

// Milliseconds since 1970, to the microsecond a journal writes: Date.parse keeps whole milliseconds.
function toTime(s) {
  if (typeof s !== "string") return NaN;
  const fraction = /\.(\d+)/.exec(s);
  const t = Date.parse(fraction ? s.replace(fraction[0], "") : s);
  return Number.isFinite(t) ? t + (fraction ? Number(`0.${fraction[1]}`) * 1000 : 0) : NaN;
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
    if (line.kind === "action" || line.kind === "resume" || line.kind === "refusal") {
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
  if (j.version > KNOWN_VERSION) {
    j.problems.unshift(`the journal has version ${j.version}; this viewer knows version ${KNOWN_VERSION}`);
  }
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
  // A refusal changed nothing and is not a step: its sequence is the step it came after.
  const refused = line.kind === "refusal" ? { error: String((line.refusal || {}).error ?? ""),
    reason: String((line.refusal || {}).reason ?? "") } : null;
  const row = {
    i, line: number, seq: line.sequence || 0, t: toTime(line.time), resume,
    name: resume ? "Fluxion.travel" : String(action.name ?? "?"),
    desc: resume ? `resumed from step ${line.sequence}` : String(action.description ?? action.name ?? ""),
    hasPayload: Object.prototype.hasOwnProperty.call(action, "payload"), payload: action.payload,
    error: action.error ?? null, actions: Array.isArray(line.actions) ? line.actions : null,
    replayable: line.replayable === true, redacted: action.redacted === true || (line.actions || []).some(
      (a) => a && a.redacted),
    changes: [], cause: null, effects: null, dropped: false, refused,
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
    if (!refused) bySeq.set(row.seq, i);
    j.actions.set(row.name, (j.actions.get(row.name) || 0) + 1);
  }
  j.rows.push(row);
}

function addEffect(j, line, number, bySeq) {
  const e = line.effect;
  // The end of an effect whose step a resume dropped is marked: a later step may have its number.
  const at = e && e.dropped ? droppedRow(j, line.sequence) : bySeq.get(line.sequence);
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

function droppedRow(j, seq) {
  for (let k = j.rows.length - 1; k >= 0; k--) if (j.rows[k].dropped && j.rows[k].seq === seq) return k;
  return undefined;
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
  // Whole seconds (a file written before version 3): the axis opens in step order.
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
