// Per-record helpers for the IndexedDB adapter (src/idb/mod.rs). They run on the JS side of the
// wasm boundary so that building, filtering and mapping thousands of records costs one call, not
// one call per field. No logic about *when* things expire lives here: `now` always comes from Rust.

// A stored record. The object store's in-line key path is ["e", "k"]: records sort by expiry
// (Unix ms, Infinity = never), so everything expired is one contiguous key range.
export function record(k, e, v) { return { k, e, v }; }
export function recordExpiry(r) { return r.e; }
export function recordValue(r) { return r.v; }

// Parts of compound primary keys ([e, k] for entries, [c, r, i] for documents).
export function pkAt(pk, n) { return pk[n]; }

// Reads of the by_key index come back in key order; keep the live ones.
export function liveKeys(pks, now) {
  const out = [];
  for (const p of pks) if (p[0] > now) out.push(p[1]);
  return out;
}
export function liveValues(recs, now) {
  const out = [];
  for (const r of recs) if (r.e > now) out.push(r.v);
  return out;
}
export function liveEntries(recs, now) {
  const out = [];
  for (const r of recs) if (r.e > now) out.push([r.k, r.v]);
  return out;
}

// Indices of `keys` to write when the same key appears more than once: the last one wins, as if
// the writes ran one after another. Map equality matches IndexedDB's for string and number keys.
export function lastWins(keys) {
  const last = new Map();
  keys.forEach((k, i) => last.set(k, i));
  return Uint32Array.from(last.values()).sort();
}

// ---- Expiry hints ----
// What this connection last saw of each key's expiry, for string and number keys (a Map compares
// them as IndexedDB does), at most HINTS_MAX of them, the oldest forgotten first. A hint lets a
// read go straight to the record's primary key [e, k] instead of through the by_key index, and an
// overwrite delete the old record without looking it up. A hint may be stale (another tab or
// worker wrote the key, the reaper removed it): a read by a stale primary key finds nothing and
// asks the index; an overwrite's put fails on the unique index, and the caller looks up as
// without a hint. Correctness never depends on a hint, only speed.
const HINTS_MAX = 100000;
const hintable = (k) => typeof k === "string" || typeof k === "number";
export function hintedPk(hints, k) {
  const e = hintable(k) ? hints.get(k) : undefined;
  return e === undefined ? undefined : [e, k];
}
export function hint(hints, k, e) {
  if (!hintable(k)) return;
  if (!hints.delete(k) && hints.size >= HINTS_MAX) hints.delete(hints.keys().next().value);
  hints.set(k, e);
}
export function unhint(hints, keys) {
  for (const k of keys) hints.delete(k);
}

// Live values of `keys` in their order (undefined where missing or expired), read in the
// transaction of `store`: by primary key where a hint knows it, else (or when the hint was
// stale) through `byKey`. Rejects like `settle`.
export async function readLive(hints, store, byKey, keys, now, ms) {
  const pks = keys.map((k) => hintedPk(hints, k));
  const recs = await results(keys.map((k, i) => (pks[i] ? store.get(pks[i]) : byKey.get(k))), ms);
  const stale = [];
  recs.forEach((r, i) => { if (r === undefined && pks[i]) stale.push(i); });
  if (stale.length) {
    const again = await results(stale.map((i) => byKey.get(keys[i])), ms);
    stale.forEach((i, j) => { recs[i] = again[j]; });
  }
  return recs.map((r, i) => {
    if (r === undefined) { hints.delete(keys[i]); return undefined; }
    hint(hints, keys[i], r.e);
    return r.e > now ? r.v : undefined;
  });
}

// One write without a lookup (see Conn::write_in): deletes the old record a hint names (`oldPk`,
// or undefined) and puts `rec`. If another record of the key is in the way, the put fails on the
// unique key index; that failure is absorbed and, in its error event (the transaction is still
// active there), the old record is looked up through `byKey` and deleted, and `rec` put again.
// So the transaction commits on its own once every request has answered, as raw IndexedDB code
// does, without a round trip to wasm. Throws as `put` does (DataCloneError).
//
// A put over a record in the way costs a failed request more than a lookup first, so a key
// without a hint is put at once only while such keys have mostly turned out new: `guess.found`
// is a moving average of how often they were stored already (failed puts here, lookups in
// `learn`), starting at 0 for a database this open created and 1/2 otherwise. Returns false,
// without a request, when the caller should look up first.
export function newGuess(created) { return { found: created ? 0 : 0.5 }; }
export function learn(guess, found) { guess.found = guess.found * 0.95 + (found ? 0.05 : 0); }
export function putOver(store, byKey, hints, guess, oldPk, rec) {
  if (oldPk !== undefined) store.delete(oldPk);
  else if (guess.found >= 0.5) return false;
  else learn(guess, false);
  putReplacing(store, byKey, rec.k, rec, () => {
    if (oldPk === undefined) guess.found += 0.05;
    hint(hints, rec.k, rec.e);
  });
  return true;
}

// Puts `rec` into `store`. If another record with the same key in the unique `index`
// (`indexKey`) is in the way, the put fails on that index; the failure is absorbed and, in its
// error event (the transaction is still active there), `conflict()` runs, the old record is
// looked up through `index` and deleted, and `rec` put again: the transaction commits on its
// own, with no round trip to wasm. Used by putOver (entries) and the archive.
function putReplacing(store, index, indexKey, rec, conflict) {
  const req = store.put(rec);
  req.onerror = (event) => {
    if (!req.error || req.error.name !== "ConstraintError") return;
    event.preventDefault();
    event.stopPropagation();
    if (conflict) conflict();
    const old = index.getKey(indexKey);
    old.onsuccess = () => {
      if (old.result !== undefined) store.delete(old.result);
      store.put(rec);
    };
  };
}

// Collections: records { c, r, i, v } keyed [collection, reference ms, id].
export function docRecord(c, r, i, v) { return { c, r, i, v }; }
export function liveDocValues(recs, cutoff) {
  const out = [];
  for (const r of recs) if (r.r > cutoff) out.push(r.v);
  return out;
}
// The live documents of collection `c` with these ids, in their order (`undefined` where
// missing or expired): every id looked up at once through the by_id index.
export async function readDocs(byId, c, ids, cutoff, ms) {
  const recs = await results(ids.map((id) => byId.get([c, id])), ms);
  return recs.map((r) => (r !== undefined && r.r > cutoff ? r.v : undefined));
}
export function allDocs(recs) { return recs.map((r) => r.v); }

// Time series: buckets { s, l, k, t, q, m, n, ts, ev } keyed [series, latest ms, meta key, span
// start, sequence]. `ts` holds each event's time in ms, parallel to `ev`.
export function bucketRecord(s, k, t, q, m, ts, ev) {
  let l = -Infinity;
  for (const x of ts) if (x > l) l = x;
  return { s, l, k, t, q, m, n: ev.length, ts, ev };
}
// A bucket with `events[from..to]` (times in `times`) appended.
export function appendToBucket(b, times, events, from, to) {
  const ts = b ? b.ts.slice() : [];
  const ev = b ? b.ev.slice() : [];
  for (let i = from; i < to; i++) { ts.push(times[i]); ev.push(events[i]); }
  return { ts, ev };
}
export function bucketPart(b, name) { return b[name]; }
// Events of `buckets` with time in [from, to] and after `cutoff`, oldest first.
export function eventsIn(buckets, from, to, cutoff) {
  const hits = [];
  for (const b of buckets) {
    for (let i = 0; i < b.ev.length; i++) {
      const t = b.ts[i];
      if (t >= from && t <= to && t > cutoff) hits.push([t, b.ev[i]]);
    }
  }
  hits.sort((a, b) => a[0] - b[0]);
  return hits.map((h) => h[1]);
}
export function countEvents(buckets, cutoff) {
  let n = 0;
  for (const b of buckets) for (const t of b.ts) if (t > cutoff) n++;
  return n;
}

// ---- Requests and transactions, watched ----
// A transaction that gets no answer within `ms` (another context holding a long transaction on
// the database, or a stuck browser) is aborted and its request or commit rejects with a
// TimeoutError, instead of leaving the store hanging forever. A transaction that has answered
// once is running: busy, not stuck. From then on it is never aborted for being slow (a
// 1 000 000-entry setMany commits for minutes while the browser works through it), so every
// write transaction starts with a probe request (writeTx) whose answer says it is running.
//
// One timer watches them all: a setTimeout + clearTimeout per request cost ~30 us of a ~600 us
// awaited get (bench/profile-get.mjs). The timer is armed for the earliest deadline and not
// cleared when a request answers; when it fires it expires what is overdue and re-arms for the
// earliest deadline left, so a stream of quick requests sets about one timer per `ms`.
const watched = new Set();
let alarm = null;
let alarmAt = Infinity;

// Transactions that have answered a request: running, so no deadline applies to them.
const running = new WeakSet();

function watch(tx, ms, reject) {
  const w = { tx, ms, reject, at: performance.now() + ms };
  if (running.has(tx)) return w;
  watched.add(w);
  if (w.at < alarmAt) arm(w.at);
  return w;
}

function arm(at) {
  if (alarm !== null) clearTimeout(alarm);
  alarmAt = at;
  alarm = setTimeout(ring, Math.max(0, at - performance.now()));
}

function ring() {
  alarm = null;
  alarmAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const w of watched) {
    if (running.has(w.tx)) {
      watched.delete(w);
    } else if (w.at <= now) {
      watched.delete(w);
      expire(w);
    } else if (w.at < next) {
      next = w.at;
    }
  }
  if (next < Infinity) arm(next);
}

function expire({ tx, ms, reject }) {
  let aborted = true;
  try { tx.abort(); } catch { aborted = false; }
  reject(new DOMException(
    aborted
      ? `no answer within ${ms} ms; the transaction was aborted, so nothing it wrote was kept`
      : `no answer within ${ms} ms; the transaction could not be aborted, so whether its writes were kept is unknown`,
    "TimeoutError"));
}

const unwatch = (w) => watched.delete(w);

// Resolves with the request's result, rejects with its DOMException.
export function settle(req, ms) {
  return new Promise((resolve, reject) => {
    const w = watch(req.transaction, ms, reject);
    req.onsuccess = () => { running.add(req.transaction); unwatch(w); resolve(req.result); };
    req.onerror = () => { unwatch(w); reject(req.error); };
  });
}

// One reaper batch on `store`: reads up to `limit` primary keys in [lower, upper] in key order,
// pushes part `n` of each onto `into` (the key, the document id), deletes exactly those records
// (everything from `lower` through the last one read: same transaction, so nothing else is in
// between) and resolves with how many. Keys are read at most READ_CHUNK per request, and handled
// as they come: the page turns a request's result into JS values in one task, and 10 000 keys at
// once made an 80 ms long task on a CPU slowed 3x, 500 at a time none (tests/page/jank.test.mjs).
const READ_CHUNK = 500;
export async function reapRange(store, lower, upper, limit, into, n, ms) {
  let from = IDBKeyRange.bound(lower, upper), count = 0, last;
  for (;;) {
    const want = Math.min(READ_CHUNK, limit - count);
    const got = await settle(store.getAllKeys(from, want), ms);
    for (const pk of got) into.push(pk[n]);
    count += got.length;
    if (got.length) last = got[got.length - 1];
    if (got.length < want || count == limit) break;
    from = IDBKeyRange.bound(last, upper, true);
  }
  if (count) store.delete(IDBKeyRange.bound(lower, last));
  return count;
}

// Looks up, through `index`, the primary key of each of `lookups` (all requests at once), deletes
// the records found and resolves with how many were live: part `n` of their primary key (the
// expiry of an entry, the reference time of a document) after `bound`.
export async function deleteFound(store, index, lookups, n, bound, ms) {
  let live = 0;
  for (const pk of await results(lookups.map((k) => index.getKey(k)), ms)) {
    if (pk === undefined) continue;
    if (pk[n] > bound) live++;
    store.delete(pk);
  }
  return live;
}

// How many records lie in the ranges ([store, lower, upper] each, bounds included), all
// counted in one readonly transaction.
export async function countRanges(db, ranges, ms) {
  const tx = db.transaction([...new Set(ranges.map((r) => r[0]))]);
  const counts = ranges.map(([name, lower, upper]) => tx.objectStore(name).count(IDBKeyRange.bound(lower, upper)));
  let n = 0;
  for (const c of counts) n += await settle(c, ms);
  return n;
}

// The results of `reqs`, requests of one transaction, once all have answered: a transaction
// answers its requests in order, so the last one's answer means every one has. Rejects like
// `settle`.
async function results(reqs, ms) {
  if (reqs.length) await settle(reqs[reqs.length - 1], ms);
  return reqs.map((r) => r.result);
}

// Resolves when the transaction has committed; rejects with the cause of its abort.
export function finish(tx, ms) {
  return new Promise((resolve, reject) => {
    const w = watch(tx, ms, reject);
    tx.oncomplete = () => { unwatch(w); resolve(); };
    tx.onabort = () => {
      unwatch(w);
      reject(tx.error ?? new DOMException("the transaction was aborted", "AbortError"));
    };
  });
}

// Whether this session can store Blob and File values. WebKit's ephemeral sessions (Safari
// Private Browsing) cannot, and a Blob put failing there while an earlier request of its
// transaction is still pending wedges the transaction, and with it the database, until reload. So
// the first write of a connection asks once, with a throwaway transaction that keeps nothing.
export function probeBlobs(db, name, ms) {
  return new Promise((resolve) => {
    let tx;
    try { tx = db.transaction(name, "readwrite"); } catch { resolve(true); return; }
    const timer = setTimeout(() => resolve(true), ms);
    const req = tx.objectStore(name).put(new Blob(["probe"]), "\u0000blob-probe");
    req.onsuccess = () => { clearTimeout(timer); try { tx.abort(); } catch { /* done */ } resolve(true); };
    req.onerror = (event) => {
      event.preventDefault();
      clearTimeout(timer);
      resolve(!(req.error && req.error.name === "UnknownError"));
    };
  });
}

// The path of the first Blob or File inside `v` ("value.files[2]"), or undefined. Walks what
// structured clone walks (arrays, plain and class objects, Map, Set), each object once.
export function blobPath(v) {
  const seen = new WeakSet();
  const stack = [[v, "value"]];
  while (stack.length > 0) {
    const [x, path] = stack.pop();
    if (x === null || typeof x !== "object") continue;
    if (x instanceof Blob) return path;
    if (seen.has(x) || ArrayBuffer.isView(x) || x instanceof ArrayBuffer || x instanceof Date) continue;
    seen.add(x);
    if (x instanceof Map) {
      for (const [k, val] of x) { stack.push([k, `${path}.keys()`], [val, `${path}.get(${String(k)})`]); }
    } else if (x instanceof Set) {
      for (const val of x) stack.push([val, `${path}.values()`]);
    } else {
      const array = Array.isArray(x);
      for (const k of Object.keys(x)) stack.push([x[k], array ? `${path}[${k}]` : `${path}.${k}`]);
    }
  }
  return undefined;
}

// ---- Hand-off (onExpire), archive, caps ----
// One batch of a pass's turn when its records are offered to onExpire or moved to the archive
// (Conn::reap with an Offer): reads up to `limit` records in [lower, upper] of store `name`
// (READ_CHUNK per request, in a readonly transaction), hands them to `how.hook` if there is one
// and waits for it, then, in a readwrite transaction of its own, deletes exactly those primary
// keys (never a range: a record written meanwhile is not touched) and, with `how.archive`, puts
// each into the archive under `how.c`. So a record leaves only after the hook accepted it; a
// crash in between offers it again (at least once). Resolves with how many left, pushing each
// one's key or id onto `into`. A hook that throws, rejects or does not answer within `ms`
// rejects with a DOMException "HandOffError" (its `records`: how many were offered), and
// nothing is removed.
export async function offerRange(db, name, lower, upper, limit, how, into, ms) {
  const store = db.transaction(name).objectStore(name);
  const pks = [], recs = [];
  let from = IDBKeyRange.bound(lower, upper);
  for (;;) {
    const want = Math.min(READ_CHUNK, limit - pks.length);
    const [keys, vals] = await results([store.getAllKeys(from, want), store.getAll(from, want)], ms);
    for (let i = 0; i < keys.length; i++) { pks.push(keys[i]); recs.push(vals[i]); }
    if (keys.length < want || pks.length === limit) break;
    from = IDBKeyRange.bound(keys[keys.length - 1], upper, true);
  }
  if (!pks.length) return 0;
  const items = pks.map((pk, i) => item(how.kind, pk, recs[i]));
  // A record whose delete tier is already past (the pass came late: a hook that kept failing)
  // is offered as a delete, and deleted rather than archived.
  const archived = items.map(([, time]) => how.archive && time + how.after > how.now);
  if (how.hook) {
    await answer(how.hook, items.map(([key, time, value], i) => {
      const at = time + how.after;
      const r = { kind: how.kind, key, value, expiresAt: Number.isFinite(at) ? at / 1000 : null, action: archived[i] ? "archive" : "delete" };
      if (how.name !== undefined) r.name = how.name;
      return r;
    }), ms);
  }
  const tx = writeTx(db, how.archive ? [name, "archive"] : [name], pks.length);
  const done = finish(tx, ms);
  const from_ = tx.objectStore(name);
  for (const pk of pks) from_.delete(pk);
  if (how.archive) {
    const archive = tx.objectStore("archive"), byItem = archive.index("by_item");
    // The same key archived again replaces its archived copy (by_item is unique).
    items.forEach(([i, t, v], j) => { if (archived[j]) putReplacing(archive, byItem, [how.c, i], { c: how.c, t, i, v }); });
  }
  await done;
  how.archived += archived.filter(Boolean).length;
  for (const [key] of items) into.push(key);
  return pks.length;
}

// [key, time, value] of a record as offered: an entry's key, expiry and value; a document's id,
// reference time and document; a bucket's identity (meta key, span start, sequence), latest
// event time and events.
function item(kind, pk, r) {
  if (kind === "entry") return [pk[1], pk[0], r.v];
  if (kind === "document") return [pk[2], pk[1], r.v];
  return [JSON.stringify([pk[2], pk[3], pk[4]]), pk[1], r.ev];
}

// Calls onExpire and waits for its promise (or value), at most `ms`.
function answer(hook, records, ms) {
  const failed = (text) => {
    const ex = new DOMException(text, "HandOffError");
    ex.records = records.length;
    return ex;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(failed(`did not answer within ${ms} ms (timeoutMs)`)), ms);
    const fail = (e) => { clearTimeout(timer); reject(failed(`failed: ${errorText(e)}`)); };
    try {
      Promise.resolve(hook(records)).then(() => { clearTimeout(timer); resolve(); }, fail);
    } catch (e) {
      fail(e);
    }
  });
}

function errorText(e) {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    return "an exception that cannot be shown";
  }
}

// Archive `c`'s records keyed by a time after `cutoff` (now minus the delete tier's after: those
// not yet at their delete tier; -Infinity: all of them).
export function archiveRange(c, cutoff) { return IDBKeyRange.bound([c, cutoff, []], [c, []], true, true); }
export function archivedValue(rec, cutoff) { return rec !== undefined && rec.t > cutoff ? rec.v : undefined; }

// maxEntries, in the write's transaction, after its puts: while the store holds more than `cap`
// entries (live ones only, when `liveOnly`: expired ones then wait for onExpire), evicts entries
// from the front (evictFront). Resolves with the evicted keys; rejects with a DOMException
// "CapReached" when only entries it never evicts are left (the caller aborts the transaction:
// nothing is written).
export async function enforceCap(store, hints, cap, own, now, liveOnly, ms) {
  const counted = liveOnly ? IDBKeyRange.lowerBound([now, []], true) : undefined;
  const over = (await settle(store.count(counted), ms)) - cap;
  if (over <= 0) return [];
  const evicted = await evictFront(store, hints, over, own, now, liveOnly, ms);
  if (evicted.length < over) {
    throw new DOMException(`${over - evicted.length} more would have to go, and only entries without an expiry${liveOnly ? ", expired entries waiting for onExpire" : ""} or written by this call are left`, "CapReached");
  }
  return evicted;
}

// evictOnQuota: one round of eviction, in a readwrite transaction of its own. After a quota
// refusal Firefox makes the next readwrite transaction of the connection a "cleanup" one, where
// puts throw and deletes are allowed and counted back at once: this is that transaction.
export async function makeRoom(db, hints, n, own, now, liveOnly, ms) {
  const tx = db.transaction("entries", "readwrite");
  const done = finish(tx, ms);
  const evicted = await evictFront(tx.objectStore("entries"), hints, n, own, now, liveOnly, ms);
  await done;
  return evicted;
}

// Deletes up to `n` entries from the front of the store, which is expiry order: expired ones
// first (unless `liveOnly`), then the nearest to expiry; never one of `own` (the call's keys) and
// never one without expiry (they sort last, after [Infinity]). Returns their keys.
async function evictFront(store, hints, n, own, now, liveOnly, ms) {
  const mine = new Set(own);
  const evicted = [];
  let from = liveOnly ? IDBKeyRange.bound([now, []], [Infinity], true, true) : IDBKeyRange.upperBound([Infinity], true);
  while (evicted.length < n) {
    const got = await settle(store.getAllKeys(from, READ_CHUNK), ms);
    for (const pk of got) {
      if (evicted.length >= n) break;
      if (mine.has(pk[1])) continue;
      store.delete(pk);
      hints.delete(pk[1]);
      evicted.push(pk[1]);
    }
    if (got.length < READ_CHUNK) break;
    from = IDBKeyRange.bound(got[got.length - 1], [Infinity], true, true);
  }
  return evicted;
}

// A readwrite transaction on `names` for writing, with the watchdog's probe as its first request
// when it touches more than `work` = 1 record.
// Firefox's "cleanup" transaction (the first readwrite one after a quota refusal; every put in
// it throws InvalidStateError) is left to end on its own, empty, which gives back the space of
// the refused write, and a new one is opened.
export function writeTx(db, names, work) {
  let tx = db.transaction(names, "readwrite");
  if (tx.mode === "cleanup") tx = db.transaction(names, "readwrite");
  // The probe: the first request, so its answer means the browser runs the transaction. Only
  // where more than one record is touched: a request costs an awaited set() 10-16%
  // (bench/ab-awaited.mjs), and one record's write never takes long.
  if (work > 1) tx.objectStore(tx.objectStoreNames[0]).count(-Infinity).onsuccess = () => running.add(tx);
  return tx;
}

// ---- The origin's storage (StorageManager) ----
// navigator.storage.estimate()'s { usage, quota }, or {} where there is none (an insecure
// context, an old browser). Rejects as the browser does.
export async function storageEstimate() {
  const s = globalThis.navigator && globalThis.navigator.storage;
  if (!s || typeof s.estimate !== "function") return {};
  const { usage, quota } = await s.estimate();
  return { usage, quota };
}
// navigator.storage.persist(): whether the origin's storage is (now) persistent; false where
// the browser has no StorageManager.
export async function persistStorage() {
  const s = globalThis.navigator && globalThis.navigator.storage;
  if (!s || typeof s.persist !== "function") return false;
  return Boolean(await s.persist());
}
