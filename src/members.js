// The members of one database (tabs, iframes, workers): Web Locks for the reaper's leadership
// (src/timer.rs) and a BroadcastChannel for events and definitions (src/channel.rs). One file
// for both: every snippet is one more module request when the package loads. Every call that
// can throw is caught here, so nothing unwinds through wasm.

// Asks for the exclusive lock `name`, held until `release()`; `onGranted()` runs once it is held
// (at once, or when the holder releases it or its context goes away). Returns null where there
// is no Web Locks API (then every member leads: removal is re-checked, so that is safe).
export function leadership(name, onGranted) {
  let locks;
  try {
    locks = globalThis.navigator && globalThis.navigator.locks;
    if (!locks || typeof locks.request !== "function") return null;
  } catch {
    return null;
  }
  const abort = new AbortController();
  let released = false;
  let unlock;
  const held = new Promise((resolve) => { unlock = resolve; });
  try {
    locks.request(name, { signal: abort.signal }, () => {
      if (released) return undefined;
      try { onGranted(); } catch { /* a closed store; release() follows */ }
      return held;
    }).catch(() => { /* AbortError: released before it was granted */ });
  } catch {
    return null; // SecurityError: an opaque origin (sandboxed iframe, data: URL) has no locks
  }
  return {
    release() {
      released = true;
      abort.abort();
      unlock();
    },
  };
}

// Opens the channel `name`. Another member's event is dispatched on `target` with the same
// detail plus `remote: true`; its definition changes go to `onDefinition(definition)`. `now()`
// is the time in Unix ms (src/timer.rs). Returns null where there is no BroadcastChannel (events
// then stay in their own context).
//
// Posting costs the sender a structured clone and a message to the browser (figures in
// docs/contributing/benchmark-notebook.md), so events are posted only while another member is known. Members say
// "hello" when they join (answered by "here") and "bye" when they close; a member that vanished
// without a word stays known, which costs posts, never events. An event that found no member is
// kept for a few seconds, with its time, and sent to a member whose hello or here shows its
// channel was already open then (the two may have crossed), so no member misses an event that
// happened after it joined. Definitions are always posted.
// Every context reads the same system clock, to the millisecond (or coarser where a browser
// blurs time); the slack errs towards an event too many for a member that joined in those 50 ms,
// never one too few.
const MEMBER_SLACK_MS = 50;
const UNSENT_MS = 5000;
const UNSENT_MAX = 1000;

export function openChannel(name, target, onDefinition, now) {
  let ch;
  try {
    ch = new BroadcastChannel(name);
  } catch {
    return null;
  }
  const born = now();
  const me = `${born}-${Math.random()}`;
  const members = new Set();
  let unsent = [];   // [{ at, message }]
  let open = true;
  const send = (message) => {
    try {
      ch.postMessage(message);
      return true;
    } catch {
      return false;
    }
  };
  // Sends the kept events that happened after `since` (when another member's channel opened).
  // A post reaches every open channel, so what is sent is no longer kept; older ones stay for a
  // member born earlier whose hello or here is still on its way.
  const catchUp = (since) => {
    const at = now();
    const keep = [];
    for (const u of unsent) {
      if (at - u.at >= UNSENT_MS) continue;
      if (u.at >= since - MEMBER_SLACK_MS) send(u.message);
      else keep.push(u);
    }
    unsent = keep;
  };
  ch.onmessage = ({ data }) => {
    if (!open || !data || typeof data.from !== "string") return;
    try {
      if (data.type === "bye") {
        members.delete(data.from);
        return;
      }
      members.add(data.from);
      if (data.type === "hello" || data.type === "here") {
        if (data.type === "hello") send({ type: "here", from: me, born });
        catchUp(Number(data.born));
      } else if (data.type === "definition") {
        onDefinition(data.definition);
      } else if (data.detail && (data.type === "expired" || data.type === "change" || data.type === "evicted")) {
        data.detail.remote = true;
        target.dispatchEvent(new CustomEvent(data.type, { detail: data.detail }));
      }
    } catch { /* a closed store */ }
  };
  send({ type: "hello", from: me, born });
  return {
    // Sends { type, detail } (detail: an event's, or a definition); false if it cannot be cloned.
    post(type, detail) {
      const message = type === "definition" ? { type, from: me, definition: detail } : { type, from: me, detail };
      if (type === "definition" || members.size > 0) return send(message);
      if (unsent.length >= UNSENT_MAX) unsent.shift();
      unsent.push({ at: now(), message });
      return true;
    },
    close() {
      open = false;
      send({ type: "bye", from: me });
      try { ch.close(); } catch { /* already closed */ }
    },
  };
}

// The watched keys of one store (store.watch, src/store/watch.rs). `read(key)` gives promises of
// the key's get() and expiresAt() (undefined for a store gone). A listener gets the key's value
// once read, then its new value when an event on `target` (the store's "change", "expired" and
// "evicted": its own, and other members' as the channel dispatches them) names the key and the
// read shows a write or a live entry gone, and undefined when its expiry comes: one timer for the
// soonest expiry among the watched keys, set again when it rings or an expiry changes. The timer
// is src/timer.rs's: `setTimer(at)` sets it for `at` (Unix ms) or stops it (null), and it calls
// `ring(now)`. Every listener is called inside a try/catch, so none unwinds through wasm; one
// that throws is reported (reportError) and the others still run.
const EVENTS = ["change", "expired", "evicted"];

export function watches(read, target, setTimer) {
  const keyed = new Map(); // key -> { listeners, value, live, at, reads, written, told }
  let timerAt = null;
  const report = (e) => {
    try { reportError(e); } catch { queueMicrotask(() => { throw e; }); }
  };
  const tell = (listeners, value) => {
    for (const f of listeners) {
      try { f(value); } catch (e) { report(e); }
    }
  };
  const arm = () => {
    let next = Infinity;
    for (const w of keyed.values()) if (w.live && w.at < next) next = w.at;
    if (next === (timerAt ?? Infinity)) return;
    timerAt = next === Infinity ? null : next;
    setTimer(timerAt);
  };
  const refresh = async (key, w) => {
    const n = ++w.reads;
    let value, at;
    try { [value, at] = await Promise.all(read(key)); } catch { return; } // closing: the next change reads again
    if (n !== w.reads || keyed.get(key) !== w) return; // a later read answers
    const live = at !== undefined; // Unix seconds, null (no expiry) or undefined (missing, expired)
    const tellThem = !w.told || live !== w.live || (live && w.written);
    w.written = false;
    w.live = live;
    w.at = live && at !== null ? at * 1000 : Infinity;
    if (tellThem) {
      w.told = true;
      w.value = live ? value : undefined;
    }
    arm();
    if (tellThem) tell([...w.listeners], w.value);
  };
  const self = {
    // [keys watched, when the timer rings (Unix ms) or null]
    stats: () => [keyed.size, timerAt],
    ring(now) {
      timerAt = null;
      const due = [];
      for (const w of keyed.values()) {
        if (w.live && w.at <= now) {
          w.live = false;
          w.value = undefined;
          due.push(...w.listeners);
        }
      }
      arm();
      tell(due, undefined);
    },
    watch(key, listener) {
      let w = keyed.get(key);
      const first = !w;
      if (first) keyed.set(key, (w = { listeners: new Set(), value: undefined, live: false, at: Infinity, reads: 0, written: false, told: false }));
      const l = (v) => listener(v); // one entry per watch(), even for the same function twice
      w.listeners.add(l);
      if (first) refresh(key, w);
      else if (w.told) queueMicrotask(() => { if (w.listeners.has(l)) tell([l], w.value); });
      return () => {
        w.listeners.delete(l);
        if (w.listeners.size === 0 && keyed.get(key) === w) {
          keyed.delete(key);
          arm();
        }
      };
    },
    close() {
      for (const t of EVENTS) target.removeEventListener(t, changed);
      timerAt = null;
      keyed.clear();
    },
  };
  // An event: the watched keys it names are read again (all of them after a clear, or when its
  // detail has been changed by a listener before this one); collections' and series' are not
  // entries.
  function changed({ type, detail }) {
    try {
      if (keyed.size === 0 || (type === "change" && (detail.collection !== undefined || detail.timeSeries !== undefined))) return;
      // Every write but those that change no value (add, replace, incr, update write one too).
      const written = type === "change" && detail.op !== "expire" && detail.op !== "persist" && detail.op !== "extend";
      const all = !Array.isArray(detail.keys) || (type === "change" && detail.op === "clear");
      for (const k of all ? [...keyed.keys()] : detail.keys) {
        const w = keyed.get(k);
        if (w) {
          w.written ||= written;
          refresh(k, w);
        }
      }
    } catch { /* nothing to tell */ }
  }
  for (const t of EVENTS) target.addEventListener(t, changed);
  return self;
}

// The live views of one store (store.observe, collection.observe: src/store/observe.rs). A view
// is a query normalized by the wasm side: over the entries `{ prefix }` (string keys starting
// with it), `{ keys }` or `{ from, to }` (a key range, both ends included, either open when
// absent); or `{ collection }`, a collection's documents (their ids as keys). `read(query,
// keys)` gives a promise of the live entries `[{ key, value, expiresAt }]` (expiresAt in Unix
// seconds or null) in key order: of the whole query, or of `keys` only (those the query matches;
// undefined for a store gone), each with `at`, its expiry in Unix ms as stored (Infinity: none),
// which is what the clock is compared with. A listener gets the view's entries once read, then again after
// every change to them: an event on `target` (a write, delete, eviction, expiry removal or idle
// extension, here or in another member) whose keys the query matches re-reads only those keys;
// a clear, or an event without keys, re-reads the view. An entry leaves its view at its expiry,
// told by the store's one timer (`setTimer(at)`, as for watches), not when the reaper removes it.
// Listeners get a fresh frozen array at each change (a re-read value is a new object, so a write
// of an equal value counts), and nothing when keys, expiries and values are the same; each is
// called inside a try/catch (a throw is reported, the others still run). `now()` is the store's
// clock (src/timer.rs), Unix ms.
export function views(read, target, setTimer, now) {
  const all = new Set(); // { query, listeners, entries, chain, told }
  let timerAt = null;
  const report = (e) => {
    try { reportError(e); } catch { queueMicrotask(() => { throw e; }); }
  };
  // IndexedDB's order of the keys a store holds (numbers, then strings by UTF-16 code unit), so
  // this file makes no IndexedDB call ("number" sorts before "string" by name too).
  const cmp = (a, b) => (typeof a === typeof b ? (a > b) - (a < b) : typeof a < typeof b ? -1 : 1);
  const matches = ({ prefix, keys, from, to, collection }, k) => {
    if (collection !== undefined) return true;
    if (prefix !== undefined) return typeof k === "string" && k.startsWith(prefix);
    if (keys !== undefined) return keys.includes(k);
    return (from === undefined || cmp(k, from) >= 0) && (to === undefined || cmp(k, to) <= 0);
  };
  const arm = () => {
    let next = Infinity;
    for (const v of all) for (const e of v.entries) if (e.at < next) next = e.at;
    if (next === (timerAt ?? Infinity)) return;
    timerAt = next === Infinity ? null : next;
    setTimer(timerAt);
  };
  // The entries of `list` whose expiry has not passed now.
  const live = (list) => {
    const t = now();
    return list.filter((e) => e.at > t);
  };
  const tell = (v) => {
    // The clock once more, as late as can be: since the entries were read or the timer rang, wasm
    // calls and (under load) pauses may have let one expire, and no listener is shown it. (The
    // timer, set for it, then rings for nothing and is set again.)
    v.entries = live(v.entries);
    const list = Object.freeze(v.entries.map(({ key, value, expiresAt }) => Object.freeze({ key, value, expiresAt })));
    v.told = true;
    for (const f of [...v.listeners]) {
      try { f(list); } catch (e) { report(e); }
    }
  };
  // Reads (all of the view, or `keys`) in turn: an answer never overtakes an earlier one's.
  const refresh = (v, keys) => {
    v.chain = v.chain.then(async () => {
      if (!all.has(v)) return;
      let got;
      try { got = await read(v.query, keys); } catch { return; } // closing: nothing to tell
      if (got === undefined || !all.has(v)) return;
      // What was read, beside what was shown of the keys not read again; never an entry whose
      // expiry has passed, even one the timer (late under load) has not taken out yet.
      const next = live(keys === undefined ? got : v.entries.filter((e) => !keys.includes(e.key)).concat(got));
      if (keys !== undefined) next.sort((a, b) => cmp(a.key, b.key));
      const same = v.told && next.length === v.entries.length &&
        next.every((e, i) => e.key === v.entries[i].key && e.at === v.entries[i].at && e.value === v.entries[i].value);
      v.entries = next;
      arm();
      if (!same) tell(v);
    });
  };
  const self = {
    // [views, entries shown, when the timer rings (Unix ms) or null]
    stats: () => [all.size, [...all].reduce((n, v) => n + v.entries.length, 0), timerAt],
    ring(t) {
      timerAt = null;
      // The views holding an entry whose expiry came: `tell` takes it out (by the clock, now).
      for (const v of [...all].filter((v) => v.entries.some((e) => e.at <= t))) tell(v);
      arm();
    },
    observe(query, listener) {
      const v = { query, listeners: new Set([(list) => listener(list)]), entries: [], chain: Promise.resolve(), told: false };
      all.add(v);
      refresh(v);
      return () => {
        all.delete(v);
        arm();
      };
    },
    close() {
      for (const t of EVENTS) target.removeEventListener(t, changed);
      timerAt = null;
      all.clear();
    },
  };
  // The keys (ids) an event touched in what `query` views, or null for all of them; [] for none.
  const touchedBy = (query, type, detail) => {
    const c = query.collection;
    if (c === undefined) {
      if (type === "change" && (detail.collection !== undefined || detail.timeSeries !== undefined)) return [];
      if (!Array.isArray(detail.keys) || (type === "change" && detail.op === "clear")) return null;
      return detail.keys.filter((k) => matches(query, k));
    }
    if (type === "expired") return Array.isArray(detail.collections?.[c]) ? detail.collections[c] : [];
    if (type !== "change" || detail.collection !== c) return [];
    // put, delete: the ids; clear and the TTL index's changes: every document.
    return detail.op === "put" || detail.op === "delete" ? detail.keys : null;
  };
  function changed({ type, detail }) {
    try {
      for (const v of all) {
        const touched = touchedBy(v.query, type, detail);
        if (touched === null) refresh(v);
        else if (touched.length > 0) refresh(v, touched);
      }
    } catch { /* nothing to tell */ }
  }
  for (const t of EVENTS) target.addEventListener(t, changed);
  return self;
}
