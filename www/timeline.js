// The demo's timeline: live entries placed at their expiry time, and the reaper's passes placed at
// the time they ran, on one axis from PAST_S seconds ago to FUTURE_S seconds ahead. Entries due
// later, and those that never expire, are listed at the right-hand edge.

import { literal, setText } from "./format.js";

const PAST_S = 30;
const FUTURE_S = 90;
const LANES = 4;
const PASSES_MAX = 200;

/**
 * Mounts the timeline in `root` (the panel, data-testid="timeline-panel"). Returns
 * `{ render(entries), pass(report, removedKeys) }`: `render` takes `[{ key, expiresAt }]` (Unix
 * seconds, null = never) and redraws; `pass` records a reaper pass that just ended.
 */
export function mountTimeline(root) {
  const axis = root.querySelector('[data-layer="axis"]');
  const marks = root.querySelector('[data-layer="marks"]');
  const later = root.querySelector('[data-testid="timeline-later"]');
  const passes = []; // { at: ms, removed, keys }
  let entries = [];

  // Seconds ahead (negative: in the past) as a left offset in percent.
  const x = (secsFromNow) => ((secsFromNow + PAST_S) / (PAST_S + FUTURE_S)) * 100;

  for (let s = -PAST_S + 15; s < FUTURE_S; s += 15) {
    const tick = document.createElement("span");
    tick.className = s === 0 ? "tick now" : "tick";
    tick.style.left = `${x(s)}%`;
    tick.textContent = s === 0 ? "now" : `${s > 0 ? "+" : ""}${s} s`;
    if (s === 0) tick.dataset.testid = "timeline-now";
    axis.append(tick);
  }

  function render(list = entries) {
    entries = list;
    const now = Date.now() / 1000;
    marks.replaceChildren();
    const beyond = [];
    // Lanes keep labels of entries due at nearly the same moment from covering each other.
    const laneEnds = new Array(LANES).fill(-Infinity);
    const due = entries
      .filter((e) => e.expiresAt !== null && e.expiresAt - now <= FUTURE_S)
      .sort((a, b) => a.expiresAt - b.expiresAt);
    for (const e of due) {
      const left = x(Math.max(-PAST_S, e.expiresAt - now));
      let lane = laneEnds.findIndex((end) => left - end > 9);
      if (lane < 0) lane = laneEnds.indexOf(Math.min(...laneEnds));
      laneEnds[lane] = left;
      const m = document.createElement("span");
      m.className = "mark entry";
      m.dataset.testid = "timeline-entry";
      m.dataset.key = String(e.key);
      m.style.left = `${left}%`;
      m.style.top = `${8 + lane * 22}px`;
      m.textContent = String(e.key);
      m.title = `${literal(e.key)} expires in ${(e.expiresAt - now).toFixed(1)} s`;
      marks.append(m);
    }
    for (const e of entries) if (e.expiresAt === null || e.expiresAt - now > FUTURE_S) beyond.push(e);
    setText(later, beyond.length
      ? `later or never: ${beyond.slice(0, 12).map((e) => `${String(e.key)} (${e.expiresAt === null ? "never" : `in ${Math.round(e.expiresAt - now)} s`})`).join(", ")}${beyond.length > 12 ? ", …" : ""}`
      : "");
    while (passes.length && passes[0].at / 1000 < now - PAST_S) passes.shift();
    for (const p of passes) {
      const m = document.createElement("span");
      m.className = p.removed > 0 ? "mark pass removed" : "mark pass";
      m.dataset.testid = "timeline-pass";
      m.dataset.removed = String(p.removed);
      m.style.left = `${x(p.at / 1000 - now)}%`;
      m.title = p.removed > 0 ? `reaper pass: removed ${p.keys.map(literal).join(", ") || p.removed}` : "reaper pass: nothing expired";
      if (p.removed > 0) m.textContent = `−${p.removed}`;
      marks.append(m);
    }
  }

  function pass(report, keys = []) {
    passes.push({ at: Date.now(), removed: report?.removed ?? 0, keys });
    if (passes.length > PASSES_MAX) passes.shift();
    render();
  }

  return { render, pass };
}
