// Question: (page side of run-layouts.mjs) Which storage layout should idb-ttl use: [e, k] keys with a unique k index, or k keys with an e index?
// Storage-layout micro-benchmark for idb-ttl (issue 2, item 4), plain IndexedDB, no library.
//
// Layout A: one object store, records {k, e, v}, in-line key path ["e","k"] (e = expiry in Unix ms,
//           Infinity = no expiry) + UNIQUE index by_key on "k". Expired records are contiguous at
//           the start of the key order, so the reaper deletes them with key-range deletes.
// Layout B: object store keyed by "k", records {k, e, v}, non-unique index by_exp on "e".
//           The reaper finds expired keys through the index and deletes them one by one.
//
// Driven by bench/run-layouts.mjs through window.layoutBench. Every function returns plain data.

import { mulberry32, key, value } from "../lib/data.js";
import { req2p, txDone } from "../contenders/util.js";

const STORE = "kv";
const REAP_BATCH = 500;

// ---------- small helpers ----------

export function openDb(layout, name) {
  return new Promise((ok, ko) => {
    const r = indexedDB.open(name, 1);
    r.onupgradeneeded = () => {
      const db = r.result;
      if (layout !== "B") {
        const s = db.createObjectStore(STORE, { keyPath: ["e", "k"] });
        s.createIndex("by_key", "k", { unique: true });
      } else {
        const s = db.createObjectStore(STORE, { keyPath: "k" });
        s.createIndex("by_exp", "e", { unique: false });
      }
    };
    r.onsuccess = () => ok(r.result);
    r.onerror = () => ko(r.error);
    r.onblocked = () => ko(new Error("open blocked: " + name));
  });
}

export function deleteDb(name) {
  return new Promise((ok, ko) => {
    const r = indexedDB.deleteDatabase(name);
    r.onsuccess = () => ok();
    r.onerror = () => ko(r.error);
  });
}

// ---------- the two layouts ----------

const A = {
  // One readwrite tx; all getKey requests issued at once, each success issues its delete/put.
  async setMany(db, recs) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    const idx = store.index("by_key");
    for (const rec of recs) {
      const g = idx.getKey(rec.k);
      g.onsuccess = () => {
        const old = g.result;
        if (old !== undefined && old[0] !== rec.e) store.delete(old);
        store.put(rec);
      };
    }
    await txDone(tx);
  },
  // Untimed population of an EMPTY store (no getKey needed).
  async load(db, recs) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    for (const rec of recs) store.put(rec);
    await txDone(tx);
  },
  async set(db, rec) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    const g = store.index("by_key").getKey(rec.k);
    g.onsuccess = () => {
      const old = g.result;
      if (old !== undefined && old[0] !== rec.e) store.delete(old);
      store.put(rec);
    };
    await txDone(tx);
  },
  async get(db, k) {
    const tx = db.transaction(STORE, "readonly");
    const rec = await req2p(tx.objectStore(STORE).index("by_key").get(k));
    return rec !== undefined && rec.e > Date.now() ? rec.v : undefined;
  },
  async getMany(db, keys) {
    const tx = db.transaction(STORE, "readonly");
    const idx = tx.objectStore(STORE).index("by_key");
    const now = Date.now();
    const recs = await Promise.all(keys.map((k) => req2p(idx.get(k))));
    return recs.map((r) => (r !== undefined && r.e > now ? r.v : undefined));
  },
  async count(db) {
    const tx = db.transaction(STORE, "readonly");
    // [now, <string>] < [now, []] (strings sort before arrays), so this is exactly e > now.
    return req2p(tx.objectStore(STORE).count(IDBKeyRange.lowerBound([Date.now(), []], true)));
  },
  async reap(db, now) {
    let removed = 0;
    for (let guard = 0; guard < 1_000_000; guard++) {
      const tx = db.transaction(STORE, "readwrite");
      const store = tx.objectStore(STORE);
      const keys = await req2p(store.getAllKeys(IDBKeyRange.upperBound([now, []]), REAP_BATCH));
      if (keys.length > 0) store.delete(IDBKeyRange.upperBound(keys[keys.length - 1]));
      await txDone(tx);
      removed += keys.length;
      if (keys.length < REAP_BATCH) break;
    }
    return removed;
  },
};

// A2: layout A's schema with a speculative put. getKey and put are issued together; a new key
// costs one round trip (as in B). If the key exists with another expiry, the put fails on the
// unique index (error swallowed), and getKey's success handler - which runs first, requests complete
// in order - deletes the old record and puts again. Same stored result as A.
function speculative(store, idx, rec) {
  const g = idx.getKey(rec.k);
  g.onsuccess = () => {
    const old = g.result;
    if (old !== undefined && old[0] !== rec.e) { store.delete(old); store.put(rec); }
  };
  const p = store.put(rec);
  p.onerror = (ev) => {
    if (p.error?.name === "ConstraintError") { ev.preventDefault(); ev.stopPropagation(); }
  };
}
const A2 = {
  ...A,
  async setMany(db, recs) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    const idx = store.index("by_key");
    for (const rec of recs) speculative(store, idx, rec);
    await txDone(tx);
  },
  async set(db, rec) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    speculative(store, store.index("by_key"), rec);
    await txDone(tx);
  },
};

const B = {
  async setMany(db, recs) {
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    for (const rec of recs) store.put(rec);
    await txDone(tx);
  },
  async load(db, recs) { return B.setMany(db, recs); },
  async set(db, rec) {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put(rec);
    await txDone(tx);
  },
  async get(db, k) {
    const tx = db.transaction(STORE, "readonly");
    const rec = await req2p(tx.objectStore(STORE).get(k));
    return rec !== undefined && rec.e > Date.now() ? rec.v : undefined;
  },
  async getMany(db, keys) {
    const tx = db.transaction(STORE, "readonly");
    const store = tx.objectStore(STORE);
    const now = Date.now();
    const recs = await Promise.all(keys.map((k) => req2p(store.get(k))));
    return recs.map((r) => (r !== undefined && r.e > now ? r.v : undefined));
  },
  async count(db) {
    const tx = db.transaction(STORE, "readonly");
    return req2p(tx.objectStore(STORE).index("by_exp").count(IDBKeyRange.lowerBound(Date.now(), true)));
  },
  async reap(db, now) {
    let removed = 0;
    for (let guard = 0; guard < 1_000_000; guard++) {
      const tx = db.transaction(STORE, "readwrite");
      const store = tx.objectStore(STORE);
      const keys = await req2p(store.index("by_exp").getAllKeys(IDBKeyRange.upperBound(now), REAP_BATCH));
      for (const k of keys) store.delete(k);
      await txDone(tx);
      removed += keys.length;
      if (keys.length < REAP_BATCH) break;
    }
    return removed;
  },
};

export const LAYOUTS = { A, A2, B };

// ---------- data sets ----------

// n records; a seeded shuffle picks exactly `expiredFrac` of them already expired (e in the last
// hour), 10% without expiry (Infinity), the rest expiring 1 h to 25 h from now. Expired keys are
// spread over the key order, as in real use.
export function dataset(n, expiredFrac, seed, t0) {
  const rnd = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  const nExp = Math.round(n * expiredFrac), nInf = Math.round(n * 0.1);
  const e = new Array(n);
  order.forEach((idx, pos) => {
    if (pos < nExp) e[idx] = t0 - 1 - Math.floor(rnd() * 3_600_000);
    else if (pos < nExp + nInf) e[idx] = Infinity;
    else e[idx] = t0 + 3_600_000 + Math.floor(rnd() * 86_400_000);
  });
  const recs = Array.from({ length: n }, (_, i) => ({ k: key(i), e: e[i], v: value(i) }));
  const live = [];
  for (let i = 0; i < n; i++) if (e[i] > t0) live.push(i);
  return { recs, live, nExp, rnd };
}

const pick = (rnd, arr, m) => Array.from({ length: m }, () => arr[Math.floor(rnd() * arr.length)]);

function check(cond, msg) { if (!cond) throw new Error("check failed: " + msg); }

// ---------- workloads ----------

/** Main sequence on one fresh DB of n entries (10% expired, 10% no expiry):
 *  bulk set (timed, one tx) -> 1000 awaited gets -> getMany(1000) -> count -> 1000 awaited sets
 *  (overwrites of live keys with a new expiry) -> 1000 awaited sets of new keys -> reap the 10% expired. */
export async function mainSequence(layout, n, dbName, seed) {
  const L = LAYOUTS[layout];
  await deleteDb(dbName);
  const t0 = Date.now();
  const { recs, live, nExp, rnd } = dataset(n, 0.1, seed, t0);
  const db = await openDb(layout, dbName);
  const out = {};
  try {
    let t = performance.now();
    await L.setMany(db, recs);
    out.bulkSet = performance.now() - t;

    const getKeys = pick(rnd, live, 1000).map(key);
    t = performance.now();
    for (const k of getKeys) { const v = await L.get(db, k); if (v === undefined) throw new Error("missing " + k); }
    out.get1000 = performance.now() - t;

    const manyKeys = pick(rnd, live, 1000).map(key);
    t = performance.now();
    const vals = await L.getMany(db, manyKeys);
    out.getMany1000 = performance.now() - t;
    check(vals.every((v) => v !== undefined), "getMany found all");

    t = performance.now();
    const c = await L.count(db);
    out.count = performance.now() - t;
    check(c === n - nExp, `count ${c} == ${n - nExp}`);

    const setIdx = pick(rnd, live, 1000);
    t = performance.now();
    for (let j = 0; j < setIdx.length; j++) {
      const i = setIdx[j];
      await L.set(db, { k: key(i), e: t0 + 7_200_000 + j, v: value(i + 1) });
    }
    out.set1000 = performance.now() - t;

    t = performance.now();
    for (let j = 0; j < 1000; j++) await L.set(db, { k: key(n + j), e: t0 + 7_200_000 + j, v: value(n + j) });
    out.set1000new = performance.now() - t;

    t = performance.now();
    const removed = await L.reap(db, Date.now());
    out.reap10pct = performance.now() - t;
    check(removed === nExp, `reap removed ${removed} == ${nExp}`);
    const total = await req2p(db.transaction(STORE).objectStore(STORE).count());
    check(total === n - nExp + 1000, `records after reap ${total} == ${n - nExp + 1000}`);
  } finally {
    db.close();
    await deleteDb(dbName);
  }
  return out;
}

/** Reap only: fresh DB of n entries with `frac` expired, populated untimed, then one timed reap. */
export async function reapOnly(layout, n, frac, dbName, seed) {
  const L = LAYOUTS[layout];
  await deleteDb(dbName);
  const t0 = Date.now();
  const { recs, nExp } = dataset(n, frac, seed, t0);
  const db = await openDb(layout, dbName);
  try {
    await L.load(db, recs);
    const t = performance.now();
    const removed = await L.reap(db, Date.now());
    const ms = performance.now() - t;
    check(removed === nExp, `reap removed ${removed} == ${nExp}`);
    return { reap: ms, removed };
  } finally {
    db.close();
    await deleteDb(dbName);
  }
}

window.layoutBench = { mainSequence, reapOnly, ready: true };
