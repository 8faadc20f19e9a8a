// The journal viewer's script, part 5: the time axis of steps and effects.
// FluxionInspector inlines the viewer-*.js files, in the order of `JournalViewerPage.scripts`, in one
// function of viewer.html's <script>: they share its scope.
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
    // NB: a cancelled effect is drawn as boldly as a finished one, in a colour of its own, and every effect
    // has its label: inside its bar when it fits, after it otherwise.
    const fill = effectColor(f.outcome, color);
    const mine = now && f.row === now.i;
    g.globalAlpha = mine ? 1 : 0.85;
    g.fillStyle = fill;
    g.fillRect(x0, y, x1 - x0, lane.height - 2);
    if (mine) {
      g.strokeStyle = color("--text");
      g.strokeRect(x0 + 0.5, y + 0.5, x1 - x0 - 1, lane.height - 3);
    }
    if (lane.height >= 10) {
      g.globalAlpha = 1;
      const label = f.outcome === "finished" || f.outcome === "running" ? f.name : `${f.name} · ${f.outcome}`;
      const inside = g.measureText(label).width + 6 <= x1 - x0;
      g.fillStyle = inside ? color("--bg") : fill;
      g.fillText(label, inside ? x0 + 3 : x1 + 3, y + lane.height - 3);
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

/** The colour of an effect's bar: finished, failed, cancelled (or dropped) and running each have their own. */
function effectColor(outcome, color) {
  switch (outcome) {
    case "failed": return color("--del");
    case "running": return color("--accent");
    case "finished": return color("--add");
    default: return color("--warn");
  }
}
