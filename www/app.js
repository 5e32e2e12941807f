// The idb-ttl demo page: plain ES module, no bundler, no framework.
// Everything it shows comes from the library's public API (see docs/API.md and the guides in docs/).
// This file: the key-value panels; collections.js: the TTL-indexed collection and the time series;
// tiers.js: the hand-off to a (simulated) server, the archive, the cap, and a collection with tiers.

import { appendCell, clock, describe, errorText, formatExpiresAt, formatLeft, kindOf, literal, setText } from "./format.js";
import { mountCollections } from "./collections.js";
import { mountTimeline } from "./timeline.js";
import { mountWatch } from "./watch.js";
import { createServer, demoConfig, mountTiers, storeOptions } from "./tiers.js";

const DB_NAME = "idb-ttl-demo";
const REAP_INTERVAL_MS = 2000;
const TICK_MS = 250;
const LOG_MAX = 200;

const $ = (id) => document.getElementById(id);
const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);

let store = null;
const timeline = mountTimeline(byTestId("timeline-panel"));
// Keys the reaper removed since the timeline last recorded a pass (from "expired" events).
const expiredSince = [];
let passesSeen = 0;

// ---------- the form ----------

const form = $("entry-form");
const keyInput = $("key");
const valueInput = $("value");
const asObject = $("as-object");
const expiryInput = $("expiry");
const expiryHint = $("expiry-hint");
const presets = $("presets");
const callPreview = $("call-preview");
const formError = $("form-error");
const formOk = $("form-ok");

const MODES = {
  none: {
    placeholder: "no expiry",
    hint: "The entry lives until it is deleted.",
    presets: () => [],
  },
  ttl: {
    placeholder: "3, PT30S, 2 minutes, 1h 30m",
    hint: "Seconds from now (a number) or a duration: ISO-8601 (PT30S, P1DT2H) or plain (\"2 minutes\").",
    presets: () => [["3", "3"], ["10", "10"], ["PT30S", "PT30S"], ["2 minutes", "2 minutes"], ["1h 30m", "1h 30m"],
      ["-5", "-5", true], ["soon", "soon", true]],
  },
  expiresAt: {
    placeholder: "2026-12-24T18:00:00+01:00 or Unix seconds",
    hint: "An absolute time: ISO-8601 (no offset = UTC) or Unix time in seconds.",
    presets: () => {
      const now = Date.now();
      const inSecs = (s) => new Date(now + s * 1000).toISOString().replace(/\.\d+Z$/, "Z");
      return [
        [`ISO, in 20 s`, inSecs(20)],
        [`ISO +01:00`, "2026-12-24T18:00:00+01:00"],
        [`Unix s, in 1 min`, String(Math.round(now / 1000) + 60)],
        [`Date.now()`, String(now), true],
        [`2026-02-30`, "2026-02-30", true],
      ];
    },
  },
};

function currentMode() {
  return form.querySelector('input[name="mode"]:checked').value;
}

/** Numbers typed in the field are passed as numbers (Unix seconds / ttl seconds), the rest as strings. */
function expiryArg(raw) {
  const t = raw.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return Number(t);
  if (t === "NaN") return NaN;
  if (t === "Infinity" || t === "+Infinity") return Infinity;
  if (t === "-Infinity") return -Infinity;
  return raw;
}

function buildCall() {
  const key = keyInput.value;
  const text = valueInput.value;
  const mode = currentMode();
  const value = asObject.checked ? { text, savedAt: new Date() } : text;
  const valueSrc = asObject.checked ? `{ text: ${JSON.stringify(text)}, savedAt: new Date() }` : JSON.stringify(text);
  let options;
  let optionsSrc = "";
  if (mode !== "none") {
    const arg = expiryArg(expiryInput.value);
    options = { [mode]: arg };
    optionsSrc = `, { ${mode}: ${literal(arg)} }`;
  }
  return { key, value, options, src: `await store.set(${JSON.stringify(key)}, ${valueSrc}${optionsSrc})` };
}

function renderPresets() {
  presets.replaceChildren();
  for (const [label, value, bad] of MODES[currentMode()].presets()) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = bad ? "chip bad" : "chip";
    b.textContent = label;
    b.title = bad ? `${value} (refused by the library, try it)` : value;
    b.dataset.testid = "preset";
    b.addEventListener("click", () => { expiryInput.value = value; updatePreview(); expiryInput.focus(); });
    presets.append(b);
  }
}

function updateMode() {
  const mode = currentMode();
  const m = MODES[mode];
  expiryInput.disabled = mode === "none";
  expiryInput.placeholder = m.placeholder;
  expiryHint.textContent = m.hint;
  if (mode === "none") expiryInput.value = "";
  renderPresets();
  updatePreview();
}

function updatePreview() {
  callPreview.textContent = buildCall().src;
}

function showError(e) {
  formError.textContent = errorText(e);
  formError.hidden = false;
  formOk.textContent = "";
}

function clearError() {
  formError.hidden = true;
  formError.textContent = "";
}

let okTimer = 0;
async function onSubmit(ev) {
  ev.preventDefault();
  if (!store) return;
  const { key, value, options } = buildCall();
  clearError();
  try {
    await store.set(key, value, options);
    clearTimeout(okTimer);
    formOk.textContent = `Set ${JSON.stringify(key)}.`;
    okTimer = setTimeout(() => { formOk.textContent = ""; }, 3000);
  } catch (e) {
    showError(e);
  }
}

form.addEventListener("submit", onSubmit);
form.addEventListener("input", updatePreview);
for (const r of form.querySelectorAll('input[name="mode"]')) r.addEventListener("change", updateMode);

// ---------- the entries table ----------

const tbody = $("entries-body");
const emptyNote = $("entries-empty");
const countEl = $("entry-count");
const rows = new Map(); // rowId -> { tr, cells, expiresAt }
let entries = []; // [{ key, value, expiresAt }], in the store's key order

const rowId = (key) => `${typeof key}:${key}`;

function actionButton(label, testid, title, handler) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "ghost small";
  b.textContent = label;
  b.title = title;
  b.dataset.testid = testid;
  b.addEventListener("click", async () => {
    b.disabled = true;
    try { await handler(); } catch (e) { logLine("error", errorText(e)); } finally { b.disabled = false; }
  });
  return b;
}

function makeRow(key) {
  const tr = document.createElement("tr");
  tr.dataset.testid = "entry-row";
  tr.dataset.key = String(key);
  const cell = (testid, cls) => appendCell(tr, testid, cls);
  const cells = {
    key: cell("entry-key", "mono"),
    value: cell("entry-value", "mono value"),
    expires: cell("entry-expires", "mono expires"),
    left: cell("entry-ttl", "num mono"),
  };
  const act = document.createElement("td");
  act.className = "row-actions";
  act.append(
    actionButton("Persist", "entry-persist", `store.persist(${literal(key)})`, () => store.persist(key)),
    actionButton("Expire in 10 s", "entry-expire10", `store.expire(${literal(key)}, { ttl: 10 })`, () => store.expire(key, { ttl: 10 })),
    actionButton("Delete", "entry-delete", `store.delete(${literal(key)})`, () => store.delete(key)),
  );
  act.lastChild.classList.add("danger");
  tr.append(act);
  return { tr, cells };
}

function renderEntries() {
  const seen = new Set();
  let prev = null;
  for (const e of entries) {
    const id = rowId(e.key);
    seen.add(id);
    let row = rows.get(id);
    if (!row) {
      row = makeRow(e.key);
      rows.set(id, row);
    }
    // Keep DOM order equal to key order without recreating rows (buttons stay clickable).
    const want = prev ? prev.nextSibling : tbody.firstChild;
    if (want !== row.tr) tbody.insertBefore(row.tr, want);
    prev = row.tr;

    row.cells.key.textContent = String(e.key);
    const desc = describe(e.value);
    if (row.cells.value.dataset.desc !== desc) {
      row.cells.value.dataset.desc = desc;
      row.cells.value.replaceChildren();
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = kindOf(e.value);
      const text = document.createElement("span");
      text.className = "text";
      text.dataset.testid = "entry-value-text";
      text.textContent = desc;
      text.title = desc;
      const wrap = document.createElement("div");
      wrap.className = "value-wrap";
      wrap.append(badge, text);
      row.cells.value.append(wrap);
    }
    row.expiresAt = e.expiresAt;
    if (e.expiresAt === null) {
      row.cells.expires.textContent = "—";
      row.cells.expires.title = "no expiry (expiresAt: null)";
    } else {
      row.cells.expires.textContent = formatExpiresAt(e.expiresAt);
      row.cells.expires.title = `Unix seconds: ${e.expiresAt}`;
    }
    row.tr.querySelector('[data-testid="entry-persist"]').hidden = e.expiresAt === null;
  }
  for (const [id, row] of rows) {
    if (!seen.has(id)) { row.tr.remove(); rows.delete(id); }
  }
  countEl.textContent = String(entries.length);
  emptyNote.hidden = entries.length > 0;
  renderCountdowns();
  timeline.render(entries);
}

function renderCountdowns() {
  const now = Date.now() / 1000;
  for (const row of rows.values()) {
    const left = row.cells.left;
    if (row.expiresAt === null || row.expiresAt === undefined) {
      setText(left, "never");
      left.className = "num mono never";
    } else {
      const secs = row.expiresAt - now;
      setText(left, formatLeft(secs));
      left.className = `num mono ${secs < 5 ? "soon" : ""}`;
    }
  }
}

// The table is a live view of every key (from -Infinity, the lowest key there is): the store
// hands over a fresh list after each change to them (a write, delete, clear or reap, in this tab
// or another) and as each entry expires, so the page never polls IndexedDB for it; only the
// countdowns tick.
function showEntries() {
  store.observe({ from: -Infinity }, (list) => {
    entries = list;
    renderEntries();
  });
}

$("clear").addEventListener("click", async () => {
  try { await store.clear(); } catch (e) { logLine("error", errorText(e)); }
});

// ---------- the reaper panel ----------

const logEl = $("event-log");

function logLine(type, text) {
  const li = document.createElement("li");
  li.dataset.testid = "log-line";
  li.dataset.type = type;
  const time = document.createElement("time");
  time.textContent = clock();
  const tag = document.createElement("span");
  tag.className = `tag ${type}`;
  tag.textContent = type;
  const msg = document.createElement("span");
  msg.className = "msg";
  msg.textContent = text;
  li.append(time, tag, msg);
  logEl.prepend(li);
  while (logEl.children.length > LOG_MAX) logEl.lastChild.remove();
}

function reportText(r) {
  if (!r) return "—";
  const ms = typeof r.durationMs === "number" ? r.durationMs.toFixed(1) : r.durationMs;
  const more = [];
  if (r.archived) more.push(`archived ${r.archived}`);
  if (r.handedOff) more.push(`handed off ${r.handedOff}`);
  if (r.archiveRemoved) more.push(`${r.archiveRemoved} left the archive`);
  if (r.handOffFailed) more.push("hand-off failed");
  return `removed ${r.removed}, remaining ${r.remaining}, ${ms} ms${more.length ? ` · ${more.join(", ")}` : ""}`;
}

// Since when (ms) this tab has been a follower, or null. Right after open() the tab is briefly a
// follower until its Web Lock is granted; only a tab that followed for longer took over from another.
let followerSince = null;
const TAKEOVER_AFTER_MS = 1000;

function renderStats() {
  if (!store) return;
  const s = store.stats();
  if (s.reaperRuns > passesSeen) {
    passesSeen = s.reaperRuns;
    timeline.pass(s.lastRun, expiredSince.splice(0));
  }
  setText(byTestId("stat-reaperRuns"), String(s.reaperRuns));
  setText(byTestId("stat-leader"), s.leader ? "this tab" : "another tab");
  if (!s.leader) followerSince ??= Date.now();
  else if (followerSince !== null) {
    if (Date.now() - followerSince > TAKEOVER_AFTER_MS) logLine("leader", "this tab took over the reaper (the leader tab closed or paused)");
    followerSince = null;
  }
  setText(byTestId("stat-removedTotal"), String(s.removedTotal));
  setText(byTestId("stat-lastRun"), reportText(s.lastRun));
  const paused = byTestId("stat-reaperPaused");
  setText(paused, String(s.reaperPaused));
  paused.className = s.reaperPaused ? "paused" : "running";
  $("reaper-pause").disabled = s.reaperPaused;
  $("reaper-resume").disabled = !s.reaperPaused;
}

$("reap-now").addEventListener("click", async () => {
  try {
    const r = await store.reap();
    logLine("reap", `reap() → ${reportText(r)}`);
    renderStats();
  } catch (e) { logLine("error", errorText(e)); }
});
$("reaper-pause").addEventListener("click", () => { store.pauseReaper(); logLine("reaper", "pauseReaper()"); renderStats(); });
$("reaper-resume").addEventListener("click", () => { store.resumeReaper(); logLine("reaper", "resumeReaper()"); renderStats(); });
$("log-clear").addEventListener("click", () => logEl.replaceChildren());

/** The "expired" detail: `{ keys, collections: { name: ids }, timeSeries: { name: buckets } }`. */
function expiredText(detail) {
  const parts = [];
  const keys = detail?.keys ?? [];
  if (keys.length) parts.push(`${keys.length} expired: ${keys.map(literal).join(", ")}`);
  for (const [name, ids] of Object.entries(detail?.collections ?? {})) {
    parts.push(`collection "${name}": ${ids.length} document${ids.length === 1 ? "" : "s"} (${ids.map(literal).join(", ")})`);
  }
  for (const [name, n] of Object.entries(detail?.timeSeries ?? {})) {
    parts.push(`time series "${name}": ${n} whole bucket${n === 1 ? "" : "s"}`);
  }
  return parts.join(" · ") || "0 expired";
}

function describeDetail(detail) {
  if (detail === undefined || detail === null) return "";
  if (typeof detail !== "object") return String(detail);
  return describe(detail);
}

// ---------- start ----------

function setStatus(state, text) {
  const el = byTestId("status");
  el.dataset.state = state;
  byTestId("status-text").textContent = text;
}

function fail(stage, e, fixHint) {
  setStatus("error", "Not loaded");
  const banner = byTestId("error-banner");
  banner.replaceChildren();
  const strong = document.createElement("strong");
  strong.textContent = `The idb-ttl library failed to ${stage}. `;
  banner.append(strong);
  if (fixHint) {
    const code = document.createElement("code");
    code.textContent = "scripts/demo.sh";
    banner.append("To fix it, run ", code,
      " from the repository root: it builds the wasm module into www/pkg/ and serves this page.");
  }
  const detail = document.createElement("pre");
  detail.dataset.testid = "error-detail";
  detail.textContent = errorText(e);
  banner.append(detail);
  banner.hidden = false;
}

async function main() {
  $("loaded-at").textContent = clock();
  $("interval").textContent = `${REAP_INTERVAL_MS / 1000} s`;
  updateMode();

  let mod;
  try {
    // The npm package as shipped (scripts/build.sh copies pkg/ here); no init() needed.
    mod = await import("./pkg/index.js");
  } catch (e) {
    fail("load (./pkg/index.js)", e, true);
    return;
  }
  // The store hands expired records to a server tier simulated in this page, archives them and
  // caps its entries (tiers.js; the query string can change these options).
  const config = demoConfig();
  const server = createServer(config);
  try {
    store = await mod.TtlStore.open(DB_NAME, storeOptions(config, {
      reapIntervalMs: REAP_INTERVAL_MS,
      onExpire: (records) => server.onExpire(records),
    }));
  } catch (e) {
    fail(`open the store "${DB_NAME}"`, e, false);
    return;
  }
  window.store = store; // for poking at it from the devtools console
  window.server = server; // the simulated server tier (tiers.js): its receipts, calls, the down switch

  // With the demo open in several tabs, one of them reaps; the others hear of it (detail.remote).
  const fromElsewhere = (d) => (d?.remote ? " (from another tab)" : "");
  store.addEventListener("expired", (ev) => {
    if (!ev.detail?.remote) expiredSince.push(...(ev.detail?.keys ?? []));
    logLine("expired", expiredText(ev.detail) + fromElsewhere(ev.detail));
    renderStats();
  });
  store.addEventListener("change", (ev) => {
    logLine("change", describeDetail(ev.detail) + fromElsewhere(ev.detail));
  });
  // A background reaper pass that failed (e.g. IndexedDB closed under it), or onExpire that
  // failed (the simulated server is down: expected, so not logged as an error).
  try {
    store.addEventListener("error", (ev) => {
      const err = ev.detail?.error;
      if (err?.name === "HandOffError") logLine("handoff", errorText(err));
      else logLine("error", `reaper: ${errorText(err)}`);
    });
  } catch (e) {
    logLine("error", `addEventListener("error"): ${errorText(e)}`);
  }

  for (const id of ["reap-now", "clear"]) $(id).disabled = false;
  form.querySelector('button[type="submit"]').disabled = false;
  setStatus("ready", `Ready · ${DB_NAME} · reaper every ${REAP_INTERVAL_MS / 1000} s`);

  showEntries();
  renderStats();
  setInterval(() => { renderCountdowns(); renderStats(); timeline.render(); }, TICK_MS);

  mountWatch({ store, panel: byTestId("watch-panel"), logLine });
  await mountCollections({ store, logLine, reapIntervalMs: REAP_INTERVAL_MS });
  await mountTiers({ store, logLine, server, config, reapIntervalMs: REAP_INTERVAL_MS, dbName: DB_NAME });
}

main();
