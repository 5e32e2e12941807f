// The demo's "Count and claim" panel: what several tabs do at once to one key, each call in one
// IndexedDB transaction. A fixed-window rate limit, incr("hits", 1, { ttl: 60 }) (the first hit
// opens the window, later ones keep its expiry); a burst of 100 incr fired at once, whose results
// are all different; and a lock that frees itself, add("lock", tabId, { ttl: 30 }), written only
// where no live lock is. The count and the lock's holder are what store.watch() tells (every
// tab's writes, over the store's BroadcastChannel, and each expiry when it comes); the log is the
// store's "change" events (detail.remote: another tab's). Its own database.

import { clock, describe, errorText, formatLeft, literal, setText } from "./format.js";
import { openPanelStore, panelParts } from "./panel.js";

const DB_NAME = "idb-ttl-demo-atomic";
const HITS = "hits";
const WINDOW_SECS = 60;
const LIMIT = 5;
const BURST = 100;
const LOCK = "lock";
const LOCK_SECS = 30;
const TICK_MS = 100;
const LOG_MAX = 60;
/** A log line counts the same tab's same write again ("×3") while they come this close together. */
const COALESCE_MS = 1500;
/** Ranges of a burst's results shown before "…". */
const RANGES_SHOWN = 12;

/** This tab's name: the value it writes as the lock. */
const TAB = `tab-${Math.random().toString(36).slice(2, 6).padEnd(4, "0")}`;

const [panel, q] = panelParts("atomic-panel");
const countShown = q("atomic-count");
const limitShown = q("atomic-limit");
const windowShown = q("atomic-window");
const burstShown = q("atomic-burst-result");
const lockShown = q("atomic-lock");
const lockLeft = q("atomic-lock-left");
const said = q("atomic-said");
const log = q("atomic-log");

let store = null; // the panel's own, opened by main()
let hits; // what watch("hits") last told: a number, or undefined (no window open)
let holder; // what watch("lock") last told: the holding tab's name, or undefined (free)
/** When each key expires, Unix ms (null: no expiry or no entry), as expiresAt() last read it. */
const deadlines = { [HITS]: null, [LOCK]: null };

/** Shows what the last call answered. */
function say(text, bad = false) {
  said.textContent = `${clock()} ${text}`;
  said.classList.toggle("bad", bad);
}

const recent = new Map(); // `${who}\n${text}` -> { li, msg, time, n, at }: the line that counts it

/** Adds a line to the log: `who` did `text`; the same again shortly after counts on that line. */
function logLine(who, text) {
  const now = Date.now();
  const l = recent.get(`${who}\n${text}`);
  if (l && now - l.at < COALESCE_MS && l.li.isConnected) {
    l.n += 1;
    l.at = now;
    l.li.dataset.count = String(l.n);
    l.msg.textContent = `${text} ×${l.n}`;
    l.time.textContent = clock();
    return;
  }
  const li = document.createElement("li");
  li.dataset.testid = "atomic-log-line";
  li.dataset.who = who;
  li.dataset.text = text;
  li.dataset.count = "1";
  const time = document.createElement("time");
  time.textContent = clock();
  const tag = document.createElement("span");
  tag.className = `tag ${who === "this tab" ? "this-tab" : who === "expired" ? "expired" : "other-tab"}`;
  tag.textContent = who;
  const msg = document.createElement("span");
  msg.className = "msg";
  msg.textContent = text;
  li.append(time, tag, msg);
  log.prepend(li);
  while (log.children.length > LOG_MAX) log.lastChild.remove();
  recent.set(`${who}\n${text}`, { li, msg, time, n: 1, at: now });
}

/** The lock's value as shown: a tab's name bare, anything else (set from the console) as a literal. */
const nameOf = (v) => (typeof v === "string" ? v : describe(v));

/** A tab's name as the log shows it. */
const tabName = (name) => (name === TAB ? "this tab" : nameOf(name));

/** Sorted numbers as runs: [1, 2, 3, 7, 9, 10] -> "1–3, 7, 9–10" (the first RANGES_SHOWN). */
function runs(sorted) {
  const out = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  const more = out.length - RANGES_SHOWN;
  return more > 0 ? `${out.slice(0, RANGES_SHOWN).join(", ")}, … (${more} runs more)` : out.join(", ");
}

// One expiresAt() read per key at a time; a change while one runs asks for one more after it.
const reading = new Map();
async function readDeadline(key) {
  const running = reading.get(key);
  if (running) {
    running.again = true;
    return;
  }
  const r = { again: true };
  reading.set(key, r);
  try {
    while (r.again) {
      r.again = false;
      const at = await store.expiresAt(key); // Unix seconds, null: no expiry, undefined: gone
      deadlines[key] = typeof at === "number" ? at * 1000 : null;
    }
  } catch (e) {
    say(`expiresAt(${literal(key)}): ${errorText(e)}`, true);
  } finally {
    reading.delete(key);
  }
  tick();
}

function renderHits() {
  countShown.textContent = String(hits ?? 0);
  countShown.dataset.count = String(hits ?? 0);
  if (hits === undefined) {
    limitShown.dataset.state = "none";
    limitShown.textContent = "No window open: the next hit opens one for 60 s.";
  } else if (hits <= LIMIT) {
    limitShown.dataset.state = "allowed";
    limitShown.textContent = `Allowed: ${hits} of ${LIMIT} this window.`;
  } else {
    limitShown.dataset.state = "limited";
    limitShown.textContent = `Limited: ${hits} hits, more than ${LIMIT} this window.`;
  }
}

function renderLock() {
  const mine = holder === TAB;
  lockShown.dataset.state = holder === undefined ? "free" : mine ? "mine" : "other";
  lockShown.dataset.holder = holder === undefined ? "" : nameOf(holder);
  lockShown.textContent = holder === undefined
    ? "Free: claim it."
    : mine
      ? `Held by this tab (${TAB}).`
      : `Held by ${nameOf(holder)} (another tab).`;
  q("atomic-release").disabled = !mine;
  q("atomic-renew").disabled = !mine;
}

/** Moves the two countdowns on; reads nothing from the store. */
function tick() {
  const now = Date.now();
  const hitsAt = deadlines[HITS];
  setText(windowShown, hits === undefined
    ? "–"
    : hitsAt === null ? "the window has no expiry" : `the window ends in ${formatLeft((hitsAt - now) / 1000)}, and the count with it`);
  const lockAt = deadlines[LOCK];
  setText(lockLeft, holder === undefined
    ? "–"
    : `${lockAt === null ? "it has no expiry" : `frees itself in ${formatLeft((lockAt - now) / 1000)}`}${holder === TAB ? "" : "; a claim here gets false until then, or until it is released"}`);
}

/** The buttons that work whoever holds the lock; enabled once both watches have told a first value. */
const ALWAYS = ["atomic-hit", "atomic-burst", "atomic-reset", "atomic-claim"];

function mount() {
  const told = new Set(); // the keys whose watch has told its first value
  const first = (key) => {
    if (told.has(key)) return;
    told.add(key);
    if (told.size === 2) for (const id of ALWAYS) q(id).disabled = false;
  };

  store.watch(HITS, (n) => {
    const had = hits;
    hits = n;
    if (n === undefined) {
      if (had !== undefined && deadlines[HITS] !== null && Date.now() >= deadlines[HITS] - 50) logLine("expired", `"hits": the window ended at ${had}`);
      deadlines[HITS] = null;
    } else {
      readDeadline(HITS);
    }
    renderHits();
    tick();
    first(HITS);
  });

  store.watch(LOCK, (h) => {
    const was = holder;
    holder = h;
    if (h === undefined) {
      if (was !== undefined) {
        const expired = deadlines[LOCK] !== null && Date.now() >= deadlines[LOCK] - 50;
        if (expired) logLine("expired", `${was === TAB ? "this tab's" : `${nameOf(was)}'s`} lock: free`);
        else logLine(tabName(was), "released the lock");
      }
      deadlines[LOCK] = null;
    } else {
      if (h !== was) logLine(tabName(h), told.has(LOCK) ? "claimed the lock" : "holds the lock");
      readDeadline(LOCK);
    }
    renderLock();
    tick();
    first(LOCK);
  });

  // Every write to the two keys, here or in another tab: the log, and the expiry read again
  // (expire() changes it without a new value for watch() to tell).
  store.addEventListener("change", (ev) => {
    const d = ev.detail ?? {};
    const keys = Array.isArray(d.keys) ? d.keys : [HITS, LOCK];
    const who = d.remote ? "another tab" : "this tab";
    if (keys.includes(HITS)) {
      logLine(who, `${d.op} "hits"`);
      if (hits !== undefined) readDeadline(HITS);
    }
    if (keys.includes(LOCK)) {
      if (d.op === "expire") logLine(d.remote && holder !== undefined ? tabName(holder) : who, `renewed the lock: expire → ${LOCK_SECS} s`);
      if (holder !== undefined) readDeadline(LOCK);
    }
  });

  const button = (id, fn) => {
    const b = q(id);
    b.addEventListener("click", async () => {
      try { await fn(b); } catch (e) { say(errorText(e), true); }
    });
  };

  button("atomic-hit", async () => {
    const n = await store.incr(HITS, 1, { ttl: WINDOW_SECS });
    say(`incr("hits", 1, { ttl: ${WINDOW_SECS} }) → ${n}: ${n > LIMIT ? `limited (more than ${LIMIT} this window)` : "allowed"}`);
  });

  button("atomic-burst", async (b) => {
    b.disabled = true;
    burstShown.dataset.state = "running";
    burstShown.textContent = `${BURST} incr running…`;
    try {
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: BURST }, () => store.incr(HITS, 1, { ttl: WINDOW_SECS })));
      const ms = performance.now() - started;
      const sorted = [...results].sort((x, y) => x - y);
      const distinct = new Set(results).size;
      burstShown.dataset.results = sorted.join(",");
      burstShown.dataset.state = distinct === BURST ? "distinct" : "repeated";
      burstShown.textContent = `${BURST} incr at once → ${distinct} different results in ${ms.toFixed(0)} ms${distinct === BURST ? "" : " (some repeated: lost updates)"}: ${runs(sorted)}`;
      say(`Promise.all(${BURST} × incr("hits", 1, { ttl: ${WINDOW_SECS} })) → ${sorted[0]} … ${sorted[sorted.length - 1]}`);
    } catch (e) {
      burstShown.dataset.state = "error";
      burstShown.textContent = "";
      throw e;
    } finally {
      b.disabled = false;
    }
  });

  button("atomic-reset", async () => {
    await store.delete(HITS);
    say(`delete("hits"): the next hit opens a new window`);
  });

  button("atomic-claim", async () => {
    const call = `add("lock", ${literal(TAB)}, { ttl: ${LOCK_SECS} })`;
    const got = await store.add(LOCK, TAB, { ttl: LOCK_SECS });
    panel.dataset.claimed = String(got);
    if (got) {
      say(`${call} → true: this tab holds the lock for ${LOCK_SECS} s`);
      return;
    }
    const now = await store.get(LOCK);
    const why = now === undefined ? "it was held, and has been freed since" : now === TAB ? "this tab holds it already" : `${nameOf(now)} holds it`;
    say(`${call} → false: ${why}`);
    logLine("this tab", `add "lock" → false`);
  });

  button("atomic-release", async () => {
    let was;
    await store.update(LOCK, (h) => {
      was = h;
      return h === TAB ? undefined : h;
    });
    const call = `update("lock", (h) => (h === ${literal(TAB)} ? undefined : h))`;
    if (was === TAB) say(`${call}: released`);
    else if (was === undefined) say(`${call}: nothing to release, the lock had expired`);
    else say(`${call}: not released, ${nameOf(was)} holds it (this tab's had expired)`);
  });

  button("atomic-renew", async () => {
    const renewed = await store.expire(LOCK, { ttl: LOCK_SECS, only: "hasExpiry" });
    say(`expire("lock", { ttl: ${LOCK_SECS}, only: "hasExpiry" }) → ${renewed}${renewed ? `: ${LOCK_SECS} s more` : ": the lock had gone"}`);
  });

  renderHits();
  renderLock();
  setInterval(tick, TICK_MS);
}

async function main() {
  q("atomic-tab").textContent = TAB;
  panel.dataset.tab = TAB;
  store = await openPanelStore(DB_NAME, { reapIntervalMs: 2000 }, "atomicStore", (m) => say(m, true));
  if (store) mount();
}

main();
