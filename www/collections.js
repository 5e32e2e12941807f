// The demo's second part: a collection with a TTL index (`events`) and a time series (`sensors`),
// both in the store app.js opened. Everything shown is read back through the library's public API;
// the only thing computed on the page is the displayed expiry of a document (its field + expireAfter).

import { appendCell, clock, describe, errorText, formatExpiresAt, formatLeft, kindOf, literal, put, setText } from "./format.js";

const COLLECTION = "events";
const TTL_INDEX = { field: "createdAt", expireAfter: 30 };
// A dropped TTL index stays dropped across reloads: opening the collection with a `ttlIndex` option
// would create one again, so the page remembers (in localStorage) that the visitor dropped it.
const DROPPED_FLAG = "idb-ttl-demo:events:ttl-index-dropped";
const SERIES = "sensors";
const SERIES_OPTIONS = { timeField: "ts", metaField: "sensor", granularity: "seconds", expireAfter: 20 };
const SENSORS = [
  { id: "kitchen", base: 21, swing: 1.5 },
  { id: "garage", base: 12, swing: 3 },
  { id: "attic", base: 27, swing: 2 },
];
const STREAM_MS = 200;
const BURST_PER_SENSOR = 1000;
const BURST_SPAN_SECS = 15;
// The documents table's countdowns tick on this timer (the DOM only); its reads (on events, see
// mountCollection) are at least this far apart.
const DOC_TICK_MS = 250;
// The time-series panel's reads (on events, see mountSeries) are at least this far apart; its
// clock-dependent cells (events in the last 5 s, "s ago", the sparklines) are redrawn this often
// from what it read, while it shows live events.
const SERIES_TICK_MS = 500;
// The only re-read on a timer (see mountSeries): while the series holds live events the panel's
// queries do not show, whose expiry it cannot know. The reaper's interval; also the retry of a
// read that failed.
const SLOW_READ_MS = 2000;
// setTimeout's longest delay; a longer one would fire at once.
const MAX_DELAY_MS = 0x7fffffff;
const RECENT_SECS = 5;
// Unix seconds of 9999-12-31T23:59:59Z: a later reference is not a date (the library's bound).
const MAX_REFERENCE_SECS = 253402300799;
const UNIT_SECS = { s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };

const $ = (id) => document.getElementById(id);
const nowSecs = () => Date.now() / 1000;

/**
 * A panel's reads of IndexedDB, made only when something may have changed. `read()` reads and
 * draws, and resolves to the Date.now() ms at which what it read changes with no event to say so
 * (an expiry), or Infinity. `wanted()`: an event says something may have changed, read as soon as
 * `gapMs` after the last read's start allows. `now()`: read at once (after the panel's own
 * actions), resolving when drawn; an event during a read asks for one more. `tick()`, when given,
 * is called every `gapMs` between reads while `ticking()` says so (for redraws without a read). A
 * failed read is logged by `read` itself (it rethrows) and retried after SLOW_READ_MS.
 */
function reader({ gapMs, read, tick = null, ticking = () => false }) {
  let readAt = Infinity; // when a read is due; Infinity: none until an event or an expiry
  let lastRead = -Infinity; // when the last read began
  let timer = 0;
  let running = null;

  function plan() {
    clearTimeout(timer);
    timer = 0;
    if (running) return; // the read under way plans when done
    const t = Date.now();
    let at = Math.max(readAt, lastRead + gapMs);
    if (tick && ticking()) at = Math.min(at, t + gapMs);
    if (at === Infinity) return;
    timer = setTimeout(wake, Math.min(MAX_DELAY_MS, Math.max(0, at - t)));
  }

  function wake() {
    timer = 0;
    const t = Date.now();
    if (t >= readAt && t >= lastRead + gapMs) now();
    else {
      tick?.();
      plan();
    }
  }

  function now() {
    if (running) return running;
    clearTimeout(timer);
    timer = 0;
    lastRead = Date.now();
    readAt = Infinity;
    running = (async () => {
      try {
        const due = await read();
        readAt = Math.min(readAt, due);
      } catch {
        readAt = Math.min(readAt, Date.now() + SLOW_READ_MS);
      } finally {
        running = null;
        plan();
      }
    })();
    return running;
  }

  function wanted() {
    readAt = Math.min(readAt, Date.now());
    plan();
  }

  return { now, wanted };
}

/** Numbers typed in a field are passed as numbers (seconds), the rest as strings (durations). */
function numberOrText(raw) {
  const t = raw.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : raw;
}

function indexText(idx) {
  if (!idx) return "null (no TTL index: documents never expire)";
  return `{ field: ${JSON.stringify(idx.field)}, expireAfter: ${idx.expireAfter}, unit: ${JSON.stringify(idx.unit)} }`;
}

// ---------- TTL-index semantics, mirrored for display only ----------

/** An ISO-8601 date or date-time as the library reads it (no offset = UTC), in Unix seconds, or null. */
function isoSecs(s) {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return null;
  const t = Date.parse(m[2] ? `${m[1]}T${m[2]}${m[3] ?? "Z"}` : `${m[1]}T00:00:00Z`);
  return Number.isNaN(t) ? null : t / 1000;
}

/**
 * The reference instant (Unix seconds) of a field value under an index with `unit`, or why there
 * is none: `{ secs }` or `{ never: reason }`. The table's "expires at" comes from here; whether a
 * document is listed at all is the library's answer (values() returns live documents only).
 */
function reference(v, unit) {
  let secs = null;
  if (typeof v === "number") secs = v * UNIT_SECS[unit];
  else if (v instanceof Date) secs = v.getTime() / 1000;
  else if (typeof v === "string") secs = isoSecs(v);
  else if (Array.isArray(v)) {
    const refs = v.filter((x) => !Array.isArray(x)).map((x) => reference(x, unit)).filter((r) => "secs" in r);
    return refs.length ? { secs: Math.min(...refs.map((r) => r.secs)) } : { never: "no date in the array", short: "no date" };
  } else if (v === undefined) return { never: "no createdAt field", short: "no createdAt" };
  if (secs === null || !Number.isFinite(secs)) return { never: `${describe(v)} is not a date`, short: "not a date" };
  if (Math.abs(secs) > MAX_REFERENCE_SECS) {
    return { never: `${describe(v)} read in "${unit}" is after year 9999: not a date`, short: `year > 9999 in "${unit}"` };
  }
  return { secs };
}

// ---------- the collection panel ----------

const REF_KINDS = {
  iso: {
    expr: (ageMs) => (ageMs ? `new Date(Date.now() - ${ageMs}).toISOString()` : "new Date().toISOString()"),
    value: (nowMs) => new Date(nowMs).toISOString(),
    hint: () => "An ISO-8601 string (no offset = UTC): expires at that instant + expireAfter.",
  },
  date: {
    expr: (ageMs) => (ageMs ? `new Date(Date.now() - ${ageMs})` : "new Date()"),
    value: (nowMs) => new Date(nowMs),
    hint: () => "A Date, stored as a Date (structured clone): expires at that instant + expireAfter.",
  },
  secs: {
    expr: (ageMs) => (ageMs ? `Date.now() / 1000 - ${ageMs / 1000}` : "Date.now() / 1000"),
    value: (nowMs) => nowMs / 1000,
    hint: (unit) => `A number is Unix time in the index's unit, here "${unit}".` +
      (unit === "s" ? "" : ` Unix seconds read as "${unit}" land in 1970: such a document is expired at once.`),
  },
  ms: {
    expr: (ageMs) => (ageMs ? `Date.now() - ${ageMs}` : "Date.now()"),
    value: (nowMs) => nowMs,
    hint: (unit) => unit === "ms"
      ? "A number is Unix time in the index's unit, here \"ms\": read as milliseconds."
      : `Unit note: this index reads numbers in "${unit}", so Date.now() (about 1.8e12) is a date after ` +
        "year 9999: put() refuses it with a RangeError rather than keep a document that would never expire. " +
        "An index declared with unit: \"ms\" reads it right.",
  },
  missing: {
    expr: () => null,
    value: () => undefined,
    hint: () => "No createdAt: the document never expires and no error is raised, the supported way to exempt one.",
  },
};

function mountCollection({ store, logLine }) {
  const form = $("doc-form");
  const idInput = $("doc-id");
  const labelInput = $("doc-label");
  const ageInput = $("doc-age");
  const hint = $("ref-hint");
  const preview = $("doc-preview");
  const formError = $("doc-error");
  const formOk = $("doc-ok");
  const indexCode = $("ttl-index");
  const expireInput = $("expire-input");
  const note = $("expire-note");
  const tbody = $("docs-body");
  const emptyNote = $("docs-empty");
  const countEl = $("doc-count");

  let events = null;
  let docs = [];
  const rows = new Map(); // id -> { tr, cells, expiresAt, never }
  let nextId = 1;
  let okTimer = 0;

  const refKind = () => form.querySelector('input[name="ref"]:checked').value;
  const ageMs = () => Math.max(0, Math.round((Number(ageInput.value) || 0) * 1000));
  const unit = () => events?.ttlIndex()?.unit ?? "s";

  function buildDoc(nowMs) {
    const id = idInput.value.trim() || `e${nextId}`;
    const label = labelInput.value;
    const kind = REF_KINDS[refKind()];
    const doc = { id, label };
    const v = kind.value(nowMs - ageMs());
    if (v !== undefined) doc.createdAt = v;
    const expr = kind.expr(ageMs());
    const src = `await events.put({ id: ${JSON.stringify(id)}, label: ${JSON.stringify(label)}${expr ? `, createdAt: ${expr}` : ""} })`;
    return { doc, src };
  }

  function updateForm() {
    idInput.placeholder = `e${nextId}`;
    const idx = events?.ttlIndex();
    hint.textContent = (idx ? "" : "No TTL index now: every document lives until deleted. ") + REF_KINDS[refKind()].hint(unit());
    preview.textContent = buildDoc(Date.now()).src;
  }

  function showError(e) {
    formError.textContent = errorText(e);
    formError.hidden = false;
    formOk.textContent = "";
  }

  function ok(text) {
    formError.hidden = true;
    clearTimeout(okTimer);
    formOk.textContent = text;
    okTimer = setTimeout(() => { formOk.textContent = ""; }, 3000);
  }

  function bumpNextId(id) {
    const m = /^e(\d+)$/.exec(String(id));
    if (m) nextId = Math.max(nextId, Number(m[1]) + 1);
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!events) return;
    const { doc } = buildDoc(Date.now());
    try {
      await events.put(doc);
      bumpNextId(doc.id);
      if (idInput.value.trim() === doc.id) idInput.value = "";
      ok(`Put ${JSON.stringify(doc.id)}.`);
      await refresh();
    } catch (e) {
      showError(e);
    }
    updateForm();
  });
  form.addEventListener("input", updateForm);
  for (const r of form.querySelectorAll('input[name="ref"]')) r.addEventListener("change", updateForm);

  $("doc-samples").addEventListener("click", async () => {
    const now = Date.now();
    const samples = [5, 10, 15, 20, 25].map((age) => {
      const id = `e${nextId++}`;
      return { id, label: `${age} s old`, createdAt: new Date(now - age * 1000).toISOString() };
    });
    samples.push({ id: `e${nextId++}`, label: "no createdAt" });
    try {
      await events.putMany(samples);
      ok(`putMany: ${samples.length} documents.`);
      await refresh();
    } catch (e) {
      showError(e);
    }
    updateForm();
  });

  // ----- the TTL index controls -----

  function renderIndex() {
    const idx = events?.ttlIndex() ?? null;
    indexCode.textContent = indexText(idx);
    indexCode.dataset.expireAfter = idx ? String(idx.expireAfter) : "";
    $("expire-set").disabled = !idx;
    $("ttl-drop").disabled = !idx;
    $("ttl-create").disabled = !!idx;
    $("ttl-create").title = `store.collection("${COLLECTION}", { ttlIndex: { field: "createdAt", expireAfter: <the input> } })`;
  }

  function showNote(text) {
    note.textContent = text;
    note.hidden = false;
  }

  async function setExpireAfter(raw) {
    const arg = numberOrText(raw);
    const before = await events.count();
    const t0 = performance.now();
    await events.setExpireAfter(arg);
    const ms = performance.now() - t0;
    const after = await events.count();
    renderIndex();
    await refresh();
    showNote(`setExpireAfter(${literal(arg)}) took ${ms.toFixed(1)} ms: live documents ${before} → ${after}. ` +
      "No document was rewritten: only the index definition changed, the documents stay keyed by createdAt " +
      "and the new window moves the cut-off.");
  }

  $("expire-set").addEventListener("click", async () => {
    try { await setExpireAfter(expireInput.value); } catch (e) { showNote(errorText(e)); logLine("error", errorText(e)); }
  });
  expireInput.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !$("expire-set").disabled) $("expire-set").click();
  });
  const chips = $("expire-presets");
  for (const v of ["5", "12", "30", "2 minutes"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip";
    b.textContent = v;
    b.title = `events.setExpireAfter(${literal(numberOrText(v))})`;
    b.dataset.testid = "expire-preset";
    b.addEventListener("click", async () => {
      expireInput.value = v;
      if (!$("expire-set").disabled) $("expire-set").click();
    });
    chips.append(b);
  }

  $("ttl-drop").addEventListener("click", async () => {
    try {
      const dropped = await events.dropTtlIndex();
      localStorage.setItem(DROPPED_FLAG, "1");
      renderIndex();
      updateForm();
      await refresh();
      showNote(`dropTtlIndex() → ${dropped}: documents now never expire. They keep their keys, so an index on the same field costs no rewrite.`);
    } catch (e) { showNote(errorText(e)); logLine("error", errorText(e)); }
  });

  $("ttl-create").addEventListener("click", async () => {
    const expireAfter = numberOrText(expireInput.value);
    try {
      events = await store.collection(COLLECTION, { ttlIndex: { ...TTL_INDEX, expireAfter } });
      window.events = events;
      localStorage.removeItem(DROPPED_FLAG);
      renderIndex();
      updateForm();
      await refresh();
      showNote(`store.collection("${COLLECTION}", { ttlIndex: { field: "createdAt", expireAfter: ${literal(expireAfter)} } }): ` +
        "the index is back; documents whose createdAt is older than the window are expired at once.");
    } catch (e) { showNote(errorText(e)); logLine("error", errorText(e)); }
  });

  $("doc-clear").addEventListener("click", async () => {
    try { await events.clear(); await refresh(); } catch (e) { logLine("error", errorText(e)); }
  });

  // ----- the documents table -----

  function makeRow(id) {
    const tr = document.createElement("tr");
    tr.dataset.testid = "doc-row";
    tr.dataset.id = String(id);
    const cell = (testid, cls) => appendCell(tr, testid, cls);
    const cells = {
      id: cell("doc-id-cell", "mono"),
      label: cell("doc-label-cell", "label"),
      field: cell("doc-field", "mono value"),
      expires: cell("doc-expires", "mono expires small"),
      left: cell("doc-ttl", "num mono"),
    };
    const act = document.createElement("td");
    act.className = "row-actions";
    const del = document.createElement("button");
    del.type = "button";
    del.className = "ghost small danger";
    del.textContent = "Delete";
    del.title = `events.delete(${literal(id)})`;
    del.dataset.testid = "doc-delete";
    del.addEventListener("click", async () => {
      del.disabled = true;
      try { await events.delete(id); await refresh(); } catch (e) { logLine("error", errorText(e)); } finally { del.disabled = false; }
    });
    act.append(del);
    tr.append(act);
    return { tr, cells };
  }

  function render() {
    const idx = events.ttlIndex();
    const seen = new Set();
    let prev = null;
    for (const d of docs) {
      const key = `${typeof d.id}:${d.id}`;
      seen.add(key);
      let row = rows.get(key);
      if (!row) { row = makeRow(d.id); rows.set(key, row); }
      const want = prev ? prev.nextSibling : tbody.firstChild;
      if (want !== row.tr) tbody.insertBefore(row.tr, want);
      prev = row.tr;

      row.cells.id.textContent = String(d.id);
      row.cells.label.textContent = d.label === undefined ? "" : String(d.label);
      const missing = !("createdAt" in d);
      const desc = missing ? "(missing)" : describe(d.createdAt);
      if (row.cells.field.dataset.desc !== desc) {
        row.cells.field.dataset.desc = desc;
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = missing ? "—" : kindOf(d.createdAt);
        const text = document.createElement("span");
        text.className = missing ? "text never" : "text";
        text.textContent = desc;
        text.title = describe(d);
        const wrap = document.createElement("div");
        wrap.className = "value-wrap";
        wrap.append(badge, text);
        row.cells.field.replaceChildren(wrap);
      }
      const ref = idx ? reference(d.createdAt, idx.unit) : { never: "no TTL index", short: "no TTL index" };
      if ("secs" in ref) {
        row.expiresAt = ref.secs + idx.expireAfter;
        row.cells.expires.textContent = formatExpiresAt(row.expiresAt);
        row.cells.expires.title = `createdAt + expireAfter (${idx.expireAfter} s) = Unix ${row.expiresAt.toFixed(3)}`;
      } else {
        row.expiresAt = null;
        row.cells.expires.textContent = `never: ${ref.short}`;
        row.cells.expires.title = `never expires: ${ref.never}`;
      }
      row.cells.expires.classList.toggle("never", row.expiresAt === null);
    }
    for (const [key, row] of rows) {
      if (!seen.has(key)) { row.tr.remove(); rows.delete(key); }
    }
    countEl.textContent = String(docs.length);
    emptyNote.hidden = docs.length > 0;
    renderCountdowns();
  }

  function renderCountdowns() {
    const now = nowSecs();
    for (const row of rows.values()) {
      const left = row.cells.left;
      if (row.expiresAt === null) {
        setText(left, "never");
        put(left, "className", "num mono never");
        put(left, "title", row.cells.expires.title);
      } else {
        const secs = row.expiresAt - now;
        setText(left, formatLeft(secs));
        put(left, "className", `num mono ${secs < 5 ? "soon" : ""}`);
        put(left, "title", "");
      }
    }
  }

  // When the table reads events.values(): on a "change" naming the collection (a write, a clear,
  // a TTL-index change; here or in another tab), an "expired" naming it, an import() into the
  // store (its "change" names no collection), a "reopened" (the database may be new), after the
  // panel's own actions, and at the soonest expiry among the documents shown: a document leaves
  // the live data then with no event (the reaper's "expired" comes up to a pass later). That
  // expiry is the one the table shows (createdAt + expireAfter, mirrored on the page); a document
  // still listed past it is left to the next event. No read on a timer.

  const reads = reader({
    gapMs: DOC_TICK_MS,
    read: async () => {
      if (!events) return Infinity;
      const began = Date.now();
      try {
        docs = await events.values();
      } catch (e) {
        logLine("error", `events.values() failed: ${errorText(e)}`);
        throw e;
      }
      for (const d of docs) bumpNextId(d.id);
      render();
      renderIndex();
      let due = Infinity;
      for (const row of rows.values()) {
        // 50 ms after, so the read does not still find it live; one that was past its expiry
        // before this read began (and is still listed) does not bring the next read forward.
        const at = row.expiresAt === null ? Infinity : row.expiresAt * 1000 + 50;
        if (at > began && at < due) due = at;
      }
      return due;
    },
  });
  const refresh = () => reads.now();

  store.addEventListener("change", (ev) => {
    const d = ev.detail ?? {};
    if (d.collection === COLLECTION || (d.op === "import" && d.collection === undefined && d.timeSeries === undefined)) reads.wanted();
  });
  store.addEventListener("expired", (ev) => {
    if (ev.detail?.collections?.[COLLECTION]?.length) reads.wanted();
  });
  store.addEventListener("reopened", () => reads.wanted());

  async function open() {
    events = await store.collection(COLLECTION, { keyPath: "id" });
    if (!events.ttlIndex() && !localStorage.getItem(DROPPED_FLAG)) {
      events = await store.collection(COLLECTION, { keyPath: "id", ttlIndex: TTL_INDEX });
    }
    window.events = events; // for the devtools console
    const idx = events.ttlIndex();
    if (idx) expireInput.value = String(idx.expireAfter);
    for (const b of form.querySelectorAll("button")) b.disabled = false;
    $("doc-clear").disabled = false;
    renderIndex();
    updateForm();
    await refresh(); // and then on events (see `reads`)
    setInterval(renderCountdowns, DOC_TICK_MS); // the DOM only
  }

  return { open };
}

// ---------- the time-series panel ----------

function sparkline(points, fromSecs, toSecs) {
  const W = 160;
  const H = 28;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", String(W));
  svg.setAttribute("height", String(H));
  svg.classList.add("spark");
  if (points.length > 1) {
    const vs = points.map((p) => p.v);
    const lo = Math.min(...vs);
    const hi = Math.max(...vs);
    const span = hi - lo || 1;
    const xy = points.map((p) => {
      const x = ((p.t - fromSecs) / (toSecs - fromSecs)) * W;
      const y = H - 3 - ((p.v - lo) / span) * (H - 6);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    });
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", xy.join(" "));
    svg.append(line);
  }
  return svg;
}

const group = (n) => n.toLocaleString("en-US");

function mountSeries({ store, logLine }) {
  const toggle = $("stream-toggle");
  const burst = $("stream-burst");
  const state = $("stream-state");
  const tbody = $("sensors-body");
  const reapedEl = $("ts-reaped");
  const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);

  let sensors = null;
  let streamTimer = 0;
  let streaming = false;
  let inserted = 0;
  let lastWrite = null;
  let bucketsReaped = 0;
  const level = new Map(SENSORS.map((s) => [s.id, s.base]));
  const rows = new Map();

  /** A plausible next reading: a slow wave plus a random walk around the sensor's base. */
  function reading(s, atSecs) {
    const drift = (level.get(s.id) - s.base) * 0.9 + (Math.random() - 0.5) * s.swing * 0.3;
    level.set(s.id, s.base + drift);
    return Math.round((s.base + drift + Math.sin(atSecs / 6) * s.swing * 0.5) * 100) / 100;
  }

  async function write(events, what) {
    const t0 = performance.now();
    const written = await sensors.insertMany(events);
    inserted += events.length;
    lastWrite = { what, events: events.length, written, ms: performance.now() - t0 };
    byTestId("ts-inserted").textContent = group(inserted);
    renderState();
  }

  function renderState() {
    const last = lastWrite
      ? ` Last ${lastWrite.what}: insertMany(${group(lastWrite.events)} events) → ${lastWrite.written} bucket record${lastWrite.written === 1 ? "" : "s"} written, ${lastWrite.ms.toFixed(1)} ms.`
      : "";
    state.textContent = (streaming ? `Streaming: ${SENSORS.length} events every ${STREAM_MS} ms.` : "Stopped.") + last;
    state.dataset.streaming = String(streaming);
  }

  async function tick() {
    if (!streaming) return;
    const ts = new Date();
    try {
      await write(SENSORS.map((s) => ({ ts, sensor: s.id, value: reading(s, ts.getTime() / 1000) })), "tick");
    } catch (e) {
      logLine("error", `sensors.insertMany: ${errorText(e)}`);
    }
    if (streaming) streamTimer = setTimeout(tick, STREAM_MS);
  }

  function setStreaming(on) {
    streaming = on;
    clearTimeout(streamTimer);
    toggle.textContent = on ? "Stop stream" : "Start stream";
    toggle.classList.toggle("primary", !on);
    renderState();
    if (on) tick();
  }

  toggle.addEventListener("click", () => setStreaming(!streaming));

  burst.addEventListener("click", async () => {
    burst.disabled = true;
    const end = nowSecs();
    const events = [];
    for (let i = 0; i < BURST_PER_SENSOR; i++) {
      const t = end - BURST_SPAN_SECS + (i * BURST_SPAN_SECS) / BURST_PER_SENSOR;
      for (const s of SENSORS) events.push({ ts: t, sensor: s.id, value: reading(s, t) });
    }
    try { await write(events, "burst"); await refresh(); } catch (e) { logLine("error", `sensors.insertMany: ${errorText(e)}`); }
    burst.disabled = false;
  });

  $("series-clear").addEventListener("click", async () => {
    try { await sensors.clear(); await refresh(); } catch (e) { logLine("error", errorText(e)); }
  });

  store.addEventListener("expired", (ev) => {
    const n = ev.detail?.timeSeries?.[SERIES] ?? 0;
    if (!n) return;
    bucketsReaped += n;
    reapedEl.dataset.count = String(bucketsReaped);
    reapedEl.textContent = `Buckets removed by the reaper: ${group(bucketsReaped)} (last pass at ${clock()}: ${n} whole bucket${n === 1 ? "" : "s"}, one delete each)`;
    reads.wanted();
  });
  // A write to the series (the stream's ticks included, and another tab's), an import() into the
  // store (its "change" names no series), a database the browser closed and this store opened
  // again: each may have changed what the panel shows.
  store.addEventListener("change", (ev) => {
    const d = ev.detail ?? {};
    if (d.timeSeries === SERIES || (d.op === "import" && d.collection === undefined && d.timeSeries === undefined)) reads.wanted();
  });
  store.addEventListener("reopened", () => reads.wanted());

  function sensorRow(id) {
    let row = rows.get(id);
    if (row) return row;
    const tr = document.createElement("tr");
    tr.dataset.testid = "sensor-row";
    tr.dataset.sensor = id;
    const cell = (testid, cls) => appendCell(tr, testid, cls);
    row = {
      tr,
      name: cell("sensor-name", "mono"),
      recent: cell("sensor-recent", "num mono"),
      last: cell("sensor-last", "mono readings"),
      spark: cell("sensor-spark", "spark-cell"),
    };
    row.name.textContent = id;
    tbody.append(tr);
    rows.set(id, row);
    return row;
  }

  function render(count, buckets, toSecs) {
    byTestId("ts-count").textContent = group(count);
    byTestId("ts-count").dataset.value = String(count);
    byTestId("ts-buckets").textContent = group(buckets);
    byTestId("ts-buckets").dataset.value = String(buckets);
    byTestId("ts-per-bucket").textContent = buckets ? (count / buckets).toFixed(1) : "–";

    const ratioLine = $("ratio-line");
    $("ratio-events").textContent = `${group(count)} record${count === 1 ? "" : "s"}`;
    $("ratio-buckets").textContent = `${group(buckets)} record${buckets === 1 ? "" : "s"}`;
    const top = Math.max(count, buckets, 1);
    $("bar-events").style.width = `${(count / top) * 100}%`;
    $("bar-buckets").style.width = buckets ? `${Math.max((buckets / top) * 100, 0.6)}%` : "0%";
    if (count && buckets) {
      ratioLine.textContent = `${group(count)} live events are held in ${group(buckets)} IndexedDB record${buckets === 1 ? "" : "s"}: ` +
        `${Math.round(count / buckets)}× fewer records than one per event, and the reaper deletes a bucket, not its events one by one.`;
    } else if (buckets) {
      ratioLine.textContent = `No live events; ${buckets} bucket record${buckets === 1 ? "" : "s"} of expired events wait for the reaper's next pass.`;
    } else {
      ratioLine.textContent = "No events stored: start the stream.";
    }

    renderSensors(toSecs);
  }

  /** The sensors' rows from the events last read, as of `toSecs` (the DOM only). */
  function renderSensors(toSecs) {
    const fromSecs = toSecs - SERIES_OPTIONS.expireAfter;
    shown.forEach((points, i) => {
      const row = sensorRow(SENSORS[i].id);
      row.recent.textContent = String(points.filter((p) => p.t >= toSecs - RECENT_SECS).length);
      const newest = points.slice(-4).reverse();
      row.last.dataset.value = newest.length ? String(newest[0].v) : "";
      row.last.textContent = newest.length
        ? newest.map((p) => `${p.v.toFixed(2)} (${Math.max(0, toSecs - p.t).toFixed(1)} s ago)`).join(" · ")
        : "no live events";
      row.last.classList.toggle("never", !newest.length);
      row.spark.replaceChildren(sparkline(points, fromSecs, toSecs));
    });
  }

  // When the panel reads. There is no live view of a time series, so it reads on the store's
  // events: a "change" naming the series (at most one read per SERIES_TICK_MS while the stream
  // writes), an "expired" naming it (the reaper removed buckets: bucketCount() fell), and after its
  // own burst and clear. What no event tells is an event leaving the live data: events expire one
  // by one inside their bucket, with no write and no "expired" (that comes only when the reaper
  // removes a whole bucket). The panel knows when from what it read, though: each event shown
  // expires at its time + expireAfter, so it reads again at the soonest of those (not sooner than
  // SERIES_TICK_MS after the last read: a decaying stream is one read per 500 ms, as before).
  // Only events its queries do not show (another meta value, written from the console) have an
  // expiry it cannot know: while count() says there are such, it re-reads every SLOW_READ_MS.
  // With no live event (the idle page) nothing is read until an event comes.
  let shown = SENSORS.map(() => []); // per sensor, the live events last read: [{ t, v }]
  const reads = reader({
    gapMs: SERIES_TICK_MS,
    tick: () => renderSensors(nowSecs()),
    ticking: () => shown.some((points) => points.length),
    read: async () => {
      if (!sensors) return Infinity;
      const toSecs = nowSecs();
      const from = toSecs - SERIES_OPTIONS.expireAfter;
      let count, buckets, perSensor;
      try {
        [count, buckets, ...perSensor] = await Promise.all([
          sensors.count(),
          sensors.bucketCount(),
          ...SENSORS.map((s) => sensors.query({ meta: s.id, from })),
        ]);
      } catch (e) {
        logLine("error", `sensors refresh failed: ${errorText(e)}`);
        throw e;
      }
      shown = perSensor.map((events) => events.map((e) => ({ t: e.ts instanceof Date ? e.ts.getTime() / 1000 : Number(e.ts), v: e.value })));
      render(count, buckets, toSecs);
      // 50 ms after the soonest expiry shown, so the read does not still find that event live.
      let due = Infinity;
      let known = 0;
      for (const points of shown) {
        known += points.length;
        for (const p of points) if (Number.isFinite(p.t)) due = Math.min(due, (p.t + SERIES_OPTIONS.expireAfter) * 1000 + 50);
      }
      if (count > known) due = Math.min(due, Date.now() + SLOW_READ_MS);
      return due;
    },
  });
  const refresh = () => reads.now();

  async function open() {
    sensors = await store.timeSeries(SERIES, SERIES_OPTIONS);
    window.sensors = sensors; // for the devtools console
    $("tick-ms").textContent = `${STREAM_MS} ms`;
    for (const id of ["stream-toggle", "stream-burst", "series-clear"]) $(id).disabled = false;
    renderState();
    await refresh(); // and then on events (see `reads`)
  }

  return { open };
}

/**
 * Opens the `events` collection and the `sensors` time series in `store` and wires their panels.
 * `logLine(type, text)` writes to the reaper panel's event log.
 */
export async function mountCollections({ store, logLine, reapIntervalMs }) {
  $("part2-interval").textContent = `${reapIntervalMs / 1000} s`;
  // data-state on each section says whether its panel is wired (page tests wait for "ready").
  const section = (name) => document.querySelector(`[data-testid="${name}-section"]`);
  for (const [name, panel] of [["collection", mountCollection], ["series", mountSeries]]) {
    try {
      await panel({ store, logLine }).open();
      section(name).dataset.state = "ready";
    } catch (e) {
      section(name).dataset.state = "error";
      logLine("error", `${name} panel: ${errorText(e)}`);
    }
  }
}
