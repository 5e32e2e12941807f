// The demo's third part: what becomes of data once it expires. app.js opens the store with the
// options built here (`demoConfig`): an `onExpire` hook that hands expired records to a server
// simulated in this tab (`createServer`), `archiveFor`, `maxEntries`. `mountTiers` wires the
// panels: the counts of live / waiting / handed-off / archived entries, the server's list, the cap,
// the storage estimate, and the `logs` collection whose documents move live -> archive -> deleted.
// Everything shown is read through the library's public API; the page computes only countdowns
// and the estimate of the next pass under back-off (from the documented rule). IndexedDB is read
// only when something may have changed (the store's events, live views, the server's receipts,
// the moments a tier is reached), never on a timer but for a slow fallback where no event tells.

import { appendCell, clock, describe, errorText, formatExpiresAt, formatLeft, literal, put } from "./format.js";

const DEFAULTS = { archiveFor: 30, maxEntries: 12, tiers: "10,25", latencyMs: 150 };
const LOGS = "logs";
const TICK_MS = 250;
// The slow fallback re-read, the demo's reaper interval: for what no event tells (see SLOW below).
const SLOW_MS = 2000;
// A re-read timed for a moment the page computed (a delete tier) comes this much after it, so the
// library's clock is past it too.
const MARGIN_MS = 25;
// setTimeout's longest delay (a longer one fires at once).
const MAX_DELAY_MS = 2 ** 31 - 1;
const SERVER_ROWS_SHOWN = 60;
const RECEIPTS_KEPT = 2000;
const EVICTIONS_SHOWN = 5;
const GONE_ROWS_KEPT = 8;
// Background passes back off while onExpire fails: at most an hour (or the interval, if longer).
const BACKOFF_MAX_MS = 3_600_000;

const $ = (id) => document.getElementById(id);
const later = (fn, atMs) => setTimeout(fn, Math.min(MAX_DELAY_MS, Math.max(0, atMs - Date.now()) + MARGIN_MS));
const nowSecs = () => Date.now() / 1000;
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Numbers typed (or passed in the query string) are seconds; the rest go as strings (durations). */
function numberOrText(raw) {
  const t = String(raw).trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : t;
}

/** `[{ after, action }]` from "a" (archive for good) or "a,d" (archive, then delete). */
function parseTiers(text) {
  const [a, d] = String(text).split(",").map((s) => s.trim());
  const tiers = [{ after: numberOrText(a), action: "archive" }];
  if (d !== undefined && d !== "") tiers.push({ after: numberOrText(d), action: "delete" });
  return tiers;
}

function tiersText(tiers) {
  return `[${tiers.map((t) => `{ after: ${literal(t.after)}, action: "${t.action}" }`).join(", ")}]`;
}

/**
 * `read` (async, never rejecting) made safe to call at any moment: a call during a read gets one
 * more read that starts after it (shared by every call meanwhile), so a change told mid-read is
 * never missed, and reads never pile up.
 */
function serialized(read) {
  let running = null;
  let queued = null;
  const run = () => {
    if (!running) {
      running = read().finally(() => { running = null; });
      return running;
    }
    const again = () => { queued = null; return run(); };
    queued ??= running.then(again, again);
    return queued;
  };
  return run;
}

function bytes(n) {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${i ? n.toFixed(1) : n} ${units[i]}`;
}

/**
 * The demo's store options from the query string (`?archiveFor=30&maxEntries=12&tiers=10,25&latency=150`;
 * `none` turns archiveFor or maxEntries off). Invalid values are passed on as typed: the library
 * refuses them and the page shows its error.
 */
export function demoConfig(search = location.search) {
  const q = new URLSearchParams(search);
  const opt = (name, dflt) => {
    const v = q.get(name);
    if (v === "none") return undefined;
    return v === null || v.trim() === "" ? dflt : numberOrText(v);
  };
  return {
    archiveFor: opt("archiveFor", DEFAULTS.archiveFor),
    maxEntries: opt("maxEntries", DEFAULTS.maxEntries),
    tiers: parseTiers(q.get("tiers") ?? DEFAULTS.tiers),
    tiersGiven: q.has("tiers"),
    latencyMs: Math.max(0, Number(q.get("latency") ?? DEFAULTS.latencyMs) || 0),
  };
}

/** The options of `TtlStore.open` for `config`, given the hook. */
export function storeOptions(config, { reapIntervalMs, onExpire }) {
  const options = { reapIntervalMs, onExpire, evictOnQuota: true };
  if (config.archiveFor !== undefined) options.archiveFor = config.archiveFor;
  if (config.maxEntries !== undefined) options.maxEntries = config.maxEntries;
  return options;
}

function openCallText(dbName, config, reapIntervalMs) {
  const lines = [`  reapIntervalMs: ${reapIntervalMs},`, "  onExpire,                 // the server tier, below"];
  if (config.archiveFor !== undefined) lines.push(`  archiveFor: ${literal(config.archiveFor)},`);
  if (config.maxEntries !== undefined) lines.push(`  maxEntries: ${literal(config.maxEntries)},`);
  lines.push("  evictOnQuota: true,");
  return `await TtlStore.open(${JSON.stringify(dbName)}, {\n${lines.join("\n")}\n})`;
}

/**
 * A server tier inside the page: `onExpire` waits `latencyMs` (a round trip), then rejects while
 * `down` is set, or records each record it was given. `receipts` is the list the page shows;
 * `deliveries` counts each record (kind, name, key, expiresAt) as a server writing them
 * idempotently would key them, so a record offered twice shows up as a second delivery.
 * `subscribe(fn)` calls `fn(added)` after each call of the hook, with the receipts it added
 * (none when it refused); it returns the function that stops that.
 */
export function createServer({ latencyMs }) {
  const listeners = new Set();
  const tell = (added) => {
    for (const fn of listeners) {
      try { fn(added); } catch (e) { reportError(e); } // never the hook's failure
    }
  };
  const server = {
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    down: false,
    latencyMs,
    receipts: [], // newest last: { at, kind, name, key, action, expiresAt, value, delivery }
    received: 0,
    duplicates: 0,
    calls: 0,
    refusedCalls: 0,
    refusedAt: [], // Date.now() as each refused call began (the last RECEIPTS_KEPT)
    version: 0,
    deliveries: new Map(),
    async onExpire(records) {
      server.calls++;
      const began = Date.now();
      await new Promise((r) => setTimeout(r, server.latencyMs));
      if (server.down) {
        server.refusedCalls++;
        server.refusedAt.push(began);
        if (server.refusedAt.length > RECEIPTS_KEPT) server.refusedAt.shift();
        server.version++;
        tell([]);
        throw new Error("server down (503)");
      }
      const at = Date.now();
      const added = [];
      for (const r of records) {
        const id = JSON.stringify([r.kind, r.name ?? null, r.key, r.expiresAt]);
        const delivery = (server.deliveries.get(id) ?? 0) + 1;
        server.deliveries.set(id, delivery);
        if (delivery > 1) server.duplicates++;
        server.received++;
        const receipt = {
          at, kind: r.kind, name: r.name, key: r.key, action: r.action, expiresAt: r.expiresAt, delivery,
          value: r.kind === "events" ? `${r.value.length} events` : describe(r.value),
        };
        server.receipts.push(receipt);
        added.push(receipt);
      }
      if (server.receipts.length > RECEIPTS_KEPT) server.receipts.splice(0, server.receipts.length - RECEIPTS_KEPT);
      server.version++;
      tell(added);
    },
  };
  return server;
}

// ---------- the hand-off panel ----------

function mountHandOff({ store, logLine, server, config, reapIntervalMs, dbName }) {
  const archive = store.archive;
  const errorEl = $("tiers-error");
  const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
  let nextKey = 1;
  let streak = 0; // failed passes in a row, as this tab saw them
  let seenRuns = 0;
  let seenFailures = 0;
  let serverShown = -1;
  const evictions = [];

  $("open-call").textContent = openCallText(dbName, config, reapIntervalMs);
  $("hook-src").textContent = `onExpire: async (records) => {
  await delay(${server.latencyMs}); // a round trip
  if (serverDown)
    throw new Error("server down (503)");
  server.receive(records); // the list
}`;

  function showError(e) {
    errorEl.textContent = errorText(e);
    errorEl.hidden = false;
  }
  const clearError = () => { errorEl.hidden = true; };

  // ----- server down / retry -----

  const downBox = $("server-down");
  function renderServerState() {
    const el = $("server-state");
    el.dataset.down = String(server.down);
    el.textContent = server.down
      ? "Server down: the hook rejects, so expired records stay in the store (hidden from reads) and come again on a later pass."
      : `Server up: the hook resolves after ${server.latencyMs} ms and the records are archived${config.archiveFor === undefined ? " (here: deleted, no archiveFor)" : ""}.`;
  }
  downBox.addEventListener("change", () => {
    server.down = downBox.checked;
    logLine("server", server.down ? "server down: onExpire will reject" : "server up: onExpire will accept");
    renderServerState();
  });

  $("retry-now").addEventListener("click", async () => {
    const b = $("retry-now");
    b.disabled = true;
    try {
      const r = await store.reap();
      const text = `reap() → handed off ${r.handedOff}, archived ${r.archived}${r.handOffFailed ? ", hand-off failed" : ""}`;
      $("retry-result").textContent = text;
      logLine("reap", text);
      await Promise.all([readArchive(), readEstimate()]);
      renderStats();
    } catch (e) {
      showError(e);
    } finally {
      b.disabled = false;
    }
  });

  // ----- quick entries -----

  const ttlInput = $("quick-ttl");
  const quickKeys = () => [0, 1, 2].map((i) => `h${nextKey + i}`);
  const quickTtl = () => Number(ttlInput.value) || 0;
  function renderQuickPreview() {
    const ttl = quickTtl();
    $("quick-preview").textContent =
      `await store.setMany([${quickKeys().map((k) => `["${k}", "payload", { ttl: ${ttl} }]`).join(", ")}])`;
  }
  ttlInput.addEventListener("input", renderQuickPreview);
  $("quick-add").addEventListener("click", async () => {
    clearError();
    const ttl = quickTtl();
    const keys = quickKeys();
    try {
      await store.setMany(keys.map((k) => [k, "payload", { ttl }]));
      nextKey += keys.length;
    } catch (e) {
      showError(e);
    }
    renderQuickPreview();
  });

  // ----- the cap -----

  const capText = $("cap-text");
  const fill = $("fill-cap");
  if (config.maxEntries === undefined) {
    capText.textContent = "No cap (maxEntries is off): nothing is evicted for the cap.";
  } else {
    capText.innerHTML = "";
    const code = document.createElement("code");
    code.textContent = `maxEntries: ${literal(config.maxEntries)}`;
    capText.append(code, " (Redis maxmemory + volatile-ttl): a write that leaves more entries evicts the ones nearest to " +
      "expiry, in its own transaction. Entries without an expiry are never evicted. Fill the store to the cap with " +
      "entries that expire in 60–120 s, then write 2 more:");
    fill.textContent = `Fill to ${config.maxEntries}, then write 2 more`;
  }
  let capKey = 1;
  fill.addEventListener("click", async () => {
    clearError();
    fill.disabled = true;
    const entry = (secs) => [`cap${capKey++}`, "filler", { ttl: secs }];
    try {
      const room = config.maxEntries - (await store.count());
      if (room > 0) await store.setMany(Array.from({ length: room }, (_, i) => entry(60 + (i % 12) * 5)));
      await store.setMany([entry(120), entry(120)]);
    } catch (e) {
      showError(e);
    } finally {
      fill.disabled = false;
    }
  });
  store.addEventListener("evicted", (ev) => {
    const { keys = [], reason } = ev.detail ?? {};
    evictions.unshift({ at: clock(), keys, reason });
    evictions.length = Math.min(evictions.length, EVICTIONS_SHOWN);
    logLine("evicted", `${plural(keys.length, "entry", "entries")} evicted (${reason}): ${keys.map(literal).join(", ")}`);
    const list = $("evicted-list");
    list.replaceChildren(...evictions.map((e) => {
      const li = document.createElement("li");
      li.dataset.testid = "evicted-item";
      li.dataset.reason = e.reason;
      li.dataset.keys = e.keys.join(",");
      li.textContent = `${e.at} · "evicted", reason "${e.reason}": ${e.keys.map(literal).join(", ")}`;
      return li;
    }));
  });

  // ----- storage -----

  const dataLoss = $("data-loss");
  dataLoss.textContent = `isNew: ${store.isNew} · dataLoss: ${JSON.stringify(store.dataLoss)}`;
  dataLoss.title = store.isNew
    ? "This open() created the database: it did not exist, or the browser deleted it"
    : "The database existed before this open()";
  if (store.dataLoss === "total") {
    const banner = byTestId("error-banner");
    banner.replaceChildren();
    const strong = document.createElement("strong");
    strong.textContent = "The browser deleted this demo's database (dataLoss: \"total\") and it was created again, empty. ";
    const detail = document.createElement("pre");
    detail.dataset.testid = "error-detail";
    detail.textContent = store.dataLossMessage || "(no message from the browser)";
    banner.append(strong, "An app would fetch its data again from the server tier.", detail);
    banner.hidden = false;
  }
  $("persist-storage").addEventListener("click", async () => {
    const out = $("persisted");
    try {
      const granted = await store.persistStorage();
      out.dataset.granted = String(granted);
      out.textContent = granted ? "granted: the browser will not evict this origin's data" : "not granted (best-effort storage)";
    } catch (e) {
      out.textContent = errorText(e);
    }
  });

  // ----- what is read from IndexedDB, and when -----
  //
  // Nothing here polls IndexedDB. Each read runs when something may have changed it:
  // - live (`count()`): a live view of every key (`store.observe`) hands a fresh list after each
  //   write, delete, clear or eviction, in this tab or another, and as each entry expires, at its
  //   expiry; its length is the count.
  // - the archive (`archive.count()`, `archive.values()`): entries enter it only in a reaper pass,
  //   which fires "expired" (here, or in another tab with `remote`); "Clear archive" and "Retry
  //   now" read it again. They leave it at their delete tier (expiry + archiveFor), which fires
  //   nothing: this page's server was told that moment for each entry it accepted (a receipt's
  //   `expiresAt`), so the archive is read again then.
  // - `estimate()`: after each "change", "expired" and "evicted" and each list of the view (an
  //   entry that expires becomes "expired still stored").
  // SLOW: what no event tells is read again every SLOW_MS: the archive while it shows any entry
  // (an entry archived by another tab's pass, or before this page was loaded, leaves it at a
  // delete tier this page was never told, and another tab's archive.clear() fires nothing here),
  // and estimate()'s usage (the whole origin's bytes: the demo's other panels write databases of
  // their own, and the browser compacts, without any event on this store), read from
  // navigator.storage.estimate() as estimate() reads it, so without touching IndexedDB.
  // The counters of stats() are synchronous (no IndexedDB): they and the back-off countdown are
  // drawn every TICK_MS, writing the DOM only where a value shown changed. (An "error" event, a
  // failed hand-off or pass, changes no record: only those counters, drawn at the next tick.)

  let estimated = null; // the last store.estimate()
  function showEstimate(e) {
    const el = $("estimate");
    const usage = typeof e.usage === "number" ? `${bytes(e.usage)} used of ${bytes(e.quota)}` : "usage and quota not reported here";
    put(el, "textContent", `${usage} · live ${e.live}, expired still stored ${e.expired}`);
    put(el, "title", JSON.stringify(e));
    setNum("tier-expired", e.expired);
  }
  const readEstimate = serialized(async () => {
    try {
      estimated = await store.estimate();
      showEstimate(estimated);
    } catch (e) {
      logLine("error", `estimate(): ${errorText(e)}`);
    }
  });
  // estimate()'s usage and quota are navigator.storage.estimate()'s: on the slow timer only they
  // are read again, there (no IndexedDB read), beside the counts of the last estimate().
  const readUsage = serialized(async () => {
    if (typeof estimated?.usage !== "number" || !navigator.storage?.estimate) return;
    try {
      const { usage, quota } = await navigator.storage.estimate();
      estimated = { ...estimated, usage, quota };
      showEstimate(estimated);
    } catch { /* the next estimate() tells */ }
  });

  const archiveDue = []; // Unix ms at which archived entries reach their delete tier, soonest first (told by the server)
  let archiveTimer = 0;
  const readArchive = serialized(async () => {
    clearTimeout(archiveTimer);
    const readAt = Date.now();
    let archived = 1; // a read that failed is tried again SLOW_MS later
    try {
      const [n, values] = await Promise.all([archive.count(), archive.values()]);
      archived = n;
      setNum("tier-archived", n);
      const shown = values.slice(0, 6).map((v) => describe(v));
      put($("archive-values"), "textContent", `[${shown.join(", ")}${values.length > 6 ? `, … ${values.length - 6} more` : ""}]`);
    } catch (e) {
      logLine("error", `tiers refresh failed: ${errorText(e)}`);
    }
    // The next read by the clock: the soonest delete tier the page knows, or SLOW_MS (above)
    // while the archive shows any entry.
    while (archiveDue.length > 0 && archiveDue[0] <= readAt) archiveDue.shift();
    const next = Math.min(archiveDue[0] ?? Infinity, archived > 0 ? readAt + SLOW_MS : Infinity);
    if (next !== Infinity) archiveTimer = later(readArchive, next);
  });
  server.subscribe((added) => {
    renderServer();
    const due = added.filter((r) => r.kind === "entry" && r.action === "archive" && r.expiresAt !== null);
    if (due.length === 0) return;
    archiveDue.push(...due.map((r) => r.expiresAt * 1000));
    archiveDue.sort((x, y) => x - y);
    // Kept bounded: one not kept is still read again, SLOW_MS after a read that shows it.
    archiveDue.length = Math.min(archiveDue.length, RECEIPTS_KEPT);
    // The pass archives them once the hook resolves, then fires "expired": that read sets the timer.
  });

  $("archive-clear").addEventListener("click", async () => {
    try { await archive.clear(); await Promise.all([readArchive(), readEstimate()]); } catch (e) { showError(e); }
  });

  // ----- the counts, the back-off, the server list -----

  function setNum(testid, n) {
    const el = byTestId(testid);
    const v = String(n);
    if (el.dataset.value === v) return;
    el.textContent = v;
    el.dataset.value = v;
  }

  function renderBackoff(s) {
    if (s.reaperRuns !== seenRuns) {
      if (s.lastRun?.handOffFailed) streak += Math.max(1, s.handOffFailures - seenFailures);
      else streak = 0;
      seenRuns = s.reaperRuns;
      seenFailures = s.handOffFailures;
    }
    const note = $("backoff-note");
    put(note.dataset, "streak", String(streak));
    if (streak === 0 || !s.leader || s.lastRunAt === null) { put(note, "hidden", true); return; }
    const delayMs = Math.min(reapIntervalMs * 2 ** (streak - 1), Math.max(BACKOFF_MAX_MS, reapIntervalMs));
    const left = s.lastRunAt + delayMs / 1000 - nowSecs();
    put(note, "textContent", `onExpire failed in ${plural(streak, "pass", "passes")} in a row: background passes back off ` +
      `(reapIntervalMs × 2^(n−1) = ${delayMs / 1000} s). Next pass ${left > 0 ? `in about ${formatLeft(left)}` : "due now"}` +
      `${s.reaperPaused ? " (reaper paused)" : ""}; "Retry now" runs one at once.`);
    put(note, "hidden", false);
  }

  function renderServer() {
    if (serverShown === server.version) return;
    serverShown = server.version;
    setNum("server-count", server.received);
    $("server-summary").textContent = `${plural(server.calls, "call")} of the hook, ${server.refusedCalls} refused · ` +
      `duplicates: ${server.duplicates}`;
    $("server-summary").dataset.duplicates = String(server.duplicates);
    const body = $("server-body");
    const shown = server.receipts.slice(-SERVER_ROWS_SHOWN).reverse();
    body.replaceChildren(...shown.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.testid = "server-row";
      tr.dataset.kind = r.kind;
      tr.dataset.name = r.name ?? "";
      tr.dataset.key = String(r.key);
      tr.dataset.action = r.action;
      tr.dataset.expiresAt = String(r.expiresAt);
      tr.dataset.delivery = String(r.delivery);
      const cell = (testid, cls, text, title) => {
        const td = appendCell(tr, testid, cls);
        td.textContent = text;
        if (title) td.title = title;
      };
      cell("server-at", "mono small", clock(new Date(r.at)));
      cell("server-kind", "", r.kind);
      cell("server-name", "mono", r.name ?? "—");
      cell("server-key", "mono key-cell", String(r.key), `value: ${r.value}`);
      cell("server-action", `action ${r.action}`, r.action);
      cell("server-expires", "mono expires small", r.expiresAt === null ? "null (kept)" : formatExpiresAt(r.expiresAt),
        r.expiresAt === null ? "no delete tier follows: nothing deletes it" : `gone for good at Unix ${r.expiresAt}`);
      cell("server-delivery", `num mono ${r.delivery > 1 ? "dup" : ""}`, String(r.delivery));
      return tr;
    }));
    $("server-empty").hidden = server.receipts.length > 0;
  }

  /** The counters of stats() (synchronous: no IndexedDB read), drawn every TICK_MS. */
  function renderStats() {
    try {
      const s = store.stats();
      setNum("tier-waiting", s.handOffWaiting);
      setNum("tier-handedOff", s.handedOff);
      setNum("tier-failures", s.handOffFailures);
      setNum("tier-evicted", s.evictedTotal);
      setNum("tier-archivedTotal", s.archivedTotal);
      byTestId("tier-waiting").closest(".flow-box").classList.toggle("hot", s.handOffWaiting > 0);
      byTestId("tier-failures").classList.toggle("bad", s.handOffFailures > 0);
      put($("tiers-leader"), "textContent", s.leader
        ? "this tab leads: its passes call its onExpire"
        : "another tab leads: hand-offs happen there (its server list), not here");
      renderBackoff(s);
    } catch (e) {
      logLine("error", `tiers refresh failed: ${errorText(e)}`);
    }
  }

  async function open() {
    for (const id of ["server-down", "retry-now", "quick-add", "persist-storage", "archive-clear"]) $(id).disabled = false;
    fill.disabled = config.maxEntries === undefined;
    renderServerState();
    renderQuickPreview();
    renderServer();
    renderStats();
    let viewTold = false;
    // Every key: numbers sort before strings, so from -Infinity on, with no upper end (as app.js's table).
    store.observe({ from: -Infinity }, (list) => {
      viewTold = true;
      setNum("tier-live", list.length);
      readEstimate();
    });
    // Until the view's first list (a view whose read fails tells nothing), count() says it.
    const counted = store.count().then(
      (n) => { if (!viewTold) setNum("tier-live", n); },
      (e) => logLine("error", `tiers refresh failed: ${errorText(e)}`),
    );
    store.addEventListener("expired", () => { readArchive(); readEstimate(); });
    store.addEventListener("change", () => readEstimate());
    store.addEventListener("evicted", () => readEstimate());
    store.addEventListener("reopened", () => { readArchive(); readEstimate(); });
    await Promise.all([counted, readArchive(), readEstimate()]);
    setInterval(renderStats, TICK_MS);
    // The origin's usage (see SLOW above); the rest of estimate() is read at each event.
    setInterval(readUsage, SLOW_MS);
  }

  return { open };
}

// ---------- the `logs` collection with tiers ----------

/** `[{ after, action }]` (seconds) of a `ttlIndex()`: its tiers, or its one delete tier, or none. */
function indexTiers(idx) {
  if (!idx) return [];
  return idx.tiers ?? [{ after: idx.expireAfter, action: "delete" }];
}

function sameTiers(idx, tiers) {
  const have = indexTiers(idx);
  return have.length === tiers.length && have.every((t, i) => t.action === tiers[i].action && t.after === tiers[i].after);
}

function mountLogs({ store, logLine, config }) {
  const form = $("log-form");
  const msgInput = $("log-msg");
  const errorEl = $("log-error");
  const note = $("tiers-note");
  const tbody = $("logs-body");
  let logs = null;
  let archive = null;
  let nextId = 1;
  let okTimer = 0;
  const tracked = new Map(); // id -> { id, msg, at (Unix s), state, history, goneAt, row }

  const showError = (e) => { errorEl.textContent = errorText(e); errorEl.hidden = false; };
  const clearError = () => { errorEl.hidden = true; };
  const tierAt = (tiers, action) => tiers.find((t) => t.action === action)?.after ?? null;

  function bumpNextId(id) {
    const m = /^l(\d+)$/.exec(String(id));
    if (m) nextId = Math.max(nextId, Number(m[1]) + 1);
  }

  function renderPreview() {
    $("log-preview").textContent = `await logs.put({ id: "l${nextId}", at: new Date(), msg: ${JSON.stringify(msgInput.value)} })`;
  }

  function renderIndex() {
    const idx = logs.ttlIndex();
    const code = $("logs-index");
    code.textContent = idx
      ? `{ field: ${JSON.stringify(idx.field)}, expireAfter: ${idx.expireAfter}, unit: ${JSON.stringify(idx.unit)}` +
        `${idx.tiers ? `, tiers: ${tiersText(idx.tiers)}` : ""} }`
      : "null (no TTL index: documents never expire)";
    code.dataset.tiers = JSON.stringify(indexTiers(idx));
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearError();
    const doc = { id: `l${nextId}`, at: new Date(), msg: msgInput.value };
    try {
      await logs.put(doc);
      bumpNextId(doc.id);
      track(doc, "live");
      clearTimeout(okTimer);
      $("log-ok").textContent = `Put ${JSON.stringify(doc.id)}.`;
      okTimer = setTimeout(() => { $("log-ok").textContent = ""; }, 3000);
      await refresh();
    } catch (e) {
      showError(e);
    }
    renderPreview();
  });
  msgInput.addEventListener("input", renderPreview);

  $("tiers-set").addEventListener("click", async () => {
    clearError();
    const a = $("tier-archive-input").value.trim();
    const d = $("tier-delete-input").value.trim();
    const tiers = parseTiers(d === "" ? a : `${a},${d}`);
    try {
      const t0 = performance.now();
      await logs.setTiers(tiers);
      const ms = performance.now() - t0;
      renderIndex();
      await refresh();
      note.textContent = `logs.setTiers(${tiersText(tiers)}) took ${ms.toFixed(1)} ms. No document was rewritten: ` +
        "the tiers count from each document's at, so documents can change tier at once.";
      note.hidden = false;
    } catch (e) {
      showError(e);
    }
  });

  $("logs-clear").addEventListener("click", async () => {
    try { await logs.clear(); await refresh(); } catch (e) { showError(e); }
  });
  $("logs-archive-clear").addEventListener("click", async () => {
    try { await archive.clear(); await refresh(); } catch (e) { showError(e); }
  });

  // ----- the documents and their tiers -----

  function atSecs(doc) {
    const v = doc.at;
    if (v instanceof Date) return v.getTime() / 1000;
    if (typeof v === "number") return v;
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t / 1000;
  }

  function track(doc, state) {
    let t = tracked.get(doc.id);
    if (!t) {
      t = { id: doc.id, msg: doc.msg, at: atSecs(doc), state: null, history: [], goneAt: null, row: null };
      tracked.set(doc.id, t);
    }
    setState(t, state);
    return t;
  }

  function setState(t, state) {
    if (t.state === state) return;
    t.state = state;
    if (t.history[t.history.length - 1] !== state) t.history.push(state);
    t.goneAt = state === "gone" ? Date.now() : null;
  }

  function makeRow(t) {
    const tr = document.createElement("tr");
    tr.dataset.testid = "log-row";
    tr.dataset.id = String(t.id);
    const cell = (testid, cls) => appendCell(tr, testid, cls);
    const row = {
      tr,
      id: cell("log-id", "mono"),
      msg: cell("log-msg-cell", "label"),
      at: cell("log-at", "mono small"),
      tier: cell("log-tier", ""),
      bar: cell("log-bar", "bar-cell"),
      next: cell("log-next", "num mono"),
    };
    row.id.textContent = String(t.id);
    row.msg.textContent = t.msg ?? "";
    row.at.textContent = t.at === null ? "—" : clock(new Date(t.at * 1000));
    row.at.title = t.at === null ? "" : `at: Unix ${t.at.toFixed(3)}`;
    const badge = document.createElement("span");
    badge.className = "tier-badge";
    row.tier.append(badge);
    row.badge = badge;
    const track = document.createElement("div");
    track.className = "tierbar";
    row.segs = ["live", "archived", "gone"].map((k) => {
      const s = document.createElement("span");
      s.className = `seg ${k}`;
      track.append(s);
      return s;
    });
    row.marker = document.createElement("span");
    row.marker.className = "marker";
    track.append(row.marker);
    row.bar.append(track);
    return row;
  }

  const NEXT = {
    live: (t, a, d) => (a !== null ? { at: t.at + a, what: "archive" } : d !== null ? { at: t.at + d, what: "delete" } : null),
    waiting: () => null,
    archived: (t, a, d) => (d !== null ? { at: t.at + d, what: "delete" } : null),
    gone: () => null,
  };

  function render() {
    if (!logs) return;
    const tiers = indexTiers(logs.ttlIndex());
    const a = tierAt(tiers, "archive");
    const d = tierAt(tiers, "delete");
    const now = nowSecs();
    // The bar spans the delete tier and a bit more (the archive tier twice over when nothing deletes).
    const span = Math.max(1, (d ?? (a ?? 10) * 2) * 1.15);
    // Rounded to 1/100 %, as the style reads back: an unmoved marker is not written again.
    const pct = (secs) => `${Math.round(Math.min(100, Math.max(0, (secs / span) * 100)) * 100) / 100}%`;
    const list = [...tracked.values()].sort((x, y) => (y.at ?? 0) - (x.at ?? 0));
    let prev = null;
    for (const t of list) {
      if (!t.row) t.row = makeRow(t);
      const row = t.row;
      const want = prev ? prev.nextSibling : tbody.firstChild;
      if (want !== row.tr) tbody.insertBefore(row.tr, want);
      prev = row.tr;

      put(row.tr.dataset, "state", t.state);
      put(row.tr.dataset, "history", t.history.join(" "));
      put(row.badge, "className", `tier-badge ${t.state}`);
      put(row.badge, "textContent", t.state);
      put(row.badge, "title", {
        live: "logs.get(id) returns it",
        waiting: "past its archive tier: hidden from reads, not yet in logs.archive (the next reaper pass moves it, once onExpire accepts it)",
        archived: "logs.archive.get(id) returns it",
        gone: "neither logs.get(id) nor logs.archive.get(id) returns it",
      }[t.state]);

      const [live, archived, gone] = row.segs;
      const aEnd = a ?? d ?? span;
      put(live.style, "left", "0%");
      put(live.style, "width", pct(aEnd));
      put(archived.style, "left", pct(aEnd));
      put(archived.style, "width", a === null ? "0%" : pct((d ?? span) - a));
      put(gone.style, "left", pct(d ?? span));
      put(gone.style, "width", d === null ? "0%" : pct(span - d));
      const age = t.at === null ? null : now - t.at;
      put(row.marker, "hidden", age === null || t.state === "gone");
      if (age !== null && t.state !== "gone") put(row.marker.style, "left", pct(age));
      put(row.bar, "title", `age ${age === null ? "?" : age.toFixed(1)} s · tiers: ${tiersText(tiers)}`);

      const next = t.at === null ? null : NEXT[t.state](t, a, d);
      if (next) {
        const left = next.at - now;
        put(row.next, "textContent", `${next.what} in ${formatLeft(left)}`);
        put(row.next, "className", `num mono ${left < 3 ? "soon" : ""}`);
      } else {
        put(row.next, "className", "num mono never");
        put(row.next, "textContent", {
          live: "never (no tier)",
          waiting: "next pass",
          archived: "kept (no delete tier)",
          gone: t.goneAt ? `since ${clock(new Date(t.goneAt)).slice(0, 8)}` : "—",
        }[t.state]);
      }
    }
    put($("logs-empty"), "hidden", tracked.size > 0);
  }

  // Nothing here polls IndexedDB: the documents are read again when something may have moved
  // them. A write to the collection (a put, a clear, setTiers; here or in another tab) fires
  // "change" with `collection: "logs"`; a reaper pass that archives or deletes documents fires
  // "expired" with their ids under `collections.logs`. The rest happens by the clock with no
  // event: a live document leaves the live data at its archive tier (it shows "waiting" until a
  // pass archives it), an archived one leaves the archive at its delete tier; the page knows each
  // document's `at` and the tiers, so one timer reads again at the soonest such moment.
  // SLOW: another tab's logs.archive.clear() fires nothing here, so while the archive shows any
  // document it is read again every SLOW_MS as well.
  let timer = 0;
  const refresh = serialized(async () => {
    if (!logs) return;
    clearTimeout(timer);
    const readAt = nowSecs();
    try {
      const [live, archived] = await Promise.all([logs.values(), archive.values()]);
      const now = nowSecs();
      const tiers = indexTiers(logs.ttlIndex());
      const a = tierAt(tiers, "archive");
      const d = tierAt(tiers, "delete");
      const seen = new Set();
      for (const doc of live) { seen.add(doc.id); bumpNextId(doc.id); track(doc, "live"); }
      for (const doc of archived) { seen.add(doc.id); bumpNextId(doc.id); track(doc, "archived"); }
      for (const t of tracked.values()) {
        if (seen.has(t.id)) continue;
        // In neither: between its archive and delete tiers and never seen archived, it waits for
        // the reaper (and the hook); otherwise it was deleted (its delete tier, or a clear()).
        const between = t.at !== null && a !== null && now >= t.at + a && (d === null || now < t.at + d);
        setState(t, between && t.state !== "archived" && t.state !== "gone" ? "waiting" : "gone");
      }
      const gone = [...tracked.values()].filter((t) => t.state === "gone").sort((x, y) => x.goneAt - y.goneAt);
      for (const t of gone.slice(0, Math.max(0, gone.length - GONE_ROWS_KEPT))) {
        t.row?.tr.remove();
        tracked.delete(t.id);
      }
      const [nLive, nArchived] = await Promise.all([logs.count(), archive.count()]);
      put($("logs-live"), "textContent", String(nLive));
      put($("logs-archived"), "textContent", `${nArchived} archived`);
      put($("logs-archived").dataset, "value", String(nArchived));
      render();
      // The next read by the clock: the soonest tier a document reaches (live: its archive tier,
      // or its delete tier without one; waiting or archived: its delete tier), or SLOW_MS (above).
      let next = nArchived > 0 ? readAt + SLOW_MS / 1000 : Infinity;
      for (const t of tracked.values()) {
        if (t.at === null || t.state === "gone") continue;
        const at = t.at + ((t.state === "live" ? a ?? d : d) ?? Infinity);
        if (at > readAt && at < next) next = at;
      }
      if (next !== Infinity) timer = later(refresh, next * 1000);
    } catch (e) {
      logLine("error", `logs refresh failed: ${errorText(e)}`);
      timer = later(refresh, Date.now() + SLOW_MS); // tried again
    }
  });

  async function open() {
    logs = await store.collection(LOGS, { keyPath: "id" });
    const idx = logs.ttlIndex();
    if (!idx) {
      logs = await store.collection(LOGS, { keyPath: "id", ttlIndex: { field: "at", tiers: config.tiers } });
    } else if (config.tiersGiven && !sameTiers(idx, config.tiers)) {
      await logs.setTiers(config.tiers); // ?tiers= given: it wins over what a former visit set
    }
    archive = logs.archive;
    window.logs = logs; // for the devtools console
    const tiers = indexTiers(logs.ttlIndex());
    $("tier-archive-input").value = String(tierAt(tiers, "archive") ?? "");
    $("tier-delete-input").value = String(tierAt(tiers, "delete") ?? "");
    for (const id of ["tiers-set", "logs-clear", "logs-archive-clear"]) $(id).disabled = false;
    form.querySelector('button[type="submit"]').disabled = false;
    renderIndex();
    store.addEventListener("change", (ev) => { if (ev.detail?.collection === LOGS) refresh(); });
    store.addEventListener("expired", (ev) => { if (ev.detail?.collections?.[LOGS]?.length > 0) refresh(); });
    store.addEventListener("reopened", () => refresh());
    await refresh();
    renderPreview();
    // The countdowns and the markers move with the clock: drawn (no IndexedDB read) every TICK_MS.
    setInterval(render, TICK_MS);
  }

  return { open };
}

/**
 * Wires the third part's panels to `store` (opened with `storeOptions(config, { onExpire:
 * server.onExpire })`). `logLine(type, text)` writes to the reaper panel's event log.
 */
export async function mountTiers({ store, logLine, server, config, reapIntervalMs, dbName }) {
  const section = (name) => document.querySelector(`[data-testid="${name}-section"]`);
  for (const [name, panel] of [["tiers", mountHandOff], ["logs", mountLogs]]) {
    try {
      await panel({ store, logLine, server, config, reapIntervalMs, dbName }).open();
      section(name).dataset.state = "ready";
    } catch (e) {
      section(name).dataset.state = "error";
      logLine("error", `${name} panel: ${errorText(e)}`);
    }
  }
}
