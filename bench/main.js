// Page side of the issue-4 benchmark. The driver (bench/run.mjs) calls window.bench.* through
// playwright, one step per call, and does the statistics.
import raw from "./contenders/raw.js";
import idbkeyval from "./contenders/idbkeyval.js";
import localforage from "./contenders/localforage.js";
import dexie from "./contenders/dexie.js";
import idbttl, { load as loadIdbTtl } from "./contenders/idbttl.js";
import { mulberry32, key, value } from "./lib/data.js";

const C = Object.fromEntries([raw, idbkeyval, localforage, dexie, idbttl].map((c) => [c.name, c]));
const H = 3_600_000;

const check = (cond, msg) => { if (!cond) throw new Error("check failed: " + msg); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** n entries; seeded shuffle: frac1 expire at t0+1h(+<10min), frac10 at t0+2h(+<10min), 10% never,
 *  the rest at t0+3h..27h. Expiring keys are spread over the key order. */
function dataset(n, seed, t0, frac1, frac10) {
  const rnd = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  const n1 = Math.round(n * frac1), n10 = Math.round(n * frac10), nInf = Math.round(n * 0.1);
  const e = new Array(n);
  const rest = [];
  order.forEach((idx, pos) => {
    if (pos < n1) e[idx] = t0 + H + Math.floor(rnd() * 600_000);
    else if (pos < n1 + n10) e[idx] = t0 + 2 * H + Math.floor(rnd() * 600_000);
    else if (pos < n1 + n10 + nInf) { e[idx] = Infinity; rest.push(idx); }
    else { e[idx] = t0 + 3 * H + Math.floor(rnd() * 24 * H); rest.push(idx); }
  });
  return { n, n1, n10, e, rest, rnd, entries: () => Array.from({ length: n }, (_, i) => [key(i), value(i), e[i]]) };
}
const pick = (rnd, arr, m) => Array.from({ length: m }, () => arr[Math.floor(rnd() * arr.length)]);

let cur = null; // { c, name, t0, ds }

function setClock(atMs) { window.__setClockOffset(atMs - window.__realNow()); }

const bench = {
  async init() {
    const ttl = await loadIdbTtl();
    return { contenders: Object.keys(C), idbTtl: ttl, tsIdbTtl: idbttl.ts.supported() };
  },

  /** Fresh DB, bulk write of n entries (timed unless populate). */
  async begin(cName, n, name, seed, populate = false) {
    const c = C[cName];
    window.__setClockOffset(0);
    const t0 = window.__realNow();
    const ds = dataset(n, seed, t0, 0.01, 0.1);
    await c.open(name);
    const es = ds.entries();
    const t = performance.now();
    if (populate && c.populate) await c.populate(es); else await c.setMany(es);
    const ms = performance.now() - t;
    cur = { c, name, t0, seed, ds };
    return { bulk: populate ? null : ms, t0 };
  },

  async reads() {
    const { c, ds } = cur;
    const gk = pick(ds.rnd, ds.rest, 1000).map(key);
    let t = performance.now();
    for (const k of gk) check((await c.get(k)) !== undefined, "get " + k);
    const get1000 = performance.now() - t;
    const mk = pick(ds.rnd, ds.rest, 1000).map(key);
    t = performance.now();
    const vs = await c.getMany(mk);
    const getMany1000 = performance.now() - t;
    check(vs.length === 1000 && vs.every((v) => v !== undefined), "getMany");
    return { get1000, getMany1000 };
  },

  /** idb-ttl only: where an awaited get's time goes. The same 1 000 random live keys are read
   *  from idb-ttl's own database four ways, each awaited one after another: raw IndexedDB (a
   *  second connection) in ONE transaction by primary key [e, k] (the request round trip alone);
   *  raw, a transaction per get, by primary key (+ a transaction); raw, a transaction per get
   *  through the by_key index (+ the index step: an idb-ttl get without an expiry hint); idb-ttl's
   *  `get` (+ the wasm boundary, key conversion and promise plumbing; its expiry hints take the
   *  primary-key path); then gets of idle entries, each extending its entry. */
  async split() {
    const { c, ds, name } = cur;
    if (c.name !== "idb-ttl") return {};
    const keys = pick(ds.rnd, ds.rest, 1000).map(key);
    const req = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    const db = await req(indexedDB.open(name));
    try {
      const store = () => db.transaction("entries").objectStore("entries");
      const byKey = store().index("by_key");
      const pks = [];
      for (const k of keys) pks.push(await req(byKey.getKey(k)));
      check(pks.every((pk) => pk !== undefined), "split: every key has a record");
      const time = async (f) => { const t = performance.now(); await f(); return performance.now() - t; };
      const out = {};
      out.splitOneTx = await time(async () => {
        const s = store();
        for (const pk of pks) check((await req(s.get(pk))) !== undefined, "split one tx");
      });
      out.splitTxPk = await time(async () => {
        for (const pk of pks) check((await req(store().get(pk))) !== undefined, "split by primary key");
      });
      out.splitTxIndex = await time(async () => {
        for (const k of keys) check((await req(store().index("by_key").get(k))) !== undefined, "split by index");
      });
      out.splitIdbTtl = await time(async () => {
        for (const k of keys) check((await c.get(k)) !== undefined, "split idb-ttl");
      });
      // Idle entries: 1 000 more keys with a window of an hour, the page's clock moved on by a
      // tenth of it plus a minute, then 1 000 awaited gets of them: every read extends its entry,
      // the extensions of each 50 ms written together. They are removed after, and the clock set
      // back, so the steps that follow see the dataset as before.
      const idle = keys.map((_, i) => `idle-${i}`);
      await c.store.setMany(idle.map((k, i) => [k, value(i), { idle: 3600 }]));
      const t0 = window.__realNow();
      setClock(t0 + 7 * 60_000);
      try {
        out.splitIdleGet = await time(async () => {
          for (const k of idle) check((await c.get(k)) !== undefined, "split idle get");
        });
        await sleep(200);
        check(c.store.stats().idleWaiting === 0, "the extensions are written");
      } finally {
        window.__setClockOffset(0);
      }
      await c.store.deleteMany(idle);
      // An encrypted store (its own database, the same 1 000 keys and values): setMany of them,
      // then the same awaited gets, each value decrypted.
      const encName = `${name}-encrypted`;
      const m = await import("../www/pkg/index.js");
      const vault = await m.TtlStore.open(encName, { autoReap: false, encryption: true });
      try {
        const items = keys.map((k, i) => [k, value(i), { ttl: 3600 }]);
        out.splitEncSetMany = await time(() => vault.setMany(items));
        out.splitEncGet = await time(async () => {
          for (const k of keys) check((await vault.get(k)) !== undefined, "split encrypted get");
        });
      } finally {
        vault.close();
        await m.TtlStore.destroy(encName);
      }
      return out;
    } finally {
      db.close();
    }
  },

  async writes() {
    const { c, ds, t0 } = cur;
    const ow = pick(ds.rnd, ds.rest, 1000);
    let t = performance.now();
    for (let j = 0; j < ow.length; j++) await c.set(key(ow[j]), value(ow[j] + 1), t0 + 6 * H + j);
    const setOverwrite1000 = performance.now() - t;
    t = performance.now();
    for (let j = 0; j < 1000; j++) await c.set(key(ds.n + j), value(ds.n + j), t0 + 5 * H + j);
    const setNew1000 = performance.now() - t;
    return { setOverwrite1000, setNew1000 };
  },

  /** 1 000 awaited increments of one new key (each checked: 1, 2, ... 1 000), in the open store.
   *  idb-ttl also gives the split of its ratio: on its own database (a second connection), raw
   *  IndexedDB making what its incr makes, a transaction per increment: by_key get + put; the
   *  same with the watchdog's probe (a count of a key no record has) first; then idb-ttl's
   *  update(key, n => (n ?? 0) + 1), the updater a JS function. */
  async incrs() {
    const { c, name } = cur;
    if (!c.incr) return {};
    const time = async (f) => { const t = performance.now(); await f(); return performance.now() - t; };
    const out = {};
    out.incr1000 = await time(async () => {
      for (let j = 1; j <= 1000; j++) check((await c.incr("counter")) === j, `incr ${j}`);
    });
    if (c.name !== "idb-ttl") return out;
    const req = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    const done = (tx) => new Promise((ok, ko) => { tx.oncomplete = () => ok(); tx.onerror = tx.onabort = () => ko(tx.error); });
    const db = await req(indexedDB.open(name));
    try {
      const rawIncr = async (k, probe) => {
        const tx = db.transaction("entries", "readwrite");
        const s = tx.objectStore("entries");
        if (probe) s.count(-Infinity);
        const now = Date.now();
        let n;
        s.index("by_key").get(k).onsuccess = (ev) => {
          const r = ev.target.result;
          const live = r !== undefined && r.e > now;
          n = (live ? r.v : 0) + 1;
          s.put(live ? { ...r, v: n } : { k, e: Infinity, v: n });
        };
        await done(tx);
        return n;
      };
      out.splitIncrRawIndex = await time(async () => {
        for (let j = 1; j <= 1000; j++) check((await rawIncr("counter-raw", false)) === j, `raw incr ${j}`);
      });
      out.splitIncrRawProbe = await time(async () => {
        for (let j = 1; j <= 1000; j++) check((await rawIncr("counter-probe", true)) === j, `raw incr + probe ${j}`);
      });
    } finally {
      db.close();
    }
    out.splitIncrUpdate = await time(async () => {
      for (let j = 1; j <= 1000; j++) check((await c.store.update("counter-update", (n) => (n ?? 0) + 1)) === j, `update ${j}`);
    });
    return out;
  },

  async closeCurrent() { await cur?.c.close(); cur = null; },

  /** In a freshly loaded page: open + first get (idb-ttl: wasm init timed separately). */
  async cold(cName, n, name, seed, t0) {
    const c = C[cName];
    let initMs = null;
    if (cName === "idb-ttl") {
      const t = performance.now();
      await loadIdbTtl();
      initMs = performance.now() - t;
    }
    const k = key(Math.floor(n / 2) + 1);
    const t = performance.now();
    await c.open(name);
    const v = await c.get(k);
    const ms = performance.now() - t;
    check(v !== undefined, "cold get " + k);
    const ds = dataset(n, seed, t0, 0.01, 0.1);
    cur = { c, name, t0, seed, ds };
    return { cold: ms, coldInit: initMs };
  },

  /** Reap 1% (clock at t0+1h10m+), then the 10% (clock at t0+2h10m+). */
  async reaps() {
    const { c, ds, t0 } = cur;
    const out = {};
    setClock(t0 + H + 660_000);
    let t = performance.now();
    let removed = await c.reap();
    out.reap1pct = performance.now() - t;
    check(removed === ds.n1, `reap 1%: removed ${removed}, expected ${ds.n1}`);
    setClock(t0 + 2 * H + 660_000);
    t = performance.now();
    removed = await c.reap();
    out.reap10pct = performance.now() - t;
    check(removed === ds.n10, `reap 10%: removed ${removed}, expected ${ds.n10}`);
    window.__setClockOffset(0);
    return out;
  },

  async end() {
    window.__setClockOffset(0);
    if (cur) { await cur.c.destroy(cur.name); cur = null; }
  },

  /** Reap-only case: fresh DB of n, frac10 expiring, populated untimed, one timed reap. */
  async reapOnly(cName, n, name, seed) {
    const c = C[cName];
    window.__setClockOffset(0);
    const t0 = window.__realNow();
    const ds = dataset(n, seed, t0, 0, 0.1);
    await c.open(name);
    try {
      const es = ds.entries();
      if (c.populate) await c.populate(es); else await c.setMany(es);
      setClock(t0 + 2 * H + 660_000);
      const t = performance.now();
      const removed = await c.reap();
      const ms = performance.now() - t;
      check(removed === ds.n10, `reap: removed ${removed}, expected ${ds.n10}`);
      return { reap: ms };
    } finally {
      window.__setClockOffset(0);
      await c.destroy(name);
    }
  },

  /** Time series: nEvents over the 10 days before now, 10 sensors, appended in batches of `batch`
   *  (one transaction / insertMany each); then everything older than 5 days is expired and removed. */
  async timeSeries(cName, nEvents, batch, name) {
    const c = C[cName];
    if (cName === "idb-ttl") await loadIdbTtl(); // the page may have been reloaded since
    if (!c.ts || (c.ts.supported && !c.ts.supported())) return { skipped: `${cName} has no time-series collection` };
    window.__setClockOffset(0);
    const t0 = window.__realNow();
    const span = 10 * 24 * H, step = span / nEvents;
    const expireAfterS = 30 * 24 * 3600;
    await c.ts.open(name, expireAfterS);
    try {
      let t = performance.now();
      for (let i = 0; i < nEvents; i += batch) {
        const evs = [];
        for (let j = i; j < Math.min(nEvents, i + batch); j++) {
          evs.push({ ts: Math.floor(t0 - span + j * step), sensor: "s" + (j % 10), value: 20 + (j % 100) / 10, seq: j });
        }
        await c.ts.append(evs);
      }
      const append = performance.now() - t;
      const cut = t0 - span / 2;
      setClock(cut + expireAfterS * 1000); // now - expireAfter = cut (for idb-ttl)
      t = performance.now();
      const removed = await c.ts.expireBefore(cut);
      const expire = performance.now() - t;
      if (cName !== "idb-ttl") check(removed === nEvents / 2, `ts expire removed ${removed}, expected ${nEvents / 2}`);
      return { tsAppend: append, tsExpire: expire, removed };
    } finally {
      window.__setClockOffset(0);
      c.ts.close();
      await new Promise((ok) => { const r = indexedDB.deleteDatabase(name); r.onsuccess = r.onerror = () => ok(); });
    }
  },
  sleep,
  ready: true,
};
window.bench = bench;
