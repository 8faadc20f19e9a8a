// The journal viewer's script, part 6: loading a journal, the keys and controls, and the start.
// FluxionInspector inlines the viewer-*.js files, in the order of `JournalViewerPage.scripts`, in one
// function of viewer.html's <script>: they share its scope.
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
  const refused = J.rows.filter((r) => r.refused).length;
  $("summary").textContent = J.rows.length ? `· ${(J.rows.length - refused).toLocaleString()} steps` +
    (refused ? ` · ${refused.toLocaleString()} refused` : "") +
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
  for (const id of ["action-filter", "store-filter", "errors-only", "refused-only", "hide-dropped"]) {
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
